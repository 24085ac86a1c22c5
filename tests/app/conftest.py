from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.app.tables import Table


@pytest.fixture
def table(settings: Settings) -> Iterator[Table]:
    """A running server (lifespan included) on a fresh database."""
    with TestClient(create_app(settings)) as client:
        yield Table(client)
