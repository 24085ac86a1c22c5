"""Forwarded headers: believed from FORWARDED_ALLOW_IPS (the reverse proxy), from nobody else.

The real launcher (`python -m app`, as the image runs it) is started on loopback; whether
loopback is trusted decides whether a request's `X-Forwarded-For` and
`X-Forwarded-Proto` are taken. What the server made of them shows in its access log (the
client address) and in the player cookie (`Secure` only over https).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from pydantic import ValidationError

from app import proxies
from app.settings import Settings
from tests.server import AppProcess, free_port

FAKE_CLIENT = "203.0.113.9"

ROUTES_V4 = (
    "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
    "eth0\t00000000\t010012AC\t0003\t0\t0\t0\t00000000\t0\t0\t0\n"  # default via 172.18.0.1
    "eth0\t000012AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0\n"  # 172.18.0.0/16 on eth0
    "eth1\t0010A8C0\t00000000\t0001\t0\t0\t0\t00F0FFFF\t0\t0\t0\n"  # 192.168.16.0/20
    "lo\t0000007F\t00000000\t0001\t0\t0\t0\t000000FF\t0\t0\t0\n"
)
ROUTES_V6 = "\n".join(
    [
        # fd00:db8:1::/64 on eth0, a default route, link-local, an own address, multicast
        "fd000db8000100000000000000000000 40 " + "0" * 32 + " 00 " + "0" * 32
        + " 00000100 00000001 00000000 00000001     eth0",
        "0" * 32 + " 00 " + "0" * 32 + " 00 fd000db8000100000000000000000001"
        + " 00000400 00000003 00000000 00000003     eth0",
        "fe800000000000000000000000000000 40 " + "0" * 32 + " 00 " + "0" * 32
        + " 00000100 00000002 00000000 00000001     eth0",
        "fd000db8000100000000000000000002 80 " + "0" * 32 + " 00 " + "0" * 32
        + " 00000000 00000003 00000000 80200001     eth0",
        "ff000000000000000000000000000000 08 " + "0" * 32 + " 00 " + "0" * 32
        + " 00000100 00000003 00000000 00000001     eth0",
        "0" * 31 + "1 80 " + "0" * 32 + " 00 " + "0" * 32
        + " 00000000 00000003 00000000 80200001       lo",
    ]
)  # fmt: skip


@pytest.fixture
def route_tables(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "route").write_text(ROUTES_V4)
    (tmp_path / "ipv6_route").write_text(ROUTES_V6 + "\n")
    return tmp_path / "route", tmp_path / "ipv6_route"


def test_local_networks_are_the_interfaces_networks_without_loopback(
    route_tables: tuple[Path, Path],
) -> None:
    assert [str(network) for network in proxies.attached_networks(*route_tables)] == [
        "172.18.0.0/16",
        "192.168.16.0/20",
        "fd00:db8:1::/64",
    ]


def test_resolve_expands_local_networks_and_writes_entries_as_uvicorn_reads_them(
    route_tables: tuple[Path, Path],
) -> None:
    value = "127.0.0.1, ::1,local-networks,10.1.2.3/8,2001:DB8::1"
    assert proxies.resolve(value, *route_tables) == [
        "127.0.0.1",
        "::1",
        "172.18.0.0/16",
        "192.168.16.0/20",
        "fd00:db8:1::/64",
        "10.0.0.0/8",  # uvicorn takes "10.1.2.3/8" for a name that never matches
        "2001:db8::1",
    ]


def test_without_route_tables_local_networks_is_nothing(tmp_path: Path) -> None:
    assert proxies.resolve("127.0.0.1,local-networks", tmp_path / "a", tmp_path / "b") == [
        "127.0.0.1"
    ]


@pytest.mark.parametrize(
    "value", ["proxy.example", "127.0.0.1;10.0.0.1", "10.0.0.0/33", "*,127.0.0.1", "local"]
)
def test_a_misspelt_entry_stops_the_start(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", value)
    with pytest.raises(ValidationError, match="FORWARDED_ALLOW_IPS|forwarded_allow_ips"):
        Settings(_env_file=None)


def test_the_default_trusts_loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORWARDED_ALLOW_IPS", raising=False)
    assert proxies.resolve(Settings(_env_file=None).forwarded_allow_ips) == ["127.0.0.1", "::1"]


# --- the real server ---


def start_server(trusted: str, workdir: Path) -> AppProcess:
    """The real launcher believing ``trusted``, run from ``workdir`` (no .env there)."""
    port = free_port()
    environment = {
        name: value
        for name, value in os.environ.items()
        if name.lower() not in Settings.model_fields
    }
    environment.update(
        FORWARDED_ALLOW_IPS=trusted,
        LOG_FORMAT="json",
        DATABASE_URL=f"sqlite:///{workdir}/kartenrunde-{port}.db",
    )
    return AppProcess(port, environment, workdir / f"server-{port}.log", cwd=workdir).start()


def entries(server: AppProcess) -> list[dict[str, object]]:
    return [json.loads(line) for line in server.log_lines()]


def access_line(server: AppProcess, path: str) -> str:
    messages = [
        str(entry["message"])
        for entry in entries(server)
        if entry["logger"] == "uvicorn.access" and f" {path} " in str(entry["message"])
    ]
    assert len(messages) == 1, messages
    return messages[0]


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[AppProcess]]:
    started: list[AppProcess] = []
    yield started
    for server in started:
        server.stop()


def forged_visit(server: AppProcess) -> tuple[str, str]:
    """A client on loopback claims to be FAKE_CLIENT over https: (access log, cookie)."""
    forged = {"X-Forwarded-For": FAKE_CLIENT, "X-Forwarded-Proto": "https"}
    with httpx.Client(base_url=server.base_url, headers=forged) as client:
        assert client.get("/healthz?forged").status_code == 200
        room_id = client.post("/api/rooms", json={"game": "scoundrel"}).json()["room_id"]
        joined = client.post(f"/api/rooms/{room_id}/join", json={"name": "Mallory"})
        assert joined.status_code == 200, joined.text
    time.sleep(0.2)  # the access line is written after the answer
    return access_line(server, "/healthz?forged"), joined.headers["set-cookie"].lower()


def test_a_client_that_is_not_a_trusted_proxy_cannot_fake_its_address_or_scheme(
    servers: list[AppProcess], tmp_path: Path
) -> None:
    # Loopback, where this test connects from, is not the proxy here.
    server = start_server("10.255.255.1,local-networks", tmp_path)
    servers.append(server)
    access, cookie = forged_visit(server)
    assert access.startswith("127.0.0.1:")
    assert FAKE_CLIENT not in access
    assert "secure" not in cookie


@pytest.fixture(scope="module")
def trusting_loopback(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppProcess]:
    """One server for the tests that trust loopback: it changes nothing a test looks at."""
    server = start_server("127.0.0.1,::1,10.1.2.3/8", tmp_path_factory.mktemp("trusting"))
    yield server
    server.stop()


def test_the_trusted_proxy_tells_the_client_address_and_scheme(
    trusting_loopback: AppProcess,
) -> None:
    access, cookie = forged_visit(trusting_loopback)
    assert access.startswith(f"{FAKE_CLIENT}:")
    assert "secure" in cookie


def test_the_launcher_logs_whom_it_believes(trusting_loopback: AppProcess) -> None:
    (entry,) = [e for e in entries(trusting_loopback) if "forwarded_allow_ips" in e]
    assert entry["forwarded_allow_ips"] == ["127.0.0.1", "::1", "10.0.0.0/8"]
    assert "X-Forwarded-For" in str(entry["message"])
