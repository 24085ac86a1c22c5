"""Load benchmark: N concurrent Expeditionen rooms over real websockets on loopback.

Starts the server (one process, a fresh SQLite file), creates N rooms with two seated
clients each, and lets every client answer its turn with a random legal action after a
think time. After a warm-up it measures a fixed window and prints:

- moves per second (accepted actions),
- p50/p95/p99 latency from sending an action to the *opponent* receiving the new view,
- errors (any `error` message or dropped socket),
- the server's CPU milliseconds per move (utime+stime of the server process over the window),
- the server's peak memory (VmHWM).

Then it runs the same clients against a bare FastAPI/uvicorn websocket server
(`bench/bare_server.py`, the launcher's flags, a fixed per-seat view of the same size for
each action, nothing checked or stored) and prints its figures and ours/bare side by side
(`--no-bare` skips it).

    .venv/bin/python bench/load.py --rooms 50 --think 0
    .venv/bin/python bench/load.py --rooms 500 --think 1 --window 30
    .venv/bin/python bench/load.py --rooms 100 --think 0.5 --attack

``--attack`` runs two servers one after the other with their default limits: first the
honest rooms alone, then the same with attackers in rooms of their own (five clients that
flood junk frames and reconnect whenever they are closed, one spectator with a 4 KB
receive buffer that never reads, watching a room its two accomplices play as fast as the
rate allows, and a Scoundrel player asking for hints without pause, eight at a time: a
search of about a second each). It prints both p99 figures, their ratio, how many honest
sockets the server closed, and how many hints were answered and refused. Every client
then has a loopback address of its own (127.0.x.y), so that the per-address caps apply as
they would to players on different machines.

``--push`` also runs twice: every seat's tab says it is hidden (so each turn is a "your
turn" notice), first with no device subscribed, then with every seat subscribed to Web Push
at a push endpoint on loopback (a process of its own that answers 201 and counts; the
tests check signatures and payloads). It prints both p99 figures of the move path, their
ratio, and how many pushes arrived.

Traffic goes only to 127.0.0.1; every loop is bounded by the window and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import multiprocessing
import os
import queue
import random
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.context import SpawnProcess
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parent.parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Stats:
    measuring: bool = False
    moves: int = 0  # accepted actions whose new view reached the opponent
    errors: int = 0
    latencies: list[float] = field(default_factory=list)
    # (room_id, match_number, version) → time the action producing it was sent
    sent_at: dict[tuple[str, int, int], float] = field(default_factory=dict)
    thinking: set[asyncio.Task[None]] = field(default_factory=set)
    closed: int = 0  # honest sockets that the server closed while measuring


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / CLOCK_TICKS, int(fields[12]) / CLOCK_TICKS


def total_cpu_seconds(pids: list[int]) -> tuple[float, float]:
    """User and system CPU seconds of several processes together."""
    times = [cpu_seconds(pid) for pid in pids]
    return sum(user for user, _ in times), sum(system for _, system in times)


def children(pids: list[int]) -> list[int]:
    """The child processes of `pids` (the server's push sender, its search workers)."""
    found = []
    for pid in pids:
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += [int(child) for child in (task / "children").read_text().split()]
    return found


def peak_memory_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# Every client comes from 127.0.0.1: the per-address caps would refuse most of them, and
# think 0 never hits this rate.
UNCAPPED = {
    "MESSAGES_PER_SECOND": "1000",
    "ROOMS_PER_ADDRESS_PER_MINUTE": "1000000",
    "MAX_CONNECTIONS_PER_ADDRESS": "1000000",
}


def start_server(
    port: int, database_url: str, defaults: bool, checkout: Path = ROOT, push: str | None = None
) -> subprocess.Popen[bytes]:
    """The server of `checkout` (this one, or another one's folder); with `defaults`, its
    default limits, else UNCAPPED; with `push`, it may send to that loopback push endpoint
    (an origin: PUSH_TEST_ORIGINS)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(checkout),
        "DATABASE_URL": database_url,
        "LOG_LEVEL": "WARNING",
        **({} if defaults else UNCAPPED),
        **({"PUSH_TEST_ORIGINS": json.dumps([push])} if push else {}),
    }
    command = [sys.executable, "-m", "app", "--host", "127.0.0.1", "--port", str(port)]
    return subprocess.Popen(command, cwd=checkout, env=env)


def stop_server(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        print("the server did not stop within 30 s of SIGTERM; killed", file=sys.stderr)
        server.kill()
        server.wait()


async def wait_ready(base: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient() as http:
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.TransportError):
                if (await http.get(f"{base}/healthz")).status_code == 200:
                    return
            await asyncio.sleep(0.2)
    raise RuntimeError("server did not become ready")


def loopback(number: int) -> str:
    """The `number`th loopback address of its own (127.0.1.1, 127.0.1.2, ...)."""
    return f"127.0.{1 + number // 250}.{1 + number % 250}"


# httpx loads the CA bundle for every client it makes (some 50 ms of CPU): a browser of
# its own per player would cost the load clients a minute of seating at 1,000 rooms.
TLS = ssl.create_default_context()


def client_from(address: str | None, **kwargs: object) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address, verify=TLS)
    return httpx.AsyncClient(transport=transport, verify=TLS, **kwargs)  # type: ignore[arg-type]


async def seat_players(
    http: httpx.AsyncClient, base: str, addresses: tuple[str | None, str | None] = (None, None)
) -> tuple[str, list[str]]:
    """Create a room and join it twice; return the room id and each seat's cookie."""
    if addresses[0]:
        async with client_from(addresses[0], timeout=30) as own:
            response = await own.post(f"{base}/api/rooms", json={"game": "expeditionen"})
    else:
        response = await http.post(f"{base}/api/rooms", json={"game": "expeditionen"})
    response.raise_for_status()
    room_id = response.json()["room_id"]
    cookies = []
    for name, address in zip(("Ada", "Bo"), addresses, strict=True):
        async with client_from(address, timeout=30) as player:  # a browser of its own: its cookie
            joined = await player.post(f"{base}/api/rooms/{room_id}/join", json={"name": name})
            joined.raise_for_status()
            cookies.append(joined.cookies["kr_player"])
    return room_id, cookies


async def play(
    ws: ClientConnection, room_id: str, think: float, stats: Stats, stop: asyncio.Event
) -> None:
    rng = random.Random(room_id)
    pending: list[asyncio.Task[None]] = []
    try:
        async for raw in ws:
            if await handle(ws, raw, room_id, think, stats, stop, rng, pending):
                return
    except ConnectionClosed:
        pass
    if not stop.is_set():
        stats.closed += 1


async def handle(
    ws: ClientConnection,
    raw: str | bytes,
    room_id: str,
    think: float,
    stats: Stats,
    stop: asyncio.Event,
    rng: random.Random,
    pending: list[asyncio.Task[None]],
) -> bool:
    """React to one message; True when the run is over."""
    message = orjson.loads(raw)
    kind = message["type"]
    if kind == "error":
        stats.errors += stats.measuring
        return False
    if kind != "state":
        return False
    key = (room_id, message["match_number"], message["version"])
    sent = stats.sent_at.pop(key, None)
    if sent is not None and message["seat"] != (message.get("last_action") or {}).get("seat"):
        if stats.measuring:
            stats.latencies.append(time.perf_counter() - sent)
            stats.moves += 1
    elif sent is not None:
        stats.sent_at[key] = sent  # our own echo: wait for the opponent's copy
    if stop.is_set():
        return True
    if message["result"] is not None:
        await ws.send(json.dumps({"type": "rematch"}))
    elif message["legal_actions"] and (not pending or pending[0].done()):
        task = asyncio.create_task(act(ws, room_id, message, rng, think, stats))
        pending[:] = [task]
        stats.thinking.add(task)
        task.add_done_callback(stats.thinking.discard)
    return False


async def act(
    ws: ClientConnection,
    room_id: str,
    state: dict[str, Any],
    rng: random.Random,
    think: float,
    stats: Stats,
) -> None:
    if think:
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
    action = rng.choice(state["legal_actions"])
    version = state["version"]
    stats.sent_at[(room_id, state["match_number"], version + 1)] = time.perf_counter()
    await ws.send(json.dumps({"type": "action", "version": version, "action": action}))


def start_bare(port: int, *options: str) -> subprocess.Popen[bytes]:
    """The floor: bench/bare_server.py, uvicorn with the launcher's flags, no rules, no
    storage (unless its `options` ask for it)."""
    command = [sys.executable, "-m", "bench.bare_server", "--host", "127.0.0.1"]
    return subprocess.Popen([*command, "--port", str(port), *options], cwd=ROOT)


async def run(
    args: argparse.Namespace,
    attack: bool = False,
    bare: bool = False,
    stored: bool = False,
    push: str | None = None,
    rules: bool = False,
) -> dict[str, float]:
    """Our server, or with `bare` the bare one; `stored`: the bare one storing each action
    in the database ours would use; `rules`: the bare one's engine applying each action."""
    if args.url and not bare:
        await wait_ready(args.url)
        return await drive(args, args.url, args.pid or [], attack, push)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as db_dir:
        url = args.database_url or f"sqlite:///{db_dir}/load.db"
        if bare:
            options = (["--store", url] if stored else []) + (["--rules"] if rules else [])
            server = start_bare(port, *options)
        else:
            server = start_server(port, url, defaults=args.attack, push=push)
        try:
            await wait_ready(base)
            return await drive(args, base, [server.pid], attack, push)
        finally:
            stop_server(server)


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of how the clients play, for the scripts that drive servers with
    ``drive``: 100 rooms, 1 s think time, 5 s warm-up, a 20 s window."""
    parser.add_argument(
        "--rooms", type=int, default=100, help="rooms (each server's own, with bench.side_by_side)"
    )
    parser.add_argument("--think", type=float, default=1.0, help="mean think time in seconds")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--window", type=float, default=20.0)


def drive_arguments(options: argparse.Namespace) -> argparse.Namespace:
    """``options`` with what ``drive`` reads besides: no attackers, no Web Push."""
    return argparse.Namespace(
        **vars(options), database_url=None, url=None, pid=None, attack=False, push=False
    )


async def drive(
    args: argparse.Namespace,
    base: str,
    pids: list[int],
    attack: bool = False,
    push: str | None = None,
) -> dict[str, float]:
    """Seats the rooms, plays, and measures the window; CPU is summed over `pids`, the peak
    memory is the largest of them."""
    stats = Stats()
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=20)
    # With --attack every honest client has an address of its own (see the docstring).
    own = [loopback(n) if args.attack else None for n in range(2 * args.rooms)]
    gate = asyncio.Semaphore(20)

    async def seated(number: int) -> tuple[str, list[str]]:
        async with gate:
            return await seat_players(http, base, (own[2 * number], own[2 * number + 1]))

    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        rooms = await asyncio.gather(*(seated(n) for n in range(args.rooms)))
        if push is not None:
            cookies = [cookie for _room, seats in rooms for cookie in seats]
            await asyncio.gather(*(subscribe(http, base, push, c, gate) for c in cookies))
    sockets: list[tuple[ClientConnection, str]] = []
    for number, (room_id, cookies) in enumerate(rooms):
        for seat, cookie in enumerate(cookies):
            address = own[2 * number + seat]
            bind: dict[str, Any] = {"local_addr": (address, 0)} if address else {}
            ws = await connect(
                f"ws{base.removeprefix('http')}/ws/rooms/{room_id}",
                additional_headers={"Cookie": f"kr_player={cookie}"},
                max_queue=None,
                **bind,
            )
            if args.push:  # both runs: each turn is one "your turn" notice (or none sent)
                await ws.send(json.dumps({"type": "visibility", "visible": False}))
            sockets.append((ws, room_id))
    players = [asyncio.create_task(play(ws, room, args.think, stats, stop)) for ws, room in sockets]
    attackers = start_attack_process(base, args.warmup + args.window) if attack else None
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    helpers = children(pids)
    cpu_before, started = total_cpu_seconds(pids), time.perf_counter()
    helpers_before = total_cpu_seconds(helpers)
    await asyncio.sleep(args.window)
    stats.measuring = False
    cpu_after, elapsed = total_cpu_seconds(pids), time.perf_counter() - started
    helpers_after = total_cpu_seconds(helpers)
    stop.set()
    for task in list(stats.thinking):
        task.cancel()
    for ws, _ in sockets:
        await ws.close()
    for task in players:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)
    opened: dict[str, int] = {}  # the attackers' sockets, by kind
    if attackers is not None:
        process, report = attackers
        with contextlib.suppress(queue.Empty):
            opened = report.get(timeout=15)
        process.join(5)
        if process.is_alive():
            process.kill()
    latencies = sorted(stats.latencies) or [float("nan")]

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    moves = max(stats.moves, 1)
    return {
        "rooms": args.rooms,
        "think_s": args.think,
        "moves_per_s": stats.moves / elapsed,
        "p50_ms": pct(0.50),
        "p95_ms": pct(0.95),
        "p99_ms": pct(0.99),
        "max_ms": latencies[-1] * 1000,
        "errors": stats.errors,
        "honest_closed": stats.closed,
        "flooder_sockets": opened.get("flooder", 0),
        "slow_reader_sockets": opened.get("slow_reader", 0),
        "hints_answered": opened.get("hint 200", 0),
        "hints_refused": sum(
            n for kind, n in opened.items() if kind.startswith("hint ") and kind != "hint 200"
        ),
        "server_cpu_ms_per_move": (sum(cpu_after) - sum(cpu_before)) * 1000 / moves,
        "of_which_system_ms": (cpu_after[1] - cpu_before[1]) * 1000 / moves,
        "child_processes_cpu_ms_per_move": (sum(helpers_after) - sum(helpers_before))
        * 1000
        / moves,
        "server_peak_mib": max((peak_memory_mib(pid) for pid in pids), default=float("nan")),
    }


# Attackers (--attack): each from a loopback address of its own, in rooms of their own.

FLOODERS = 5
JUNK = (b"\x81\x81\0\0\0\0x") * 500  # 500 masked one-byte text frames: "x", not JSON


async def raw_websocket(
    base: str, room_id: str, address: str, receive_buffer: int | None = None
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A websocket opened by hand from `address` (optionally with a tiny receive buffer)."""
    host, port = base.removeprefix("http://").split(":")
    sock = socket.socket()
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.bind((address, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
    reader, writer = await asyncio.open_connection(sock=sock)
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET /ws/rooms/{room_id} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    writer.write(request.encode())
    await writer.drain()
    await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    return reader, writer


SOCKETS: Counter[str] = Counter()  # in the attacker process: sockets opened, hint answers


async def flooder(base: str, room_id: str, address: str, stop: asyncio.Event) -> None:
    """Junk frames as fast as the socket takes them; closed for it, straight back."""
    while not stop.is_set():
        try:
            reader, writer = await raw_websocket(base, room_id, address)
            SOCKETS["flooder"] += 1
        except (TimeoutError, OSError, asyncio.IncompleteReadError):
            await asyncio.sleep(0.05)
            continue
        drain = asyncio.create_task(read_until_closed(reader))
        try:
            while not stop.is_set() and not drain.done():
                writer.write(JUNK)
                await asyncio.wait_for(writer.drain(), 1)
                await asyncio.sleep(0)  # drain() does not yield while the socket takes it all
        except (TimeoutError, OSError, RuntimeError):  # uvloop: a transport closed meanwhile
            pass
        drain.cancel()
        writer.close()
        await asyncio.sleep(0.1)  # closed (or refused): straight back, after a breath


async def read_until_closed(reader: asyncio.StreamReader) -> None:
    with contextlib.suppress(OSError):
        while await reader.read(1 << 16):
            pass


async def slow_reader(base: str, room_id: str, address: str, stop: asyncio.Event) -> None:
    """A spectator with a 4 KB receive buffer that never reads; reconnects when closed."""
    while not stop.is_set():
        try:
            reader, writer = await raw_websocket(base, room_id, address, receive_buffer=4096)
            SOCKETS["slow_reader"] += 1
        except (TimeoutError, OSError, asyncio.IncompleteReadError):
            await asyncio.sleep(0.05)
            continue
        ping = b"\x81\x8f\0\0\0\0" + b'{"type":"ping"}'
        try:
            while not stop.is_set():  # pings within the rate: each pong piles up unread
                writer.write(ping)
                await asyncio.wait_for(writer.drain(), 1)
                await asyncio.sleep(0.07)
        except (TimeoutError, OSError):
            pass
        writer.close()
        await asyncio.sleep(0.1)


async def accomplices(base: str, room_id: str, cookies: list[str], stop: asyncio.Event) -> None:
    """Two seated players who keep the slow reader's room busy, just within the rate."""
    stats = Stats()
    sockets = [
        await connect(
            f"ws{base.removeprefix('http')}/ws/rooms/{room_id}",
            additional_headers={"Cookie": f"kr_player={cookie}"},
            local_addr=(loopback(900 + seat), 0),
        )
        for seat, cookie in enumerate(cookies)
    ]
    await asyncio.gather(*(play(ws, room_id, 0.08, stats, stop) for ws in sockets))
    for ws in sockets:
        await ws.close()


def start_attack_process(
    base: str, seconds: float
) -> tuple[SpawnProcess, multiprocessing.Queue[dict[str, int]]]:
    """The attackers in a process of their own (as an attacker would run them): in the
    clients' process they would slow down the measuring clients, not the server."""
    context = multiprocessing.get_context("spawn")
    report: multiprocessing.Queue[dict[str, int]] = context.Queue()
    process = context.Process(target=attack, args=(base, seconds, report), daemon=True)
    process.start()
    return process, report


def attack(base: str, seconds: float, report: multiprocessing.Queue[dict[str, int]]) -> None:
    # The attackers share this 2-core machine with the server and the measuring clients;
    # at full priority they would measure how the kernel shares the CPU, not the server.
    os.nice(19)

    async def main() -> None:
        stop = asyncio.Event()
        tasks = await start_attackers(base, stop)
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.wait(tasks, timeout=5)

    uvloop.run(main())
    report.put(dict(SOCKETS))


async def start_attackers(base: str, stop: asyncio.Event) -> list[asyncio.Task[None]]:
    tasks = []
    for number in range(FLOODERS):
        address = loopback(1000 + number)
        async with client_from(address, timeout=30) as http:
            created = await http.post(f"{base}/api/rooms", json={"game": "expeditionen"})
            room_id = created.json()["room_id"]
        tasks.append(asyncio.create_task(flooder(base, room_id, address, stop)))
    async with httpx.AsyncClient(timeout=30) as http:
        room_id, cookies = await seat_players(http, base, (loopback(900), loopback(901)))
    tasks.append(asyncio.create_task(accomplices(base, room_id, cookies, stop)))
    tasks.append(asyncio.create_task(slow_reader(base, room_id, loopback(1100), stop)))
    tasks.append(asyncio.create_task(hint_asker(base, loopback(1200), stop)))
    return tasks


HINT_ASKERS = 8  # hint requests at once


async def hint_asker(base: str, address: str, stop: asyncio.Event) -> None:
    """A Scoundrel player who asks for a hint again as soon as one is answered, from
    HINT_ASKERS requests at once."""
    async with client_from(address, timeout=120) as http:
        created = await http.post(f"{base}/api/rooms", json={"game": "scoundrel"})
        room_id = created.json()["room_id"]
        joined = await http.post(f"{base}/api/rooms/{room_id}/join", json={"name": "Hinz"})
        joined.raise_for_status()

        async def ask() -> None:
            while not stop.is_set():
                response = await http.get(f"{base}/api/rooms/{room_id}/hint")
                SOCKETS[f"hint {response.status_code}"] += 1
                if response.status_code != 200:
                    await asyncio.sleep(0.1)

        await asyncio.gather(*(ask() for _ in range(HINT_ASKERS)))


async def compare(args: argparse.Namespace) -> dict[str, float]:
    """The honest rooms alone, then with attackers: both p99 figures and their ratio."""
    alone = await run(args, attack=False)
    attacked = await run(args, attack=True)
    return {
        "rooms": args.rooms,
        "think_s": args.think,
        "p99_ms_alone": alone["p99_ms"],
        "p99_ms_attacked": attacked["p99_ms"],
        "p99_ratio": attacked["p99_ms"] / alone["p99_ms"],
        "p50_ms_alone": alone["p50_ms"],
        "p50_ms_attacked": attacked["p50_ms"],
        "moves_per_s_alone": alone["moves_per_s"],
        "moves_per_s_attacked": attacked["moves_per_s"],
        "honest_closed_alone": alone["honest_closed"],
        "honest_closed_attacked": attacked["honest_closed"],
        "errors_attacked": attacked["errors"],
        "flooder_sockets": attacked["flooder_sockets"],
        "slow_reader_sockets": attacked["slow_reader_sockets"],
        "hints_answered": attacked["hints_answered"],
        "hints_refused": attacked["hints_refused"],
        "server_cpu_ms_per_move_alone": alone["server_cpu_ms_per_move"],
        "server_cpu_ms_per_move_attacked": attacked["server_cpu_ms_per_move"],
        "max_ms_attacked": attacked["max_ms"],
    }


# Web Push (--push): an endpoint on loopback in a process of its own, and each seat's device.


def push_endpoint(port: int, stop: Any, report: multiprocessing.Queue[int]) -> None:
    """Answers every push 201 until ``stop`` is set; reports how many arrived."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    count = [0]

    class Endpoint(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # kept-alive connections, as push services keep them

        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            self.rfile.read(int(self.headers["Content-Length"]))
            count[0] += 1
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Endpoint)
    server.timeout = 0.2
    while not stop.is_set():
        server.handle_request()
    report.put(count[0])


async def subscribe(
    http: httpx.AsyncClient, base: str, origin: str, cookie: str, gate: asyncio.Semaphore
) -> None:
    """A device for this seat's player: a fresh P-256 key and auth secret."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    public = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    keys = {"p256dh": b64url(public), "auth": b64url(os.urandom(16))}
    body = {"endpoint": f"{origin}/push/{b64url(os.urandom(9))}", "keys": keys}
    async with gate:
        response = await http.post(
            f"{base}/api/push/subscriptions", json=body, cookies={"kr_player": cookie}
        )
    response.raise_for_status()


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


async def compare_push(args: argparse.Namespace) -> dict[str, float]:
    """The same rooms without and with every seat subscribed to Web Push."""
    alone = await run(args)
    port = free_port()
    received = -1
    context = multiprocessing.get_context("spawn")
    report: multiprocessing.Queue[int] = context.Queue()
    stop = context.Event()
    endpoint = context.Process(target=push_endpoint, args=(port, stop, report), daemon=True)
    endpoint.start()
    try:
        pushed = await run(args, push=f"http://127.0.0.1:{port}")
    finally:
        stop.set()
        with contextlib.suppress(queue.Empty):
            received = report.get(timeout=10)
        endpoint.join(5)
    return {
        "rooms": args.rooms,
        "think_s": args.think,
        "p99_ms_without_push": alone["p99_ms"],
        "p99_ms_with_push": pushed["p99_ms"],
        "p99_ratio": pushed["p99_ms"] / alone["p99_ms"],
        "p50_ms_without_push": alone["p50_ms"],
        "p50_ms_with_push": pushed["p50_ms"],
        "moves_per_s_without_push": alone["moves_per_s"],
        "moves_per_s_with_push": pushed["moves_per_s"],
        "server_cpu_ms_per_move_without_push": alone["server_cpu_ms_per_move"],
        "server_cpu_ms_per_move_with_push": pushed["server_cpu_ms_per_move"],
        "push_sender_cpu_ms_per_move": pushed["child_processes_cpu_ms_per_move"],
        "errors_with_push": pushed["errors"],
        "pushes_received": received,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--think", type=float, default=0.0, help="mean think time in seconds")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--window", type=float, default=20.0)
    parser.add_argument(
        "--database-url", help="the server's DATABASE_URL (default: a fresh SQLite file)"
    )
    parser.add_argument("--url", help="drive a server that is already running, e.g. for profiling")
    parser.add_argument(
        "--pid", type=int, nargs="+", help="with --url: the server processes to measure"
    )
    parser.add_argument(
        "--attack",
        action="store_true",
        help="run twice, without and with attackers in other rooms; print both p99 figures",
    )
    parser.add_argument(
        "--no-bare",
        action="store_true",
        help="skip the bare FastAPI/uvicorn server (bench/bare_server.py) run after ours",
    )
    parser.add_argument(
        "--push",
        action="store_true",
        help="run twice, without and with every seat subscribed to Web Push at a loopback "
        "endpoint; print both p99 figures (not with --url: the server lets only that "
        "endpoint through, PUSH_TEST_ORIGINS)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="with --push: this many pairs of runs, each pair's ratio and their median",
    )
    args = parser.parse_args()
    # The clients share this 2-core machine with the server: keep their own cost low.
    if args.push:
        pairs = [uvloop.run(compare_push(args)) for _ in range(args.repeat)]
        for pair in pairs:
            show("push", pair)
        show("median", {k: statistics.median(p[k] for p in pairs) for k in pairs[0]})
        return
    figures = uvloop.run(compare(args) if args.attack else run(args))
    show("ours", figures)
    if args.attack or args.no_bare:
        return
    bare = uvloop.run(run(args, bare=True))
    show("bare", bare)
    ratios = {
        key: figures[key] / bare[key]
        for key in ("server_cpu_ms_per_move", "p50_ms", "p99_ms", "server_peak_mib")
        if bare.get(key)
    }
    show("ours/bare", ratios)


def show(label: str, figures: dict[str, float]) -> None:
    print(f"{label:>9}: " + "  ".join(
        f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in figures.items()
    ))  # fmt: skip


if __name__ == "__main__":
    main()
