"""The real server in a subprocess: the one way the tests start ``python -m app`` (the
launcher `make run`, the image and Compose start) on a port of its own."""

from __future__ import annotations

import atexit
import functools
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from app.storage.db import migrate

ROOT = Path(__file__).resolve().parents[1]
STARTUP_SECONDS = 60  # a hang guard while waiting for start-up, not a measured figure


@functools.cache
def migrated_sqlite() -> Path:
    """A SQLite file at the newest schema, made once per test process: a server started on
    a copy starts without a migrating process of its own (app/storage/db.py)."""
    folder = Path(tempfile.mkdtemp(prefix="kartenrunde-schema-"))
    atexit.register(shutil.rmtree, folder, True)
    path = folder / "kartenrunde.db"
    migrate(f"sqlite:///{path}")
    with sqlite3.connect(path) as connection:  # everything in the file, nothing in the log
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class AppProcess:
    """``python -m app`` on 127.0.0.1:``port`` with the environment ``env``, run from
    ``cwd`` (a folder without .env reads no local settings), its output in ``log``."""

    port: int
    env: dict[str, str]
    log: Path
    cwd: Path = ROOT
    process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def launch(self) -> AppProcess:
        """Starts the process without waiting for it (``start`` waits until it is ready)."""
        with self.log.open("ab") as sink:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "app", "--host", "127.0.0.1", "--port", str(self.port)],
                cwd=self.cwd,
                env=self.env,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        return self

    def start(self) -> AppProcess:
        """Starts the process and waits until it answers /readyz, or fails with its log."""
        self.launch()
        assert self.process is not None
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if httpx.get(f"{self.base_url}/readyz", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        self.stop(timeout=5)  # not left running after the test
        raise AssertionError(f"the server on {self.port} did not start:\n{self.log.read_text()}")

    def log_lines(self) -> list[str]:
        return [line for line in self.log.read_text().splitlines() if line.strip()]

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self, timeout: float = 30) -> float:
        """SIGTERM, as `docker stop` sends; the seconds until the process exited (killed
        after ``timeout``)."""
        started = time.monotonic()
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return time.monotonic() - started
