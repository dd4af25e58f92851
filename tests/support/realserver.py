"""The real server (`companion serve` via tests/support/server.py) in a subprocess."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`companion serve` in a subprocess (via tests/support/server.py), killable at will."""

    def __init__(self, db: Path, boards: tuple[Path, ...] = (), seed: int | None = None,
                 access_log: Path | None = None) -> None:
        self.db = db
        self.seed = seed
        self.access_log = access_log
        self.boards = [str(path) for path in boards]
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.support.server", str(self.port), str(self.db),
             *self.boards],
            cwd=ROOT,
            env={**os.environ, "COMPANION_TEST_SEED": str(self.seed or ""),
                 "COMPANION_TEST_ACCESS_LOG": str(self.access_log or "")},
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.url + "/", timeout=1).read()
                return self
            except OSError:
                if self.process.poll() is not None:
                    error = self.process.stderr.read().decode()
                    raise RuntimeError("server died: " + error) from None
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def requests(self, path: str) -> list[str]:
        """The access log's lines for ``path`` (a server started with ``access_log``):
        "METHOD PATH RANGE STATUS"."""
        assert self.access_log, "a server started without an access log"
        lines = self.access_log.read_text().splitlines() if self.access_log.exists() else []
        return [line for line in lines if line.split()[1] == path]

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
