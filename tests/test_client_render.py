"""The table's client draws through one seam: ``render()`` (``static/js/table/render.js``).

Each part of the table (``static/js/table/<part>.js``) exports a ``render<Part>()`` that
draws it from the shell; every handler changes the shell and calls ``render()``, which calls
every part. So no handler can forget to redraw a part: a ``render<Part>()`` called anywhere
but ``render()`` is the hand-picked redraw this seam replaced, and a part ``render()`` does
not call is never drawn.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "static" / "js" / "table"
ENTRY = ROOT / "static" / "js" / "pages" / "table.js"
RENDER = TABLE / "render.js"
PART = re.compile(r"^export function (render[A-Z]\w*)\(", re.MULTILINE)
CALL = re.compile(r"(?<![\w.])(render[A-Z]\w*)\(")
DEFINITION = re.compile(r"function render[A-Z]\w*\(")


def calls(source: str) -> list[str]:
    """The ``render<Part>()`` calls in a module (its own definitions are no calls)."""
    return sorted(set(CALL.findall(DEFINITION.sub("", source))))


def stray_calls(modules: dict[str, str]) -> dict[str, list[str]]:
    """Per module other than render.js, the part renders it calls itself."""
    return {
        name: found
        for name, source in modules.items()
        if name != RENDER.name and (found := calls(source))
    }


def parts_left_out(modules: dict[str, str]) -> list[str]:
    """The parts' exported render functions that render.js does not call."""
    exported = {part for name, source in modules.items() for part in PART.findall(source)}
    return sorted(exported - set(calls(modules[RENDER.name])))


def client_modules() -> dict[str, str]:
    modules = {path.name: path.read_text() for path in sorted(TABLE.glob("*.js"))}
    modules["pages/table"] = ENTRY.read_text()
    return modules


def test_no_handler_draws_a_part_itself() -> None:
    assert stray_calls(client_modules()) == {}


def test_render_draws_every_part() -> None:
    modules = client_modules()
    assert PART.findall(modules["seats.js"]) == ["renderSeats"]
    assert parts_left_out(modules) == []


def test_the_checks_find_a_hand_picked_redraw_and_a_part_left_out() -> None:
    modules = {
        "render.js": "export function render() {\n  renderSeats();\n}\n",
        "seats.js": "export function renderSeats() {}\n",
        "banner.js": "export function renderBanner() {}\n",
        "pages/table": "presence(message) {\n  shell.players = message.players;\n"
        "  renderSeats();\n  render();\n}\n",
    }
    assert stray_calls(modules) == {"pages/table": ["renderSeats"]}
    assert parts_left_out(modules) == ["renderBanner"]
