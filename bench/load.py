"""Load benchmark: N concurrent Expeditionen rooms over real websockets on loopback.

Starts the server (one process, a fresh SQLite file), creates N rooms with two seated
clients each, and lets every client answer its turn with a random legal action after a
think time. After a warm-up it measures a fixed window and prints:

- moves per second (accepted actions),
- p50/p95/p99 latency from sending an action to the *opponent* receiving the new view,
- errors (any `error` message or dropped socket),
- the server's CPU milliseconds per move (utime+stime of the server process over the window),
- the server's peak memory (VmHWM).

    .venv/bin/python bench/load.py --rooms 50 --think 0
    .venv/bin/python bench/load.py --rooms 500 --think 1 --window 30

Traffic goes only to 127.0.0.1; every loop is bounded by the window and stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import orjson
import uvloop
from websockets.asyncio.client import ClientConnection, connect

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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def cpu_seconds(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / CLOCK_TICKS, int(fields[12]) / CLOCK_TICKS


def peak_memory_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_server(port: int, database_url: str) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "LOG_LEVEL": "WARNING",
        "MESSAGES_PER_SECOND": "1000",
    }
    command = [sys.executable, "-m", "app", "--host", "127.0.0.1", "--port", str(port)]
    return subprocess.Popen(command, cwd=ROOT, env=env)


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


async def seat_players(http: httpx.AsyncClient, base: str) -> tuple[str, list[str]]:
    """Create a room and join it twice; return the room id and each seat's cookie."""
    response = await http.post(f"{base}/api/rooms", json={"game": "expeditionen"})
    response.raise_for_status()
    room_id = response.json()["room_id"]
    cookies = []
    for name in ("Ada", "Bo"):
        async with httpx.AsyncClient() as player:  # a browser of its own: a cookie of its own
            joined = await player.post(f"{base}/api/rooms/{room_id}/join", json={"name": name})
            joined.raise_for_status()
            cookies.append(joined.cookies["kr_player"])
    return room_id, cookies


async def play(
    ws: ClientConnection, room_id: str, think: float, stats: Stats, stop: asyncio.Event
) -> None:
    rng = random.Random(room_id)
    pending: asyncio.Task[None] | None = None
    async for raw in ws:
        message = orjson.loads(raw)
        kind = message["type"]
        if kind == "error":
            stats.errors += stats.measuring
            continue
        if kind != "state":
            continue
        key = (room_id, message["match_number"], message["version"])
        sent = stats.sent_at.pop(key, None)
        if sent is not None and message["seat"] != (message.get("last_action") or {}).get("seat"):
            if stats.measuring:
                stats.latencies.append(time.perf_counter() - sent)
                stats.moves += 1
        elif sent is not None:
            stats.sent_at[key] = sent  # our own echo: wait for the opponent's copy
        if stop.is_set():
            return
        if message["result"] is not None:
            await ws.send(json.dumps({"type": "rematch"}))
        elif message["legal_actions"] and (pending is None or pending.done()):
            pending = asyncio.create_task(act(ws, room_id, message, rng, think, stats))
            stats.thinking.add(pending)
            pending.add_done_callback(stats.thinking.discard)


async def act(
    ws: ClientConnection, room_id: str, state: dict, rng: random.Random, think: float,
    stats: Stats,
) -> None:
    if think:
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
    action = rng.choice(state["legal_actions"])
    version = state["version"]
    stats.sent_at[(room_id, state["match_number"], version + 1)] = time.perf_counter()
    await ws.send(json.dumps({"type": "action", "version": version, "action": action}))


async def run(args: argparse.Namespace) -> dict[str, float]:
    if args.url:
        await wait_ready(args.url)
        return await drive(args, args.url, args.pid)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as db_dir:
        server = start_server(port, args.database_url or f"sqlite:///{db_dir}/load.db")
        try:
            await wait_ready(base)
            return await drive(args, base, server.pid)
        finally:
            stop_server(server)


async def drive(args: argparse.Namespace, base: str, pid: int | None) -> dict[str, float]:
    stats = Stats()
    stop = asyncio.Event()
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(limits=limits, timeout=30) as http:
        rooms = await asyncio.gather(*(seat_players(http, base) for _ in range(args.rooms)))
    sockets: list[tuple[ClientConnection, str]] = []
    for room_id, cookies in rooms:
        for cookie in cookies:
            ws = await connect(
                f"ws{base.removeprefix('http')}/ws/rooms/{room_id}",
                additional_headers={"Cookie": f"kr_player={cookie}"},
                max_queue=None,
            )
            sockets.append((ws, room_id))
    players = [asyncio.create_task(play(ws, room, args.think, stats, stop)) for ws, room in sockets]
    await asyncio.sleep(args.warmup)
    stats.measuring = True
    cpu_before, started = cpu_seconds(pid) if pid else (0.0, 0.0), time.perf_counter()
    await asyncio.sleep(args.window)
    stats.measuring = False
    cpu_after, elapsed = cpu_seconds(pid) if pid else (0.0, 0.0), time.perf_counter() - started
    stop.set()
    for task in list(stats.thinking):
        task.cancel()
    for ws, _ in sockets:
        await ws.close()
    for task in players:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 5)
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
        "errors": stats.errors,
        "server_cpu_ms_per_move": (sum(cpu_after) - sum(cpu_before)) * 1000 / moves,
        "of_which_system_ms": (cpu_after[1] - cpu_before[1]) * 1000 / moves,
        "server_peak_mib": peak_memory_mib(pid) if pid else float("nan"),
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
    parser.add_argument("--pid", type=int, help="with --url: the server process to measure")
    args = parser.parse_args()
    # The clients share this 2-core machine with the server: keep their own cost low.
    figures = uvloop.run(run(args))
    print("  ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}"
                    for k, v in figures.items()))


if __name__ == "__main__":
    main()
