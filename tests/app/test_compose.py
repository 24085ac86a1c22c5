"""The container set-up, read as files (no Docker engine runs where the tests run).

What the image and the compose file promise is checked here; what the app container
really gets from compose by test_compose_config.py (`docker compose config`); that the
server process inside them works against PostgreSQL by test_self_hosting.py; all of it
for real, with a Docker daemon, by scripts/compose-check.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from app.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
COMPOSE: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES: dict[str, Any] = COMPOSE["services"]
DOCKERFILE = (ROOT / "Dockerfile").read_text()

# Settings of the tests (refused in production) that neither .env nor Compose offers.
TESTS_ONLY = {"TEST_CLOCK_FILE", "PUSH_TEST_ORIGINS"}
SETTINGS = {name.upper() for name in Settings.model_fields} - TESTS_ONLY
COMPOSE_ONLY = {"POSTGRES_PASSWORD", "PORT", "PROXY_PORT", "COMPOSE_PROFILES"}


def app_environment() -> dict[str, str | None]:
    """The app service's environment; a name without a value is passed through from .env."""
    entries: list[str] = SERVICES["app"]["environment"]
    pairs = (entry.partition("=") for entry in entries)
    return {name: value if sep else None for name, sep, value in pairs}


def env_example_names() -> list[str]:
    """Names set in .env.example, including those shown commented out at their default."""
    text = (ROOT / ".env.example").read_text()
    return re.findall(r"^#?([A-Z][A-Z0-9_]*)=", text, flags=re.MULTILINE)


def dockerfile_instructions(keyword: str) -> list[str]:
    joined = DOCKERFILE.replace("\\\n", " ")
    return re.findall(rf"^{keyword}\s+(.*)$", joined, flags=re.MULTILINE)


def runtime_stage() -> str:
    return DOCKERFILE.rpartition("\nFROM ")[2]


# --- docker-compose.yml ---


def test_compose_runs_the_app_and_postgres_only() -> None:
    default = {name for name, service in SERVICES.items() if "profiles" not in service}
    assert default == {"app", "db"}
    assert SERVICES["app"]["build"] == "."
    assert SERVICES["db"]["image"].startswith("postgres:16")


def test_the_scaled_profile_adds_a_second_app_redis_and_nginx() -> None:
    scaled = {n for n, service in SERVICES.items() if service.get("profiles") == ["scaled"]}
    assert scaled == {"app-2", "redis", "proxy"}
    app, second = SERVICES["app"], SERVICES["app-2"]
    assert {k: v for k, v in second.items() if k != "profiles"} == {
        k: v for k, v in app.items() if k != "ports"
    }
    assert SERVICES["redis"]["image"].startswith("redis:")
    assert SERVICES["proxy"]["image"].startswith("nginx:")
    assert SERVICES["proxy"]["ports"] == ["${PROXY_PORT:-8080}:80"]
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "proxy_set_header Upgrade $http_upgrade;" in conf


def test_both_replicas_run_the_one_image_of_this_project() -> None:
    images = {SERVICES[name]["image"] for name in ("app", "app-2")}
    assert images == {"${COMPOSE_PROJECT_NAME:-kartenrunde}-app"}


def test_nginx_asks_dockers_dns_for_both_replicas_while_it_runs() -> None:
    for name in ("app", "app-2"):
        assert SERVICES[name]["networks"] == {"default": {"aliases": ["app-replicas"]}}
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert re.search(r"^\s*resolver 127\.0\.0\.11 valid=\d+s", conf, flags=re.MULTILINE)
    # A name in a variable is resolved at run time; one in an upstream block only at start.
    assert "set $replicas app-replicas;" in conf
    assert "proxy_pass http://$replicas:8000;" in conf
    assert not re.search(r"^\s*upstream\b", conf, flags=re.MULTILINE)


def test_database_files_live_in_a_named_volume() -> None:
    assert "db-data:/var/lib/postgresql/data" in SERVICES["db"]["volumes"]
    assert "db-data" in COMPOSE["volumes"]


def test_db_is_healthy_when_pg_isready_says_so() -> None:
    test = SERVICES["db"]["healthcheck"]["test"]
    assert test[0] == "CMD-SHELL"
    assert test[1].startswith("pg_isready -U kartenrunde -d kartenrunde")


def test_app_starts_once_the_db_is_healthy() -> None:
    assert SERVICES["app"]["depends_on"] == {"db": {"condition": "service_healthy"}}


def test_compose_file_says_how_to_start_it() -> None:
    header = (ROOT / "docker-compose.yml").read_text().split("\nname:")[0]
    assert "docker compose up -d --wait" in header
    assert "Compose v2" in header


def test_app_is_healthy_when_it_answers_over_http_with_python() -> None:
    test = SERVICES["app"]["healthcheck"]["test"]
    assert test[:3] == ["CMD", "python", "-c"]
    assert "http://127.0.0.1:8000/readyz" in test[3]


@pytest.mark.parametrize("service", ["app", "db"])
def test_services_restart_unless_stopped(service: str) -> None:
    assert SERVICES[service]["restart"] == "unless-stopped"


def test_app_is_published_on_port_from_env_defaulting_to_8000() -> None:
    assert SERVICES["app"]["ports"] == ["${PORT:-8000}:8000"]


