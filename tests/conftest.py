"""Shared fixtures: app settings over both databases the server supports.

`settings` runs each test that asks for it twice: on a fresh SQLite file and on a fresh
schema of the PostgreSQL at TEST_POSTGRES_URL (started by `make services`; a test fails,
never skips, when it is unreachable).
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import make_url

from app.settings import Settings

POSTGRES_URL = os.environ.get(
    "TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


def postgres_conninfo(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/kartenrunde.db"
        return
    schema = f"test_{secrets.token_hex(6)}"
    try:
        admin = psycopg.connect(postgres_conninfo(POSTGRES_URL), autocommit=True)
    except psycopg.OperationalError as error:
        pytest.fail(f"PostgreSQL at {POSTGRES_URL} is unreachable (run `make services`): {error}")
    with admin:
        admin.execute(f"CREATE SCHEMA {schema}")
        try:
            yield str(
                make_url(POSTGRES_URL)
                .update_query_dict({"options": f"-csearch_path={schema}"})
                .render_as_string(hide_password=False)
            )
        finally:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=database_url,
        secret_key="test-secret-" + "k" * 32,
        log_level="INFO",
        log_format="text",
        messages_per_second=1000,  # tests play fast; the rate limit has its own test
    )
