"""The lock files stay in step with pyproject.toml, where the dependencies are declared.

`requirements.lock` (what the image installs) and `requirements-dev.lock` (what `make test`
installs) are written by `make lock`. If a dependency is added, dropped or its range
changed in pyproject.toml without `make lock`, these tests say so.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
RUNTIME = [Requirement(line) for line in PROJECT["dependencies"]]
DEV = [Requirement(line) for line in PROJECT["optional-dependencies"]["dev"]]
# One requirement of a lock file: the pin, its hashes and the "# via" lines below it.
ENTRY = re.compile(
    r"^(?P<name>[A-Za-z0-9._-]+)==(?P<version>\S+)(?P<rest>.*?)(?=^\S|\Z)", re.M | re.S
)


def pins(lock: str) -> dict[str, tuple[Version, str]]:
    """name → (version, the rest of its entry) of a lock file."""
    text = (ROOT / lock).read_text()
    return {
        canonicalize_name(match["name"]): (Version(match["version"]), match["rest"])
        for match in ENTRY.finditer(text)
    }


def direct(lock: str) -> set[str]:
    """The names the lock file says come from pyproject.toml itself."""
    return {
        name for name, (_, rest) in pins(lock).items() if "kartenrunde (pyproject.toml)" in rest
    }


@pytest.mark.parametrize(
    ("lock", "declared"),
    [("requirements.lock", RUNTIME), ("requirements-dev.lock", RUNTIME + DEV)],
)
def test_every_declared_dependency_is_pinned_within_its_range(
    lock: str, declared: list[Requirement]
) -> None:
    pinned = pins(lock)
    for requirement in declared:
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{requirement} is not in {lock}: make lock"
        version, rest = pinned[name]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"{lock} pins {name}=={version}, outside {requirement}: make lock"
        )
        if requirement.marker is not None:
            assert "; " in rest.splitlines()[0], f"{lock} pins {name} on every platform"
    assert direct(lock) == {canonicalize_name(r.name) for r in declared}, f"{lock}: make lock"


def test_every_pin_has_hashes() -> None:
    for lock in ("requirements.lock", "requirements-dev.lock"):
        for name, (_, rest) in pins(lock).items():
            assert "--hash=sha256:" in rest, f"{name} in {lock}"


def test_the_tests_run_with_the_versions_the_image_installs() -> None:
    runtime = pins("requirements.lock")
    development = pins("requirements-dev.lock")
    assert {name: development[name][0] for name in runtime} == {
        name: version for name, (version, _) in runtime.items()
    }