def test_metrics_are_served_on_a_port_of_their_own_that_no_service_publishes() -> None:
    assert app_environment()["METRICS_PORT"] == "${METRICS_PORT:-8001}"
    assert "METRICS_PORT=8001" in runtime_stage()
    published = [port for service in SERVICES.values() for port in service.get("ports", [])]
    assert not [port for port in published if "METRICS_PORT" in port or "8001" in port]


def test_app_receives_only_settings_and_can_receive_every_one() -> None:
    assert set(app_environment()) == SETTINGS


def test_app_talks_to_the_db_service_through_psycopg() -> None:
    url = app_environment()["DATABASE_URL"]
    assert url == (
        "postgresql+psycopg://kartenrunde:${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in .env}"
        "@db:5432/kartenrunde"
    )
    db_environment = SERVICES["db"]["environment"]
    assert "POSTGRES_USER=kartenrunde" in db_environment
    assert "POSTGRES_DB=kartenrunde" in db_environment


def test_compose_refuses_to_start_without_the_two_secrets() -> None:
    assert app_environment()["SECRET_KEY"] == "${SECRET_KEY:?set SECRET_KEY in .env}"
    assert (
        "POSTGRES_PASSWORD=${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD in .env}"
        in SERVICES["db"]["environment"]
    )


# --- .env.example ---


def test_env_example_lists_every_setting_and_the_compose_only_names_once() -> None:
    names = env_example_names()
    assert sorted(names) == sorted(SETTINGS | COMPOSE_ONLY)


def test_env_example_values_are_accepted_by_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / ".env.example").read_text()
    for name, value in re.findall(r"^#?([A-Z][A-Z0-9_]*)=(.*)$", text, flags=re.MULTILINE):
        if name in SETTINGS and value:
            monkeypatch.setenv(name, value)
    monkeypatch.setenv("SECRET_KEY", "0123456789abcdef" * 4)  # left empty there
    settings = Settings(_env_file=None)
    assert settings.environment == "production"
    assert settings.allowed_origins == ["https://other.example.org"]


def test_env_example_says_what_each_name_is_for() -> None:
    lines = (ROOT / ".env.example").read_text().splitlines()
    for index, line in enumerate(lines):
        if re.match(r"^#?[A-Z][A-Z0-9_]*=", line):
            assert lines[index - 1].startswith("# "), f"no comment above {line!r}"


# --- Dockerfile ---


def test_image_has_a_build_stage_and_a_slim_runtime_stage() -> None:
    stages = dockerfile_instructions("FROM")
    assert stages == ["python:3.11-slim AS builder", "python:3.11-slim AS runtime"]
    assert "COPY --from=builder /opt/venv /opt/venv" in runtime_stage()


def test_image_installs_the_pinned_dependencies_without_dev_extras() -> None:
    (builder, _) = DOCKERFILE.split("\nFROM python:3.11-slim AS runtime")
    assert "COPY requirements.lock /tmp/requirements.lock" in builder
    install = builder.replace("\\\n", " ")
    pip = r"pip --python /opt/venv/bin/python install .*-r /tmp/requirements.lock"
    assert re.search(pip, install)
    assert "--require-hashes" in install
    assert "requirements-dev.lock" not in DOCKERFILE
    assert "[dev]" not in DOCKERFILE


def test_image_virtualenv_has_no_pip_or_setuptools() -> None:
    assert "python -m venv --without-pip /opt/venv" in DOCKERFILE


def test_image_copies_what_the_server_needs_and_it_exists() -> None:
    sources = [shlex.split(line)[0] for line in dockerfile_instructions("COPY")]
    copied = {source.rstrip("/") for source in sources if not source.startswith("--from")}
    needed = {"app", "engine", "static", "templates", "migrations", "alembic.ini"}
    assert needed <= copied
    for source in copied:
        assert (ROOT / source).exists(), source


def test_image_runs_as_a_non_root_user() -> None:
    users = dockerfile_instructions("USER")
    assert users and users[-1] not in {"root", "0"}
    assert re.search(rf"useradd --system .*\b{users[-1]}$", DOCKERFILE, flags=re.MULTILINE)


def test_image_is_production_and_serves_port_8000_behind_a_proxy() -> None:
    assert "ENVIRONMENT=production" in runtime_stage()
    assert dockerfile_instructions("EXPOSE") == ["8000"]
    command = dockerfile_instructions("CMD")[-1]
    assert command == '["python", "-m", "app", "--port", "8000"]'
    # forwarded headers from loopback and the container's own network, not from anyone
    assert "FORWARDED_ALLOW_IPS=127.0.0.1,::1,local-networks" in runtime_stage()


def test_image_health_check_asks_the_server_with_python() -> None:
    (check,) = dockerfile_instructions("HEALTHCHECK")
    assert 'CMD ["python", "-c",' in check
    assert "http://127.0.0.1:8000/healthz" in check


def test_build_context_leaves_secrets_and_local_data_out() -> None:
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    for pattern in (".env", ".git/", ".venv/", "data/", "*.db", "*.dump"):
        assert pattern in ignored


def test_git_ignores_backups_and_secrets() -> None:
    ignored = (ROOT / ".gitignore").read_text().splitlines()
    for pattern in (".env", "*.dump"):
        assert pattern in ignored
