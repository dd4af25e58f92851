"""More connections than planned: N open event streams, and the other pages meanwhile.

Usage: python bench/streams.py [--streams 1000] [--hold 10] [--devices 400]

Starts `companion serve --devices 400` on 127.0.0.1, seats 10 tables of London 1888,
then opens N event streams on them at once, each from its own loopback address (as
N phones would). While they are held, a probe loads the lobby and a table view again
and again. Then every stream closes, and the script times how long until the server
has let their sockets go. Prints the figures and writes bench/results/streams-N.json.

Targets (issue 14): other pages p95 < 100 ms with 1,000 streams open; streams beyond
what the server holds get a clear answer (503 or 429), never a frozen room.
Loopback only; about 30 s; stops itself and the server.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import time

from room import Probe, close_all, loopback, measure_room, open_all, save


async def measure(running, devices, streams: int, hold: float) -> dict:
    probe = Probe(running.port, devices[1])
    sockets_before = running.sockets()
    probe.start()
    await asyncio.sleep(1)
    started = time.perf_counter()
    opened = [devices[i % len(devices)].at(loopback(1000 + i)).stream()
              for i in range(streams)]
    await open_all(opened, running.port)
    open_s = time.perf_counter() - started
    statuses = collections.Counter(stream.error or stream.status for stream in opened)
    threads = running.threads()
    opening = probe.lap()
    await asyncio.sleep(hold)
    during = await probe.stop()
    held = running.sockets()
    closed = time.perf_counter()
    close_all(opened)
    recovered = None
    while time.perf_counter() - closed < 60:
        now = running.sockets()
        if now is not None and sockets_before is not None and now <= sockets_before + 5:
            recovered = time.perf_counter() - closed
            break
        await asyncio.sleep(0.05)
    return {"streams": streams, "answers": dict(statuses), "open_all_s": round(open_s, 2),
            "server_threads_while_open": threads, "server_sockets": [sockets_before, held],
            "while_opening": opening, "during": during, "sockets_freed_s": None if recovered is None
            else round(recovered, 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--hold", type=float, default=10)
    parser.add_argument("--devices", type=int, default=400)
    args = parser.parse_args()
    result = measure_room(lambda running, devices: measure(running, devices, args.streams,
                                                           args.hold),
                          10, phones=7, devices=args.devices, limit=180)
    during = result["during"]
    print(f"{args.streams} streams opened in {result['open_all_s']} s, answers "
          f"{result['answers']} (200: held; 503/429: refused with a message), server threads "
          f"{result['server_threads_while_open']}")
    opening = result["while_opening"]
    print(f"while they opened: lobby {opening['lobby_ms']}, view {opening['view_ms']}, "
          f"failed {opening['failed']}")
    print(f"while held: lobby {during['lobby_ms']}, view {during['view_ms']}, failed "
          f"{during['failed']}   (target p95 < 100 ms)")
    print(f"after closing them, sockets freed in {result['sockets_freed_s']} s")
    save(f"streams-{args.streams}", result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
