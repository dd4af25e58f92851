"""A stream whose phone went away: how soon does the server free what it held?

Usage: python bench/gone.py [--phones 100] [--rounds 20]

Starts `companion serve` on 127.0.0.1 and seats 2 tables of London 1888. Then, --rounds
times, --phones phones (each on its own loopback address) open their event streams and
go away at once (their browser closes the connection, as a tab closed, a reload or a
phone leaving the Wi-Fi with a goodbye does); the script times how long until the
server holds none of their sockets (and, with one thread per stream, none of their
threads). Linux only (it reads /proc). Prints the figures and writes
bench/results/gone.json.

Target (issue 14): within 2 s. A phone that vanishes without a word (battery out
mid-stream) cannot be told from a quiet one until a write fails: it holds a socket,
no thread, until the stream's heartbeat or its end (see the README).
Loopback only; about 30 s; stops itself and the server.
"""

from __future__ import annotations

import argparse
import asyncio
import time

from room import close_all, loopback, measure_room, open_all, percentiles, save


async def measure(running, devices, phones: int, rounds: int) -> dict:
    freed: list[float] = []
    never = 0
    baseline = running.sockets()
    threads = []
    for round_ in range(rounds):
        streams = [devices[i % len(devices)].at(loopback(1000 + round_ * phones + i)).stream()
                   for i in range(phones)]
        await open_all(streams, running.port)
        assert all(stream.status == 200 for stream in streams), [s.status for s in streams]
        await asyncio.sleep(0.2)
        threads.append(running.threads())
        gone = time.perf_counter()
        close_all(streams)
        while True:
            if running.sockets() <= baseline + 2:
                freed.append(time.perf_counter() - gone)
                break
            if time.perf_counter() - gone > 30:
                never += 1
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)
    return {"phones": phones, "rounds": rounds, "freed_s": percentiles(freed),
            "not_freed_within_30_s": never, "server_threads_while_open": max(threads)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--phones", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    result = measure_room(lambda running, devices: measure(running, devices, args.phones,
                                                           args.rounds),
                          2, phones=7, limit=600, settle=1)
    print(f"{args.phones} phones went away at once, {args.rounds} times: everything they "
          f"held freed after {result['freed_s']} s (target 2 s); not within 30 s: "
          f"{result['not_freed_within_30_s']}; server threads while open "
          f"{result['server_threads_while_open']}")
    save("gone", result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
