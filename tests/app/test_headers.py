"""The security headers: every answer of the site carries them, pages, the API, static
files and errors alike (app/headers.py)."""

from __future__ import annotations

import pytest

from tests.app.tables import Table

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
    "manifest-src": "'self'",
    "worker-src": "'self'",
}


def directives(policy: str) -> dict[str, str]:
    found = {}
    for part in policy.split(";"):
        name, _, sources = part.strip().partition(" ")
        assert name not in found, f"{name} twice"
        found[name] = sources.strip()
    return found


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/", 200),
        ("/rules/pilzwanderung", 200),
        ("/api/games", 200),
        ("/static/css/app.css", 200),
        ("/static/js/pages/home.js", 200),
        ("/sw.js", 200),
        ("/manifest.webmanifest", 200),
        ("/healthz", 200),
        ("/no-such-page", 404),
        ("/api/rooms/nosuchroom", 404),
        ("/static/nothing.js", 404),
        ("/api/matches/x", 422),
    ],
    ids=lambda value: str(value),
)
def test_every_answer_carries_the_security_headers(table: Table, path: str, status: int) -> None:
    answer = table.client.get(path)
    assert answer.status_code == status
    headers = answer.headers
    assert directives(headers["content-security-policy"]) == POLICY
    assert "unsafe" not in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"
    assert headers["x-frame-options"] == "DENY"
    assert headers["cross-origin-opener-policy"] == "same-origin"
    permissions = headers["permissions-policy"]
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert f"{feature}=()" in permissions
    for header in ("content-security-policy", "x-content-type-options", "referrer-policy"):
        assert len(headers.get_list(header)) == 1


def test_a_post_and_its_refusal_carry_them_too(table: Table) -> None:
    answer = table.client.post("/api/rooms", json={"game": "no-such-game"})
    assert answer.status_code == 422
    assert directives(answer.headers["content-security-policy"]) == POLICY
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_the_edges_own_refusals_carry_them_too(table: Table) -> None:
    """app/edge.py answers before any route: a body too large, a control character."""
    too_large = table.client.post("/api/rooms", content=b"x" * (64 * 1024 + 1))
    control = table.client.get("/players/%00")
    for answer, status in ((too_large, 413), (control, 404)):
        assert answer.status_code == status
        assert directives(answer.headers["content-security-policy"]) == POLICY


def test_no_page_loads_a_third_party_script(table: Table) -> None:
    """FastAPI's /docs and /redoc pages run Swagger UI and ReDoc from a CDN (unpinned, on
    the origin that holds the players' cookies): the API is described at /openapi.json."""
    assert table.client.get("/openapi.json").json()["info"]["title"] == "Kartenrunde"
    for path in ("/docs", "/docs/oauth2-redirect", "/redoc"):
        answer = table.client.get(path)
        assert answer.status_code == 404, path
        assert "cdn.jsdelivr.net" not in answer.text
