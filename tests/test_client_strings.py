"""The shared string table (``static/js/i18n.js``) holds only shared words.

Each key there is used by a shared page or module (``static/js/*.js``, ``static/js/pages/``,
``static/js/table/``, ``static/js/games/common.js``, the templates): a word only one game's
module uses belongs in that game's strings file (``static/js/games/<game>.strings.js``), and a
word nobody uses is dead. A key counts as used when it is written out, or when shared code
builds it from a prefix (``t(`status.${...}`)``).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
I18N = ROOT / "static" / "js" / "i18n.js"
KEY = re.compile(r'^\s+"([a-z_]+\.[^"]+)":', re.MULTILINE)
BUILT = re.compile(r"`([a-z_]+\.[a-z_.]*)\$\{")  # a key built from a prefix in a template literal


def shared_table(source: str) -> tuple[list[str], str]:
    """The English keys of the table, and the rest of i18n.js (its code)."""
    start, end = source.index("const STRINGS = {"), source.index("\n};\n")
    table = source[start:end]
    english = table[table.index("  en: {") : table.index("  de: {")]
    return KEY.findall(english), source[end:]


def shared_code() -> str:
    js = ROOT / "static" / "js"
    files = [*js.glob("*.js"), *(js / "pages").glob("*.js"), *(js / "table").glob("*.js")]
    files += [js / "games" / "common.js"]
    files += sorted((ROOT / "templates").rglob("*.html"))
    return "\n".join(path.read_text() for path in files if path != I18N)


def unused(keys: list[str], code: str) -> list[str]:
    """A key ``<key>_one`` (the singular, ``t()`` picks it when ``n`` is 1) is used with
    ``<key>``."""
    prefixes = tuple(BUILT.findall(code))
    return [
        key for key in keys if key.removesuffix("_one") not in code and not key.startswith(prefixes)
    ]


def test_every_shared_string_is_used_by_shared_code() -> None:
    keys, own_code = shared_table(I18N.read_text())
    assert unused(keys, shared_code() + own_code) == []


def test_the_check_finds_a_word_only_a_game_uses() -> None:
    code = 'h("p", {}, t("home.title")); t(`status.${match.status}`);'
    keys = ["home.title", "status.playing", "sc.health", "home.gone"]
    assert unused(keys, code) == ["sc.health", "home.gone"]
