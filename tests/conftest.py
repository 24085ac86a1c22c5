"""Shared fixtures: app settings on the databases the server supports.

`settings` runs a test on SQLite at the newest schema, empty. A test marked
`both_databases` (a module's `pytestmark` for the modules whose subject is storage, or one
test whose outcome depends on the SQL dialect) runs a second time on a schema of the
PostgreSQL at TEST_POSTGRES_URL (started by `make services`; a test fails, never skips,
when it is unreachable); the rest of the server is the same on either. A migration costs 0.1 to
0.2 s and the app tests start some 200 servers, so each database is migrated once: a test
gets a copy of a migrated SQLite file, or a migrated PostgreSQL schema that the test before
it emptied. `database_url` is a fresh, empty database, for the tests of migrating itself.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import make_url

from app.settings import Settings
from app.storage.db import AT_HEAD, migrate
from tests.server import migrated_sqlite

POSTGRES_URL = os.environ.get(
    "TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
DATABASES = ["sqlite", "postgresql"]
BROWSER_TESTS = Path(__file__).parent / "browser"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "both_databases: runs on PostgreSQL too, not only on SQLite (`settings`)"
    )
    config.addinivalue_line(
        "markers", "analysis_ahead: `settings` search each Scoundrel deal's best line as dealt"
    )
    config.addinivalue_line("markers", "browser: drives Chromium (tests/browser, marked here)")
    config.addinivalue_line(
        "markers",
        "services: needs PostgreSQL, Redis or nginx (the PostgreSQL run of a `both_databases`"
        " test is marked here)",
    )


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """With pytest-xdist (make test) each worker starts its own server and Chromium for the
    browser tests (package fixtures), so those spread over every core like the rest; only
    the tests of a module that share a module fixture (its people, or a server process)
    stay on one worker, which sets it up once. A test in a group already keeps that one
    alone: pytest-xdist would make a new group of the two names (one on the shared Redis
    would then run beside the others).

    The browser tests come first (pytest-xdist hands out tests in this order): a worker
    that went back and forth between them and the others would start their server and
    Chromium again each time it came back, and the longest tests would be the last."""
    for item in items:
        mark_what_it_needs(item)
        if item.get_closest_marker("xdist_group"):
            continue
        if shares_module_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.path.stem))
    items.sort(key=lambda item: BROWSER_TESTS not in item.path.parents)


def mark_what_it_needs(item: pytest.Item) -> None:
    """`make check` leaves out what needs more than the virtualenv (`-m "not browser and not
    services"`): `make test` runs it all."""
    if BROWSER_TESTS in item.path.parents:
        item.add_marker(pytest.mark.browser)
    params = getattr(item, "callspec", None)
    if params and "postgresql" in (
        params.params.get("database_url"),
        params.params.get("migrated_url"),
    ):
        item.add_marker(pytest.mark.services)


def shares_module_fixture(item: pytest.Item) -> bool:
    definitions = getattr(item, "_fixtureinfo", None)
    if definitions is None:
        return False
    return any(
        fixture.scope == "module"
        for fixtures in definitions.name2fixturedefs.values()
        for fixture in fixtures
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    both = metafunc.definition.get_closest_marker("both_databases") is not None
    for fixture in ("database_url", "migrated_url"):
        if fixture in metafunc.fixturenames:
            metafunc.parametrize(fixture, DATABASES if both else DATABASES[:1], indirect=True)


def postgres_conninfo(url: str) -> str:
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def schema_url(schema: str) -> str:
    return (
        make_url(POSTGRES_URL)
        .update_query_dict({"options": f"-csearch_path={schema}"})
        .render_as_string(hide_password=False)
    )


def connect_admin() -> psycopg.Connection:
    try:
        return psycopg.connect(postgres_conninfo(POSTGRES_URL), autocommit=True)
    except psycopg.OperationalError as error:
        pytest.fail(f"PostgreSQL at {POSTGRES_URL} is unreachable (run `make services`): {error}")


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path}/kartenrunde.db"
        return
    schema = f"test_{secrets.token_hex(6)}"
    with connect_admin() as admin:
        admin.execute(f"CREATE SCHEMA {schema}")
        try:
            yield schema_url(schema)
        finally:
            admin.execute(f"DROP SCHEMA {schema} CASCADE")


class MigratedSchemas:
    """PostgreSQL schemas at the newest schema: a test takes one, and gives it back emptied
    (or, if it cannot be emptied or its tables changed, it is dropped at the end)."""

    def __init__(self) -> None:
        self.admin = connect_admin()
        self.free: list[str] = []
        self.made: list[str] = []
        self.tables: set[str] = set()

    def take(self) -> str:
        if self.free:
            return self.free.pop()
        schema = f"test_{secrets.token_hex(6)}"
        self.admin.execute(f"CREATE SCHEMA {schema}")
        self.made.append(schema)
        migrate(schema_url(schema))
        self.tables = self.tables or self.tables_of(schema)
        return schema

    def give_back(self, schema: str) -> None:
        if self.tables_of(schema) != self.tables:
            return
        emptied = ", ".join(f"{schema}.{table}" for table in self.tables - {"alembic_version"})
        try:
            with self.admin.transaction():
                self.admin.execute("SET LOCAL lock_timeout = '5s'")
                self.admin.execute(f"TRUNCATE {emptied} RESTART IDENTITY CASCADE")
        except psycopg.Error:
            return
        self.free.append(schema)

    def tables_of(self, schema: str) -> set[str]:
        rows = self.admin.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = %s", (schema,)
        ).fetchall()
        return {name for (name,) in rows}

    def drop_all(self) -> None:
        for schema in self.made:
            self.admin.execute(f"DROP SCHEMA {schema} CASCADE")
        self.admin.close()


@pytest.fixture(scope="session")
def migrated_schemas() -> Iterator[MigratedSchemas]:
    schemas = MigratedSchemas()
    yield schemas
    schemas.drop_all()


@pytest.fixture
def migrated_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database at the newest schema, which the server will not migrate again."""
    if request.param == "sqlite":
        path = tmp_path / "kartenrunde.db"
        shutil.copyfile(migrated_sqlite(), path)
        url = f"sqlite:///{path}"
        AT_HEAD.add(url)
        yield url
        return
    schemas: MigratedSchemas = request.getfixturevalue("migrated_schemas")
    schema = schemas.take()
    url = schema_url(schema)
    AT_HEAD.add(url)
    try:
        yield url
    finally:
        schemas.give_back(schema)


@pytest.fixture
def settings(request: pytest.FixtureRequest, migrated_url: str) -> Settings:
    """The server's settings for a test. No search of a deal's best line as it is dealt
    (each test's first Scoundrel room would start a worker process for it) unless the
    test is marked `analysis_ahead`: the tests of that search."""
    return Settings(
        _env_file=None,  # type: ignore[call-arg]
        database_url=migrated_url,
        secret_key="test-secret-" + "k" * 32,
        log_level="INFO",
        log_format="text",
        messages_per_second=1000,  # tests play fast; the rate limit has its own test
        analysis_ahead=request.node.get_closest_marker("analysis_ahead") is not None,
    )
