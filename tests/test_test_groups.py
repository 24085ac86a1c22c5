"""The tests' own machinery: `make test` runs them in two processes (pytest-xdist), and the
browser tests of a module that share a match must stay on one worker (tests/conftest.py
marks them with xdist_group). pytest 9.2 silently broke those groups for pytest-xdist 3.8
(pytest-dev/pytest-xdist#1386): every worker played the shared matches again."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

GROUPED = """
import os
import pytest

@pytest.mark.xdist_group("shared")
@pytest.mark.parametrize("i", range(6))
def test_grouped(i):
    with open(os.environ["WORKERS_SEEN"], "a") as seen:
        seen.write(os.environ["PYTEST_XDIST_WORKER"] + "\\n")
"""


def test_tests_marked_with_one_group_run_on_one_worker(tmp_path: Path) -> None:
    (tmp_path / "test_grouped.py").write_text(GROUPED)
    seen = tmp_path / "workers"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-n",
            "2",
            "--dist",
            "loadgroup",
            "-q",
            "-p",
            "no:cacheprovider",
            "test_grouped.py",
        ],
        cwd=tmp_path,
        env={**os.environ, "WORKERS_SEEN": str(seen)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    workers = seen.read_text().split()
    assert len(workers) == 6 and len(set(workers)) == 1, workers
