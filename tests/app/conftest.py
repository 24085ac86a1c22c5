from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.app.tables import Table


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "public_history: `settings` list every finished match (PUBLIC_HISTORY=true)"
    )


@pytest.fixture
def settings(request: pytest.FixtureRequest, settings: Settings) -> Settings:
    """The server's settings; a test marked `public_history` runs where the host chose to list
    every finished match to anyone (the default lists each browser's own)."""
    if request.node.get_closest_marker("public_history") is None:
        return settings
    return settings.model_copy(update={"public_history": True})


@pytest.fixture
def table(settings: Settings) -> Iterator[Table]:
    """A running server (lifespan included) on a fresh database."""
    with TestClient(create_app(settings)) as client:
        yield Table(client)
