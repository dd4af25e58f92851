"""A club night on one laptop: the real server, N tables of phones, scripted games.

Usage: python bench/clubnight.py [--tables 50] [--game london1888] [--duration 60]
                                 [--idle 20] [--think 3] [--live sse|poll] [--name NAME]

Starts `companion serve` exactly as a laptop runs it (a subprocess on 127.0.0.1 with a
temporary database), then plays a club night against it from one asyncio process:
each table has a table screen (the host's laptop) and 4-8 phones, every device holds
its live-update stream (`/t/<code>/events`) and, when told of a new version, fetches
its own view with `HX-Request: true`, as static/app/live.js does. Devices speak raw
HTTP/1.1 (keep-alive, cookies, the CSRF field, gzip), so 400 of them fit in one
process. Scripted players (tests/support/scripted.py) act at a human-like rate, each move
chosen from the forms on the acting device's page.

Phases: start-up (until the lobby answers), seating (create tables, join, first page
loads), idle (every game dealt, nobody acts: only heartbeats), play (--duration
seconds). Then everything stops, the server too. Prints a summary and writes
bench/results/<name>.json. Targets (issue #9) are printed next to the figures.

`--live poll` replaces the event streams by a request to `/t/<code>/version` every
second (what the app would do without server-sent events), for the idle phase only:
it measures what polling would cost.

Loopback only; bounded in time; stops itself and the server.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import platform
import random
import re
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import room  # noqa: E402 (bench/, beside this script)

from companion import logstore  # noqa: E402
from companion.games import discover  # noqa: E402
from companion.games.base import TABLE  # noqa: E402
from tests.support.rawhttp import loopback  # noqa: E402
from tests.support.realserver import free_port  # noqa: E402
from tests.support.scripted import choose, page_version, parse_forms  # noqa: E402

HOST = "127.0.0.1"
# Phones per table, cycled: 4 to 8, 7 on average, so 50 tables hold 400 devices.
PHONES = (8, 7, 6, 8, 5, 8, 4, 8, 8, 8)
TARGETS = {"propagation_p95_ms": 250, "action_p95_ms": 50, "idle_core_fraction": 0.25,
           "peak_rss_mb": 150, "first_page_kb": 60, "startup_s": 1.5}
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


# --- a tiny HTTP/1.1 client ----------------------------------------------------------

@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    cookies: list[tuple[str, str]]
    body: bytes
    wire: int          # bytes received, headers included (gzip as sent)
    sent: int          # bytes of the request
    seconds: float

    @property
    def text(self) -> str:
        data = self.body
        if self.headers.get("content-encoding") == "gzip":
            data = gzip.decompress(data)
        return data.decode()


class Connection:
    """One keep-alive connection to the server; reconnects when the server closed it."""

    def __init__(self, port: int, address: str | None = None) -> None:
        self.port = port
        self.address = address
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.close()
        local = (self.address, 0) if self.address else None
        self.reader, self.writer = await asyncio.open_connection(
            HOST, self.port, local_addr=local, limit=2**20)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def send(self, method: str, path: str, headers: dict[str, str],
                   body: bytes = b"") -> int:
        if self.writer is None or self.reader is None or self.reader.at_eof():
            await self.open()
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}",
                 "Accept-Encoding: gzip, deflate"]
        lines += [f"{key}: {value}" for key, value in headers.items()]
        if method == "POST":
            lines += ["Content-Type: application/x-www-form-urlencoded",
                      f"Content-Length: {len(body)}"]
        raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + body
        assert self.writer is not None
        self.writer.write(raw)
        await self.writer.drain()
        return len(raw)

    async def head(self) -> tuple[int, dict[str, str], list[tuple[str, str]], int]:
        assert self.reader is not None
        raw = await self.reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers: dict[str, str] = {}
        cookies = []
        for line in lines[1:]:
            if ":" not in line:
                continue
            key, value = line.split(":", 1)
            key, value = key.strip().lower(), value.strip()
            if key == "set-cookie":
                name, _, rest = value.partition("=")
                cookies.append((name, rest.split(";", 1)[0]))
            else:
                headers[key] = value
        return status, headers, cookies, len(raw)

    async def request(self, method: str, path: str, headers: dict[str, str],
                      body: bytes = b"") -> Reply:
        for attempt in (1, 2):
            started = time.perf_counter()
            try:
                sent = await self.send(method, path, headers, body)
                status, head, cookies, wire = await self.head()
                assert self.reader is not None
                if "content-length" in head:
                    data = await self.reader.readexactly(int(head["content-length"]))
                    wire += len(data)
                else:  # chunked
                    data, extra = await read_chunks(self.reader)
                    wire += extra
                if head.get("connection", "").lower() == "close":
                    self.close()
                return Reply(status, head, cookies, data, wire, sent,
                             time.perf_counter() - started)
            except (ConnectionError, asyncio.IncompleteReadError):
                # The server closes idle keep-alive connections (waitress's channel
                # timeout); a browser then opens a new one and sends again.
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


async def read_chunks(reader: asyncio.StreamReader) -> tuple[bytes, int]:
    data, wire = b"", 0
    while True:
        size_line = await reader.readuntil(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        chunk = await reader.readexactly(size + 2)
        wire += len(size_line) + len(chunk)
        data += chunk[:-2]
        if size == 0:
            return data, wire


# --- measurements --------------------------------------------------------------------

@dataclass
class Stats:
    action_ms: list[float] = field(default_factory=list)
    propagation_ms: list[float] = field(default_factory=list)     # per action: all devices
    device_propagation_ms: list[float] = field(default_factory=list)  # per device
    page_ms: list[float] = field(default_factory=list)
    fragment_ms: list[float] = field(default_factory=list)
    first_page_bytes: list[int] = field(default_factory=list)
    first_page_parts: dict[str, int] = field(default_factory=dict)
    update_bytes: list[int] = field(default_factory=list)
    event_bytes: list[int] = field(default_factory=list)
    loop_lag_ms: list[float] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    timeouts: int = 0
    no_move: int = 0
    games_over: int = 0
    polls: int = 0
    reconnects: int = 0

    def count(self, what: str) -> None:
        self.statuses[what] = self.statuses.get(what, 0) + 1


def percentiles(values: list[float]) -> dict[str, float] | None:
    return room.percentiles(values, (0.5, 0.95, 0.99), digits=2)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def memory_mb(pid: int) -> dict[str, float]:
    found = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmHWM", "VmRSS", "Threads"):
            number = int(value.split()[0])
            found[key] = number if key == "Threads" else round(number / 1024, 1)
    return found


# --- devices and tables --------------------------------------------------------------

class Device:
    """A browser: the table screen (the host's laptop) or a phone."""

    def __init__(self, night: Night, table: Table, role: int | str) -> None:
        self.night = night
        self.table = table
        self.role = role
        self.cookies: dict[str, str] = {}
        self.csrf = ""
        # Each device on its own loopback address, as phones on a Wi-Fi each have theirs
        # (the server limits connections and streams per address).
        self.address = loopback(night.next_address())
        self.conn = Connection(night.port, self.address)
        self.lock = asyncio.Lock()
        self.shown = 0
        self.html = ""
        self.heard = 0
        self.waiters: list[tuple[int, asyncio.Future[float]]] = []
        self.stream: asyncio.Task[None] | None = None

    @property
    def path(self) -> str:
        code = self.table.code
        return f"/t/{code}" if self.role == TABLE else f"/t/{code}/me"

    def headers(self, component: bool = False) -> dict[str, str]:
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if component:
            headers["HX-Request"] = "true"
        return headers

    async def call(self, method: str, path: str, data: dict[str, Any] | None = None,
                   component: bool = False) -> Reply:
        body = b""
        if data is not None:
            body = urllib.parse.urlencode({"csrf": self.csrf, **data}).encode()
        reply = await self.conn.request(method, path, self.headers(component), body)
        for name, value in reply.cookies:
            self.cookies[name] = value
        if reply.headers.get("content-type", "").startswith("text/html"):
            found = re.search(r'name="csrf" value="([^"]+)"', reply.text)
            if found:
                self.csrf = found.group(1)
        return reply

    def show(self, reply: Reply) -> None:
        html = reply.text
        version = page_version(html)
        if version is not None and version >= self.shown:
            self.shown, self.html = version, html
        now = time.perf_counter()
        for waiter in list(self.waiters):
            wanted, future = waiter
            if self.shown >= wanted and not future.done():
                future.set_result(now)
                self.waiters.remove(waiter)

    def when(self, version: int) -> asyncio.Future[float]:
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        if self.shown >= version:
            future.set_result(time.perf_counter())
        else:
            self.waiters.append((version, future))
        return future

    async def first_load(self) -> None:
        """The full page, then its stylesheet and scripts (each once: cached after)."""
        page = await self.call("GET", self.path)
        assert page.status == 200, (page.status, page.text[:500])
        self.night.stats.page_ms.append(page.seconds * 1000)
        self.show(page)
        total = page.wire
        parts = {"page": page.wire}
        for asset in re.findall(r'(?:href|src)="(/static/[^"]+)"', page.text):
            reply = await self.call("GET", asset)
            assert reply.status == 200, asset
            total += reply.wire
            parts[asset.rsplit("/", 1)[-1]] = reply.wire
        if self.role != TABLE:
            self.night.stats.first_page_bytes.append(total)
            self.night.stats.first_page_parts = parts

    async def refresh(self) -> None:
        """What htmx does on the "refresh" trigger: GET the page as a component (again,
        if a newer version was announced meanwhile)."""
        async with self.lock:
            while str(self.heard) != str(self.shown):
                reply = await self.call("GET", self.path, component=True)
                self.night.stats.count(f"GET view {reply.status}")
                if reply.status != 200:
                    return
                if self.night.playing:
                    self.night.stats.fragment_ms.append(reply.seconds * 1000)
                    self.night.stats.update_bytes.append(reply.wire)
                self.show(reply)


    def heard_of(self, version: int) -> None:
        self.heard = version
        # static/app/live.js: a page whose version differs and that is not busy refreshes itself;
        # a busy page (its own request running) catches up when the request ends.
        if str(version) != str(self.shown) and not self.lock.locked():
            asyncio.ensure_future(self.refresh())

    async def listen(self) -> None:
        """The page's EventSource: reconnects after `retry` when the stream ends."""
        while self.night.running:
            conn = Connection(self.night.port, self.address)
            try:
                await conn.send("GET", f"/t/{self.table.code}/events",
                                {**self.headers(), "Accept": "text/event-stream"})
                status, _head, _cookies, _wire = await conn.head()
                assert status == 200, status
                assert conn.reader is not None
                buffer = ""
                while self.night.running:
                    size_line = await conn.reader.readuntil(b"\r\n")
                    size = int(size_line.split(b";")[0], 16)
                    chunk = await conn.reader.readexactly(size + 2)
                    if size == 0:
                        break
                    buffer += chunk[:-2].decode()
                    while "\n\n" in buffer:
                        event, buffer = buffer.split("\n\n", 1)
                        if self.night.playing:
                            self.night.stats.event_bytes.append(len(size_line) + len(chunk))
                        data = re.search(r"^data: (\d+)", event, re.M)
                        if data and "event: changed" in event:
                            self.heard_of(int(data.group(1)))
            except (ConnectionError, asyncio.IncompleteReadError):
                pass
            finally:
                conn.close()
            if self.night.running:
                self.night.stats.reconnects += 1
                await asyncio.sleep(1.5)

    async def poll(self, interval: float) -> None:
        """The alternative: ask for the version every `interval` seconds."""
        await asyncio.sleep(random.random() * interval)
        while self.night.running:
            async with self.lock:
                reply = await self.call("GET", f"/t/{self.table.code}/version")
            self.night.stats.polls += 1
            if reply.status == 200:
                self.heard_of(json.loads(reply.text)["version"])
            await asyncio.sleep(interval)


class Table:
    def __init__(self, night: Night, index: int, phones: int) -> None:
        self.night = night
        self.index = index
        self.code = ""
        self.rng = random.Random(index)
        self.screen = Device(night, self, TABLE)
        self.phones = [Device(night, self, seat) for seat in range(phones)]

    @property
    def devices(self) -> list[Device]:
        return [self.screen, *self.phones]

    async def seat_everyone(self) -> None:
        night, host = self.night, self.screen
        await host.call("GET", "/")
        new = await host.call("GET", f"/new/{night.game.NAME}")
        form = next(f for f in parse_forms(new.text) if f.action.endswith(night.game.NAME))
        created = await host.call("POST", f"/new/{night.game.NAME}",
                                  {**form.defaults(), "players": len(self.phones)})
        assert created.status == 303, created.text[:500]
        self.code = created.headers["location"].rstrip("/").rsplit("/", 1)[-1]
        await host.first_load()
        for seat, phone in enumerate(self.phones):
            join = await phone.call("GET", f"/j/{self.code}")
            assert join.status == 200
            claimed = await phone.call("POST", f"/j/{self.code}",
                                       {"seat": seat, "name": NAMES[seat]})
            assert claimed.status == 303, claimed.text[:500]
            await phone.first_load()

    async def start(self) -> int:
        """The host deals a (new) game from the table screen."""
        screen = self.screen
        async with screen.lock:
            screen.show(await screen.call("GET", screen.path, component=True))
            version = screen.shown
            reply = await screen.call("POST", f"/t/{self.code}/start", {"version": version},
                                      component=True)
            self.night.stats.count(f"start {reply.status}")
            screen.show(await screen.call("GET", screen.path, component=True))
        screen.heard_of(screen.heard)
        return version + 1

    def state(self) -> tuple[dict[str, Any] | None, int, str]:
        row = self.night.db.execute("SELECT state, version, status FROM tables WHERE code = ?",
                                    [self.code]).fetchone()
        # Compressed since the lean log (companion/logstore.py); another checkout measured
        # with COMPANION_CODE may keep it as JSON text.
        state = row[0] and (logstore.unpack(row[0]) if isinstance(row[0], bytes)
                            else json.loads(row[0]))
        return state or None, row[1], row[2]

    async def play(self) -> None:
        night, game = self.night, self.night.game
        while night.playing:
            await asyncio.sleep(self.rng.expovariate(1 / night.think))
            if not night.playing:
                return
            state, version, status = self.state()
            if status == "over":
                night.stats.games_over += 1
                self.night.spawn(self.propagate(self.screen, await self.start()))
                continue
            movers = [d for d in self.devices if d.shown == version and state is not None
                      and game.actions(state, d.role)]
            self.rng.shuffle(movers)
            loop = asyncio.get_running_loop()
            for device in movers:
                # Off the event loop: choosing parses a page and tries moves on copies of
                # the state, which would otherwise delay every other device's reading.
                picked = await loop.run_in_executor(
                    None, choose, game, state, device.role, device.html,
                    random.Random(self.rng.random()))
                if picked is None:
                    continue
                url, fields = picked
                async with device.lock:
                    reply = await device.call("POST", url, fields, component=True)
                    night.stats.count(f"act {reply.status}")
                    if reply.status != 303:
                        break
                    night.stats.action_ms.append(reply.seconds * 1000)
                    follow = await device.call("GET", device.path, component=True)
                    night.stats.fragment_ms.append(follow.seconds * 1000)
                    device.show(follow)
                device.heard_of(device.heard)  # a change announced while it was busy
                self.night.spawn(self.propagate(device, version + 1))
                break
            else:
                night.stats.no_move += 1

    async def propagate(self, actor: Device, version: int) -> None:
        """From the action's answer until every other device shows `version`."""
        acted = time.perf_counter()
        shown = [d.when(version) for d in self.devices if d is not actor]
        _done, late = await asyncio.wait(shown, timeout=10)
        if late:
            self.night.stats.timeouts += 1
            for future in late:
                future.cancel()
            return
        delays = [max(0.0, future.result() - acted) * 1000 for future in shown]
        self.night.stats.device_propagation_ms.extend(delays)
        self.night.stats.propagation_ms.append(max(delays))


class Night:
    def __init__(self, args: argparse.Namespace, port: int) -> None:
        self.args = args
        self.game = discover()[args.game]
        self.think = args.think
        self.port = port
        self.db: sqlite3.Connection
        self.stats = Stats()
        self.running = True
        self.playing = False
        self.tasks: set[asyncio.Task[Any]] = set()
        self.addresses = 0
        # A game for fewer players seats as many as it takes (Mr. Jack: 2).
        self.tables = [Table(self, index, min(max(PHONES[index % len(PHONES)],
                                                  self.game.MIN_PLAYERS), self.game.MAX_PLAYERS))
                       for index in range(args.tables)]

    def next_address(self) -> int:
        self.addresses += 1
        return self.addresses

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    @property
    def devices(self) -> list[Device]:
        return [device for table in self.tables for device in table.devices]


async def watch_loop(night: Night, tick: float = 0.02) -> None:
    """How late this process's own event loop runs: every figure measured here is late
    by as much (the load generator shares the machine's two cores with the server)."""
    while night.playing:
        started = time.perf_counter()
        await asyncio.sleep(tick)
        night.stats.loop_lag_ms.append((time.perf_counter() - started - tick) * 1000)


def start_server(db: Path, port: int, devices: int) -> tuple[subprocess.Popen[bytes], float]:
    """`companion serve` as a laptop runs it; returns it and its start-up time."""
    url = f"http://{HOST}:{port}"
    command = [sys.executable, "-m", "companion", "serve", "--host", HOST, "--port", str(port),
               "--db", str(db), "--no-browser", "--public-url", url]
    if devices > 400:
        command += ["--devices", str(devices)]
    started = time.perf_counter()
    # COMPANION_CODE=/path/to/another/checkout measures that code with this script.
    server = subprocess.Popen(command, cwd=os.environ.get("COMPANION_CODE", ROOT),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    while True:
        try:
            urllib.request.urlopen(url + "/", timeout=2).read()
            return server, time.perf_counter() - started
        except OSError:
            if server.poll() is not None:
                raise RuntimeError("the server died: "
                                   + server.stderr.read().decode()) from None
            if time.perf_counter() - started > 30:
                server.kill()
                raise RuntimeError("the server did not answer within 30 s") from None
            time.sleep(0.01)


async def run(night: Night, server_pid: int) -> dict[str, Any]:
    args, stats = night.args, night.stats
    phases: dict[str, Any] = {}
    marker = time.perf_counter()
    limit = asyncio.Semaphore(args.setup_concurrency)

    async def seat(table: Table) -> None:
        async with limit:
            await table.seat_everyone()

    await asyncio.gather(*(seat(table) for table in night.tables))
    phases["seating_s"] = round(time.perf_counter() - marker, 1)

    for device in night.devices:
        if args.live == "sse":
            device.stream = asyncio.ensure_future(device.listen())
        else:
            device.stream = asyncio.ensure_future(device.poll(args.poll_interval))
    await asyncio.sleep(2)
    # Deal every game, and wait until every device shows it.
    versions = await asyncio.gather(*(table.start() for table in night.tables))
    waits = [device.when(version) for table, version in zip(night.tables, versions, strict=True)
             for device in table.devices]
    _dealt, missing = await asyncio.wait(waits, timeout=60)
    if missing:
        phases["deal_missing"] = len(missing)
    await asyncio.sleep(1)

    def window() -> tuple[float, float]:
        return cpu_seconds(server_pid), time.perf_counter()

    cpu0, t0 = window()
    rusage0 = resource.getrusage(resource.RUSAGE_SELF)
    polls0 = stats.polls
    await asyncio.sleep(args.idle)
    cpu1, t1 = window()
    rusage1 = resource.getrusage(resource.RUSAGE_SELF)
    devices = len(night.devices)
    idle_cpu = cpu1 - cpu0
    phases["idle"] = {
        "seconds": round(t1 - t0, 1), "server_cpu_s": round(idle_cpu, 2),
        "core_fraction": round(idle_cpu / (t1 - t0), 3),
        "cpu_s_per_device_minute": round(idle_cpu / (devices * (t1 - t0) / 60), 5),
        "loadgen_cpu_s": round(rusage1.ru_utime + rusage1.ru_stime
                               - rusage0.ru_utime - rusage0.ru_stime, 2),
        "polls_per_s": round((stats.polls - polls0) / (t1 - t0), 1) if args.live == "poll"
        else None,
    }

    if args.live == "sse" and args.duration > 0:
        night.playing = True
        for table in night.tables:
            night.spawn(table.play())
        night.spawn(watch_loop(night))
        await asyncio.sleep(args.duration)
        night.playing = False
        cpu2, t2 = window()
        rusage2 = resource.getrusage(resource.RUSAGE_SELF)
        await asyncio.sleep(1)
        play_cpu = cpu2 - cpu1
        phases["play"] = {
            "seconds": round(t2 - t1, 1), "server_cpu_s": round(play_cpu, 2),
            "core_fraction": round(play_cpu / (t2 - t1), 3),
            "cpu_s_per_device_minute": round(play_cpu / (devices * (t2 - t1) / 60), 5),
            "loadgen_cpu_s": round(rusage2.ru_utime + rusage2.ru_stime
                                   - rusage1.ru_utime - rusage1.ru_stime, 2),
            "actions_per_s": round(len(stats.action_ms) / (t2 - t1), 1),
            # What an action costs the server in all (its request and every fetch it
            # sets off): the figure a busy shared machine changes least.
            "server_cpu_ms_per_action": round(1000 * play_cpu / max(1, len(stats.action_ms)),
                                              1),
        }
    phases["memory_mb"] = memory_mb(server_pid)
    phases["load_after"] = os.getloadavg()
    night.running = False
    for device in night.devices:
        if device.stream:
            device.stream.cancel()
        device.conn.close()
    pending = [*night.tasks, *(d.stream for d in night.devices if d.stream)]
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    return phases


def summary(args: argparse.Namespace, night: Night, startup: float,
            phases: dict[str, Any]) -> dict[str, Any]:
    stats = night.stats
    phones = [len(table.phones) for table in night.tables]
    first = stats.first_page_bytes
    result = {
        "command": "python bench/clubnight.py " + " ".join(sys.argv[1:]),
        "machine": {"nproc": os.cpu_count(), "cpu": cpu_model(),
                    "python": platform.python_version(), "load_before": args.load_before},
        "game": night.game.NAME, "live": args.live, "think_s": args.think,
        "tables": len(night.tables), "phones": sum(phones),
        "devices": len(night.devices),
        "startup_s": round(startup, 3),
        **phases,
        "action_ms": percentiles(stats.action_ms),
        "propagation_ms": percentiles(stats.propagation_ms),
        "propagation_per_device_ms": percentiles(stats.device_propagation_ms),
        "page_render_ms": percentiles(stats.page_ms),
        "fragment_render_ms": percentiles(stats.fragment_ms),
        "loadgen_loop_lag_ms": percentiles(stats.loop_lag_ms),
        "first_page_bytes": {"mean": round(sum(first) / len(first)) if first else None,
                             "max": max(first) if first else None,
                             "parts": stats.first_page_parts},
        "update_bytes": {"view_mean": round(sum(stats.update_bytes) / len(stats.update_bytes))
                         if stats.update_bytes else None,
                         "event_mean": round(sum(stats.event_bytes) / len(stats.event_bytes))
                         if stats.event_bytes else None},
        "statuses": stats.statuses, "propagation_timeouts": stats.timeouts,
        "ticks_without_move": stats.no_move, "games_over": stats.games_over,
        "stream_reconnects": stats.reconnects,
        "targets": TARGETS,
    }
    return result


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor()


def report(result: dict[str, Any]) -> str:
    def p(name: str) -> str:
        value = result.get(name)
        if not value:
            return "-"
        return (f"p50 {value['p50']} / p95 {value['p95']} / p99 {value['p99']} ms "
                f"(n={value['n']})")

    idle, play = result.get("idle", {}), result.get("play", {})
    first = result["first_page_bytes"]
    machine = result["machine"]
    lines = [
        f"machine: {machine['nproc']} cores, {machine['cpu']}, Python {machine['python']}; "
        f"load average before {machine['load_before'][0]:.1f}, "
        f"after {result['load_after'][0]:.1f} (other work on the machine slows every figure)",
        f"{result['tables']} tables, {result['devices']} devices ({result['phones']} phones), "
        f"game {result['game']}, live updates: {result['live']}, one action per table every "
        f"{result['think_s']} s on average",
        f"start-up until the lobby answers: {result['startup_s']} s   (target < 1.5 s)",
        f"action latency:      {p('action_ms')}   (target p95 < 50 ms)",
        f"change propagation:  {p('propagation_ms')}   (target p95 < 250 ms)",
        f"  per device:        {p('propagation_per_device_ms')}",
        f"full page render:    {p('page_render_ms')}",
        f"fragment render:     {p('fragment_render_ms')}",
        f"load generator's own lag: {p('loadgen_loop_lag_ms')}",
        f"idle:  {idle.get('core_fraction')} of one core, "
        f"{idle.get('cpu_s_per_device_minute')} CPU s per device-minute   (target < 0.25 core)",
    ]
    if idle.get("polls_per_s") is not None:
        lines.append(f"       polls answered: {idle['polls_per_s']}/s")
    if play:
        lines.append(f"play:  {play['core_fraction']} of one core, "
                     f"{play['cpu_s_per_device_minute']} CPU s per device-minute, "
                     f"{play['actions_per_s']} actions/s, "
                     f"{play['server_cpu_ms_per_action']} ms of server CPU per action")
    memory = result["memory_mb"]
    lines += [
        f"memory: peak {memory.get('VmHWM')} MB resident, {memory.get('Threads')} threads"
        "   (target < 150 MB)",
        f"a phone's first page: {first['mean']} bytes transferred {first['parts']}"
        "   (target < 60 KB)",
        f"per update: view {result['update_bytes']['view_mean']} bytes + event "
        f"{result['update_bytes']['event_mean']} bytes",
        f"statuses: {result['statuses']}, propagation timeouts: "
        f"{result['propagation_timeouts']}, stream reconnects: {result['stream_reconnects']}",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--game", default="london1888",
                        help="a product game with its templates (default: %(default)s)")
    parser.add_argument("--duration", type=float, default=60, help="seconds of play")
    parser.add_argument("--idle", type=float, default=20, help="seconds of idle measurement")
    parser.add_argument("--think", type=float, default=3.0,
                        help="mean seconds between two actions at a table")
    parser.add_argument("--live", choices=("sse", "poll"), default="sse")
    parser.add_argument("--poll-interval", type=float, default=1.0)
    parser.add_argument("--setup-concurrency", type=int, default=8)
    parser.add_argument("--name", help="results file name (default: clubnight-<live>)")
    args = parser.parse_args()
    args.load_before = os.getloadavg()
    if args.game not in discover():
        parser.error(f"unknown game {args.game}")
    if not (ROOT / "templates" / "games" / args.game / "_seat.html").exists():
        parser.error(f"{args.game} has no web templates yet")

    night = Night(args, free_port())
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "companion.sqlite"
        server, startup = start_server(db, night.port, len(night.devices))
        night.db = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            phases = asyncio.run(asyncio.wait_for(run(night, server.pid),
                                                  timeout=args.duration + args.idle + 600))
        finally:
            night.db.close()
            server.send_signal(signal.SIGINT)
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    result = summary(args, night, startup, phases)
    print(report(result))
    out = ROOT / "bench" / "results" / f"{args.name or 'clubnight-' + args.live}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1))
    print(f"written: {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
