"""Raw HTTP/1.1 on asyncio against a real server: many devices in one process, each on
a loopback address of its own (as phones on a Wi-Fi each have theirs), event streams
read as a browser reads them. Used by tests/test_storm.py and the room benchmarks."""

from __future__ import annotations

import asyncio
import re
import socket
import time
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

HOST = "127.0.0.1"


def run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine to its end (two minutes at most) in a thread of its own: Playwright's
    sync API (a browser test earlier on the same worker) leaves an event loop running in
    the main thread, where asyncio.run refuses to start."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, asyncio.wait_for(coroutine, 120)).result()


def loopback(index: int) -> str:
    """The source address of device ``index``: 127.0.1.2, 127.0.1.3, ..."""
    return f"127.0.{1 + index // 250}.{2 + index % 250}"


def many_addresses() -> bool:
    """Whether this system routes all of 127.0.0.0/8 to the loopback (Linux does;
    macOS only with aliases)."""
    with socket.socket() as probe:
        try:
            probe.bind((loopback(7), 0))
        except OSError:
            return False
    return True


async def connect(port: int, address: str | None,
                  ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    local = (address, 0) if address else None
    return await asyncio.open_connection(HOST, port, local_addr=local, limit=2**20)


def request(path: str, port: int, cookie: str = "", extra: str = "") -> bytes:
    head = f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
    if cookie:
        head += f"Cookie: {cookie}\r\n"
    return (head + extra + "\r\n").encode()


async def read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = re.search(rb"(?i)content-length: *(\d+)", head)
    if length:
        return status, await reader.readexactly(int(length.group(1)))
    body = b""
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        body += (await reader.readexactly(size + 2))[:-2]
        if size == 0:
            return status, body


async def fetch(port: int, path: str, address: str | None = None, cookie: str = "",
                component: bool = False, timeout: float = 20) -> tuple[int, float]:
    """One GET on a new connection: its status (0: no answer) and seconds taken."""
    started = time.perf_counter()
    writer = None
    try:
        reader, writer = await asyncio.wait_for(connect(port, address), timeout)
        writer.write(request(path, port, cookie, "HX-Request: true\r\n" if component else ""))
        status, _body = await asyncio.wait_for(read_response(reader), timeout)
    except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
        status = 0
    finally:
        if writer is not None:
            writer.close()
    return status, time.perf_counter() - started


@dataclass
class Stream:
    """A page's EventSource: its connection and what its first answer was."""

    code: str
    address: str | None = None
    cookie: str = ""
    reader: asyncio.StreamReader | None = None
    writer: asyncio.StreamWriter | None = None
    status: int = 0
    version: int | None = None
    error: str | None = None
    path: str | None = None  # another stream than the table's own (a browser's shared one)

    async def open(self, port: int, timeout: float = 30) -> Stream:
        try:
            self.reader, self.writer = await asyncio.wait_for(connect(port, self.address),
                                                              timeout)
            self.writer.write(request(self.path or f"/t/{self.code}/events", port, self.cookie,
                                      "Accept: text/event-stream\r\n"))
            head = await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), timeout)
            self.status = int(head.split(b" ", 2)[1])
            if self.status == 200:
                self.version = (await self.next_version(timeout))
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as error:
            self.error = type(error).__name__
        return self

    async def next_event(self, timeout: float) -> str:
        """The stream's next chunk (an event or a heartbeat), as text."""
        assert self.reader is not None
        size = int((await asyncio.wait_for(self.reader.readuntil(b"\r\n"), timeout))
                   .split(b";")[0], 16)
        return (await asyncio.wait_for(self.reader.readexactly(size + 2), timeout))[:-2].decode()

    async def next_version(self, timeout: float) -> int | None:
        while True:
            # A shared stream names the table first: "data: CODE VERSION".
            found = re.search(r"data: (?:\S+ )?(\d+)\n", await self.next_event(timeout))
            if found:
                return int(found.group(1))

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def open_all(streams: list[Stream], port: int) -> list[Stream]:
    """Opens every stream at once (a room's pages reconnecting together)."""
    return list(await asyncio.gather(*(stream.open(port) for stream in streams)))


def close_all(streams: list[Stream]) -> None:
    for stream in streams:
        stream.close()
