"""The tests' own machinery: `make test` runs them in several processes (pytest-xdist), and the
browser tests of a module that share a match must stay on one worker (tests/conftest.py
marks them with xdist_group). pytest 9.2 silently broke those groups for pytest-xdist 3.8
(pytest-dev/pytest-xdist#1386): every worker played the shared matches again."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TWO_DAYS = Path("tests/browser/test_over_two_days.py")
PROXIES = Path("tests/app/test_proxies.py")


def pytest(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """pytest in a process of its own, without the cache (its files would land in `cwd`),
    with the plugins these tests are about, not every one installed (Playwright's,
    schemathesis' and hypothesis' took 4 of the first test's 4.7 CPU-s)."""
    plugins = ["-p", "no:cacheprovider", "-p", "xdist", "-p", "pytest_timeout"]
    return subprocess.run(
        [sys.executable, "-m", "pytest", *plugins, *args],
        cwd=cwd,
        env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


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
    run = pytest(
        ["-n", "2", "--dist", "loadgroup", "-q", "test_grouped.py"],
        cwd=tmp_path,
        env={"WORKERS_SEEN": str(seen)},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    workers = seen.read_text().split()
    assert len(workers) == 6 and len(set(workers)) == 1, workers


REPORT_GROUPS = """
import pytest

@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    for item in items:
        groups = sorted(mark.args[0] for mark in item.iter_markers("xdist_group"))
        print("groups", item.name, *groups)
"""


def collected_groups(tmp_path: Path, module: Path) -> dict[str, str]:
    """Each test of ``module`` and its xdist groups, as tests/conftest.py leaves them."""
    (tmp_path / "report_groups.py").write_text(REPORT_GROUPS)
    run = pytest(
        ["--collect-only", "-q", "-o", "addopts=", "-p", "report_groups", str(module)],
        cwd=ROOT,
        env={"PYTHONPATH": str(tmp_path)},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    rows = [line.split()[1:] for line in run.stdout.splitlines() if line.startswith("groups ")]
    return {name: " ".join(groups) for name, *groups in rows}


def test_a_browser_test_in_a_group_already_stays_in_that_group_alone(tmp_path: Path) -> None:
    """The two-process scenario on the machine's Redis is in "shared_redis" with the other
    tests there; tests/conftest.py must not add its module's group too (pytest-xdist would
    join both names into a group of its own, run beside "shared_redis")."""
    groups = collected_groups(tmp_path, TWO_DAYS)
    name = "test_a_turn_based_match_over_two_days_on_a_laptop_a_phone_and_with_pushes"
    assert groups == {
        f"{name}[one-process-sqlite]": "test_over_two_days",
        f"{name}[two-processes-postgres-redis]": "shared_redis",
    }


def test_the_tests_that_share_a_module_server_are_one_group_the_others_none(
    tmp_path: Path,
) -> None:
    """Not only in the browser tests: each worker that ran one of them would start the
    module's server again."""
    groups = collected_groups(tmp_path, PROXIES)
    shared = {name for name, group in groups.items() if group == "test_proxies"}
    assert shared == {
        "test_the_trusted_proxy_tells_the_client_address_and_scheme",
        "test_the_launcher_logs_whom_it_believes",
    }
    assert {group for name, group in groups.items() if name not in shared} == {""}


def test_the_browser_tests_are_handed_out_first(tmp_path: Path) -> None:
    """A worker that went back and forth between them and the others would start their
    server and Chromium again each time it came back (tests/conftest.py)."""
    run = pytest(
        ["--collect-only", "-q", "-o", "addopts=", "tests/test_lock.py", str(TWO_DAYS)],
        cwd=ROOT,
        env={},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    collected = [line for line in run.stdout.splitlines() if "::" in line]
    assert collected[0].startswith("tests/browser/"), collected
    assert collected[-1].startswith("tests/test_lock.py::"), collected
