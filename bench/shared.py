"""A room behind one address: 30 devices (5 tables of London 1888, each 5 phones and its
screen) arrive from one address, as behind a travel router doing NAT, a guest network's
proxy or a hotspot.

Usage: python bench/shared.py [--connections 6] [--duration 20]

Starts `companion serve` on 127.0.0.1 and seats the tables; then every device, from the
one address, opens its event stream and holds --connections connections as a browser
does (one for its stream, the others kept alive), and every 2 s or so loads its page and
the page's files (its stylesheet, htmx and static/app/'s scripts) over them, reopening
any the server closed meanwhile (as a browser does). A probe on an address of its own
times the lobby and a view meanwhile. Prints what the devices got and writes
bench/results/shared.json.

Target (issue 26): every page and file answered, every stream held, as if each device
had an address of its own. Loopback only; about 40 s; stops itself and the server.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import random
import time
from pathlib import Path

from room import (
    Probe,
    close_all,
    connect,
    loopback,
    measure_room,
    percentiles,
    read_response,
    save,
)

SHARED = "127.0.8.8"
APP = Path(__file__).resolve().parent.parent / "static" / "app"
FILES = ("/static/app.css", "/static/htmx-2.0.11.min.js",
         *sorted(f"/static/app/{script.name}" for script in APP.glob("*.js")))


async def browse(running, device, args, answers: collections.Counter, page_ms: list,
                 until: float) -> None:
    """One device's browser: its kept-alive connections, its page and files reloaded."""
    pairs: list[list] = []
    for _ in range(args.connections - 1):
        try:
            pairs.append(list(await asyncio.wait_for(connect(running.port, SHARED), 10)))
        except (OSError, TimeoutError):
            answers["connection refused"] += 1

    async def get(pair: list, path: str) -> None:
        for attempt in range(2):
            started = time.perf_counter()
            try:
                head = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{running.port}\r\n"
                        f"Cookie: {device.cookie}\r\nHX-Request: true\r\n\r\n")
                pair[1].write(head.encode())
                status, _body = await asyncio.wait_for(read_response(pair[0]), 15)
            except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError):
                # Closed by the server while idle: a browser opens another and resends.
                pair[1].close()
                answers["reopened"] += attempt == 0
                try:
                    pair[:] = await asyncio.wait_for(connect(running.port, SHARED), 10)
                except (OSError, TimeoutError):
                    answers["connection refused"] += 1
                    return
                continue
            answers[status] += 1
            if path == device.path:
                page_ms.append((time.perf_counter() - started) * 1000)
            return
        answers["lost"] += 1

    await asyncio.sleep(random.uniform(0, 2))
    while time.perf_counter() < until and pairs:
        paths = (device.path, *FILES)
        await asyncio.gather(*(get(pairs[i % len(pairs)], path)
                               for i, path in enumerate(paths)))
        await asyncio.sleep(random.uniform(1.5, 2.5))
    for pair in pairs:
        pair[1].close()


async def measure(running, devices, args) -> dict:
    probe = Probe(running.port, devices[1].at(loopback(500)))
    probe.start()
    shared = [device.at(SHARED) for device in devices]
    streams = await asyncio.gather(*(device.stream().open(running.port, timeout=10)
                                     for device in shared))
    stream_answers = collections.Counter(s.error or s.status for s in streams)
    answers: collections.Counter = collections.Counter()
    page_ms: list[float] = []
    until = time.perf_counter() + args.duration
    await asyncio.gather(*(browse(running, device, args, answers, page_ms, until)
                           for device in shared))
    seen = await probe.stop()
    close_all(streams)
    return {"devices": len(shared), "connections_each": args.connections,
            "streams": {str(k): v for k, v in stream_answers.items()},
            "answers": {str(k): v for k, v in answers.items()},
            "page_ms": percentiles(page_ms), "probe": seen}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--connections", type=int, default=6)
    parser.add_argument("--duration", type=float, default=20)
    args = parser.parse_args()
    result = measure_room(lambda running, devices: measure(running, devices, args),
                          5, phones=5, limit=120)
    print(f"{result['devices']} devices from one address, {args.connections} connections "
          f"each: streams {result['streams']}, answers {result['answers']}")
    print(f"their page p50/p95: {result['page_ms']}; probe: {result['probe']}")
    save("shared", result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
