"""Configuration: safe defaults for `make run`, fail-fast in production, env vars parse."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from app.settings import INSECURE_SECRET, Settings

ROOT = Path(__file__).resolve().parents[2]
GOOD_SECRET = "0123456789abcdef" * 4


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests see only the variables they set, whatever the machine's environment holds."""
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)


def settings() -> Settings:
    return Settings(_env_file=None)


def test_defaults_are_safe_for_embedded_mode() -> None:
    defaults = settings()
    assert defaults.environment == "development"
    assert defaults.database_url == "sqlite:///./data/kartenrunde.db"
    assert defaults.redis_url is None
    assert defaults.allowed_origins == []
    assert defaults.log_format == "auto"


def test_production_refuses_the_default_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENVIRONMENT", "production")
    with pytest.raises(ValidationError, match="SECRET_KEY"):
        settings()


def test_production_refuses_a_secret_shorter_than_32_characters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ENVIRONMENT", "production")
    monkeypatch.setenv("SECRET_KEY", "x" * 31)
    with pytest.raises(ValidationError, match="SECRET_KEY"):
        settings()


def test_production_accepts_a_long_random_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENVIRONMENT", "production")
    monkeypatch.setenv("SECRET_KEY", GOOD_SECRET)
    assert settings().secret_key == GOOD_SECRET


def test_development_accepts_the_default_secret() -> None:
    assert settings().secret_key == INSECURE_SECRET


def test_environment_variables_parse_into_their_types(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALLOWED_ORIGINS", '["https://a.example", "https://b.example"]')
    monkeypatch.setenv("ROOM_IDLE_MINUTES", "30")
    monkeypatch.setenv("MESSAGES_PER_SECOND", "2.5")
    monkeypatch.setenv("MAX_MESSAGE_BYTES", "8192")
    monkeypatch.setenv("REDIS_URL", "redis://localhost:6379/0")
    monkeypatch.setenv("LOG_FORMAT", "json")
    parsed = settings()
    assert parsed.allowed_origins == ["https://a.example", "https://b.example"]
    assert parsed.room_idle_minutes == 30
    assert parsed.messages_per_second == 2.5
    assert parsed.max_message_bytes == 8192
    assert parsed.redis_url == "redis://localhost:6379/0"
    assert parsed.log_format == "json"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("ENVIRONMENT", "staging"),
        ("LOG_FORMAT", "xml"),
        ("ROOM_IDLE_MINUTES", "0"),
        ("MAX_MESSAGE_BYTES", "100"),
        ("MESSAGES_PER_SECOND", "0"),
        ("ALLOWED_ORIGINS", "https://a.example"),
        ("REDIS_URL", "unix:///run/redis.sock"),
        ("PUSH_SERVICES", '["127.0.0.1"]'),
        ("PUSH_SERVICES", '["localhost"]'),
        ("PUSH_SERVICES", '["https://fcm.googleapis.com"]'),
        ("PUSH_TEST_ORIGINS", '["http://127.0.0.1"]'),
        ("PUSH_TEST_ORIGINS", '["http://127.0.0.1:8080/push"]'),
    ],
)
def test_values_out_of_range_stop_the_start(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValueError):
        settings()


def documented_defaults() -> dict[str, str]:
    """The first table of the README's Configuration section: name → default."""
    text = (ROOT / "README.md").read_text()
    section = text.split("### Configuration", 1)[1].split("\n\n| variable", 2)[1]
    rows = re.findall(r"^\| `([A-Z_]+)` \| (.+?) \|", section, flags=re.MULTILINE)
    return {name: default.strip("`") for name, default in rows}


def shown(default: object) -> str:
    if default is None:
        return "unset"
    return default if isinstance(default, str) else json.dumps(default)


def test_every_setting_is_documented_with_its_default() -> None:
    defaults = settings().model_dump()
    expected = {name.upper(): shown(value) for name, value in defaults.items()}
    assert documented_defaults() == expected


def test_production_refuses_a_test_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENVIRONMENT", "production")
    monkeypatch.setenv("SECRET_KEY", GOOD_SECRET)
    monkeypatch.setenv("TEST_CLOCK_FILE", "/tmp/clock")
    with pytest.raises(ValidationError, match="TEST_CLOCK_FILE"):
        settings()


def test_production_refuses_push_test_origins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENVIRONMENT", "production")
    monkeypatch.setenv("SECRET_KEY", GOOD_SECRET)
    monkeypatch.setenv("PUSH_TEST_ORIGINS", '["http://127.0.0.1:8080"]')
    with pytest.raises(ValidationError, match="PUSH_TEST_ORIGINS"):
        settings()


def test_push_services_widen_by_host_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PUSH_SERVICES", '["fcm.googleapis.com", "*.Push.Example.org"]')
    assert settings().push_services == ["fcm.googleapis.com", "*.push.example.org"]
