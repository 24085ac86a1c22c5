"""Rules about the repository's own files.

Every path a tracked file names is a file of this repository: a pointer at a deleted page,
or at a file beside the project that a reader of the repository does not have, is a dead
end (the Dockerfile once cited a deleted docs page, the engine's docstrings a rules
directory outside the repository). The benchmarks import the project as it is installed,
or run as modules of the repository (``python -m bench.cluster``), never by editing
``sys.path``.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# A relative path with a directory and an extension (`docs/protocol.md`, `engine/base.py`);
# not one relative to its own file (`./i18n.js`, `../ui.js`) nor part of a URL or an
# absolute path (`/static/css/app.css`).
POINTER = re.compile(
    r"(?<![\w/.-])((?:[\w-]+/)+[\w.-]+\.(?:md|py|js|html|css|ya?ml|conf|toml|txt|json))\b"
)
# Where a name may be relative to: the repository, and the templates (`rules/_layout.html`).
BASES = (ROOT, ROOT / "templates")
NOT_TEXT = {".png", ".svg", ".ico", ".woff2", ".lock"}


def tracked_texts() -> list[Path]:
    names = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    here = Path(__file__).resolve()  # names dead pointers on purpose, below
    paths = [ROOT / name for name in names if Path(name).suffix not in NOT_TEXT]
    return [path for path in paths if path != here]


def dead_pointers(path: Path) -> list[str]:
    text = path.read_text(errors="replace") if path.is_file() else ""
    named = set(POINTER.findall(text))
    return sorted(target for target in named if not any((b / target).is_file() for b in BASES))


def test_no_file_points_at_a_file_the_repository_does_not_have() -> None:
    dead = {path.relative_to(ROOT).as_posix(): dead_pointers(path) for path in tracked_texts()}
    assert {name: targets for name, targets in dead.items() if targets} == {}


def test_the_check_finds_a_pointer_at_a_file_outside_the_repository(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("See `shared/rules/scoundrel.md`, `docs/gone.md` and `docs/protocol.md`.")
    assert dead_pointers(page) == ["docs/gone.md", "shared/rules/scoundrel.md"]


def test_no_benchmark_edits_sys_path() -> None:
    for script in sorted((ROOT / "bench").glob("*.py")):
        assert "sys.path" not in script.read_text(), f"{script.name} edits sys.path"
