"""What the room benchmarks share (bench/storm.py, streams.py, greedy.py, slow.py,
gone.py): the real server, seated tables, devices on their own loopback addresses,
raw event streams, and a probe that times ordinary pages meanwhile.

Every device connects to 127.0.0.1 from an address of its own in 127.0.0.0/8 (as
phones on a Wi-Fi each have theirs), so the server's per-address limits treat them as
separate phones. Linux routes all of 127.0.0.0/8 to the loopback; elsewhere add the
aliases (macOS: ``sudo ifconfig lo0 alias 127.0.1.2``...) or run with fewer devices.
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.server import raise_open_file_limit  # noqa: E402
from tests.support.httpdevice import HttpDevice  # noqa: E402
from tests.support.rawhttp import (  # noqa: E402, F401 (what the benchmarks share)
    Stream,
    close_all,
    connect,
    fetch,
    loopback,
    open_all,
    read_response,
    request,
)
from tests.support.realserver import free_port  # noqa: E402
from tests.support.scripted import parse_forms  # noqa: E402

HOST = "127.0.0.1"
raise_open_file_limit(8192)  # this process holds as many connections as the server
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


def results_path(name: str) -> Path:
    """bench/results/<name>.json (before-<name>.json when measuring COMPANION_CODE)."""
    prefix = "before-" if os.environ.get("COMPANION_CODE") else ""
    folder = ROOT / "bench" / "results"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / f"{prefix}{name}.json"


def percentiles(values: list[float], points: tuple[float, ...] = (0.5, 0.95),
                digits: int = 1) -> dict[str, float] | None:
    """How many, the given percentiles (nearest rank) and the largest, rounded."""
    if not values:
        return None
    ordered = sorted(values)
    found: dict[str, float] = {"n": len(ordered)}
    for point in points:
        found[f"p{round(point * 100)}"] = round(
            ordered[min(len(ordered) - 1, int(point * len(ordered)))], digits)
    found["max"] = round(ordered[-1], digits)
    return found


def machine() -> str:
    load = os.getloadavg()
    return (f"{os.cpu_count()} cores, Python {platform.python_version()}, "
            f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} (a shared machine: "
            "other work slows every figure)")


@dataclass
class Running:
    process: subprocess.Popen[bytes]
    port: int
    startup: float

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    def threads(self) -> int | None:
        status = Path(f"/proc/{self.process.pid}/status")
        if not status.exists():
            return None
        return next(int(line.split()[1]) for line in status.read_text().splitlines()
                    if line.startswith("Threads:"))

    def cpu(self) -> float | None:
        """CPU seconds the server has used (Linux: /proc), None where it cannot be read."""
        stat = Path(f"/proc/{self.process.pid}/stat")
        if not stat.exists():
            return None
        fields = stat.read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def sockets(self) -> int | None:
        """Open sockets of the server (Linux: /proc), None where it cannot be read."""
        folder = Path(f"/proc/{self.process.pid}/fd")
        if not folder.exists():
            return None
        count = 0
        for entry in folder.iterdir():
            with suppress(OSError):
                count += os.readlink(entry).startswith("socket:")
        return count


@contextmanager
def server(devices: int = 400) -> Iterator[Running]:
    """`companion serve` as a laptop runs it, on 127.0.0.1 with a temporary database;
    stopped (Ctrl+C, then killed if need be) whatever happens."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        command = [sys.executable, "-m", "companion", "serve", "--host", HOST, "--port",
                   str(port), "--db", str(Path(tmp) / "c.sqlite"), "--no-browser",
                   "--public-url", f"http://{HOST}:{port}", "--devices", str(devices)]
        started = time.perf_counter()
        # COMPANION_CODE=/path/to/another/checkout measures that code instead (the
        # README's "before" figures), with these same scripts.
        process = subprocess.Popen(command, cwd=os.environ.get("COMPANION_CODE", ROOT),
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            while True:
                try:
                    urllib.request.urlopen(f"http://{HOST}:{port}/", timeout=2).read()
                    break
                except OSError:
                    if process.poll() is not None:
                        raise RuntimeError("the server died: "
                                           + process.stderr.read().decode()) from None
                    if time.perf_counter() - started > 30:
                        raise RuntimeError("the server did not answer within 30 s") from None
                    time.sleep(0.02)
            yield Running(process, port, time.perf_counter() - started)
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@dataclass
class Device:
    """A seated phone or a table screen: its page, its cookies, its own address."""

    code: str
    path: str
    cookie: str
    address: str

    def stream(self) -> Stream:
        """This device's event stream (not opened yet)."""
        return Stream(self.code, self.address, self.cookie)

    def at(self, address: str) -> Device:
        """The same page on another device (another address)."""
        return Device(self.code, self.path, self.cookie, address)


def measure_room(measure: Callable[[Running, list[Device]], Awaitable[dict[str, Any]]],
                 tables: int, phones: int = 7, *, devices: int = 400, limit: float,
                 settle: float = 0) -> dict[str, Any]:
    """``measure(running, seated)`` within ``limit`` seconds, on a fresh server with
    ``tables`` tables seated (and ``settle`` seconds' rest); the result is stamped with
    the machine's load before and after, which is printed."""
    before = machine()
    with server(devices) as running:
        seated = seat(running.url, tables, phones)
        if settle:
            time.sleep(settle)
        result = asyncio.run(asyncio.wait_for(measure(running, seated), limit))
    result["machine_before"], result["machine_after"] = before, machine()
    print(f"machine: {before}; after: {result['machine_after']}")
    return result


def save(name: str, result: dict[str, Any]) -> None:
    results_path(name).write_text(json.dumps(result, indent=1))


def seat(url: str, tables: int, phones: int = 7, game: str = "london1888",
         start_index: int = 0) -> list[Device]:
    """Create ``tables`` tables of ``game``, seat ``phones`` phones at each and deal;
    returns every device (each table's screen first). Sequential, over urllib."""
    devices: list[Device] = []
    index = start_index
    for _ in range(tables):
        host = HttpDevice(url)
        page = host.get(f"/new/{game}").text
        form = next(f for f in parse_forms(page) if f.action.endswith(game))
        options = {k: v for k, v in form.defaults().items() if k not in ("csrf", "players")}
        code = host.create(game, phones, **options)
        devices.append(Device(code, f"/t/{code}", host.cookie(), loopback(index)))
        index += 1
        for position in range(phones):
            phone = HttpDevice(url)
            reply = phone.join(code, position, NAMES[position % len(NAMES)])
            assert reply.status == 303, reply.text[:300]
            devices.append(Device(code, f"/t/{code}/me", phone.cookie(), loopback(index)))
            index += 1
        reply = host.host("start", host.version())
        assert reply.status == 303, reply.text[:300]
        devices[-phones - 1].cookie = host.cookie()
    return devices


@dataclass
class Probe:
    """An ordinary device meanwhile: the lobby and a table's view, over and over."""

    port: int
    view: Device
    lobby_ms: list[float] = field(default_factory=list)
    view_ms: list[float] = field(default_factory=list)
    failed: int = 0
    running: bool = True
    task: asyncio.Future | None = field(default=None, repr=False)

    def start(self) -> None:
        self.task = asyncio.ensure_future(self.run())

    async def stop(self) -> dict[str, Any]:
        """Stops probing (after the round under way); what it saw."""
        self.running = False
        await self.task
        return self.report()

    def lap(self) -> dict[str, Any]:
        """What it saw so far; from now on it counts afresh."""
        seen = self.report()
        self.lobby_ms.clear()
        self.view_ms.clear()
        self.failed = 0
        return seen

    async def run(self, pause: float = 0.25) -> None:
        while self.running:
            for path, device, into in (("/", None, self.lobby_ms),
                                       (self.view.path, self.view, self.view_ms)):
                status, seconds = await fetch(
                    self.port, path, self.view.address, device.cookie if device else "",
                    component=device is not None, timeout=15)
                if status == 200:
                    into.append(seconds * 1000)
                else:
                    self.failed += 1
            await asyncio.sleep(pause)

    def report(self) -> dict[str, Any]:
        return {"lobby_ms": percentiles(self.lobby_ms), "view_ms": percentiles(self.view_ms),
                "failed": self.failed}
