"""One greedy client: a single address opens far more than its share, and the others.

Usage: python bench/greedy.py [--streams 300] [--connections 300] [--loopers 50]
                              [--duration 10]

Starts `companion serve` on 127.0.0.1 and seats 5 tables of London 1888. A probe (an
ordinary phone on its own address) loads the lobby and its view again and again,
first alone, then while one greedy address opens --streams event streams, holds
--connections open connections and requests pages in a loop on --loopers of them
(someone who opens a page in a loop). Prints what the greedy address got and what the
probe saw, and writes bench/results/greedy.json.

Target (issue 14): the greedy address is limited; the other devices do not notice.
Loopback only; about 40 s; stops itself and the server.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import time

from room import Probe, close_all, connect, loopback, measure_room, read_response, request, save

GREEDY = "127.0.9.9"


async def measure(running, devices, args) -> dict:
    probe = Probe(running.port, devices[1].at(loopback(500)))
    probe.start()
    await asyncio.sleep(args.duration / 2)
    alone = probe.lap()

    greedy = devices[0].at(GREEDY)
    streams = await asyncio.gather(*(greedy.stream().open(running.port, timeout=10)
                                     for _ in range(args.streams)))
    stream_answers = collections.Counter(s.error or s.status for s in streams)
    served = collections.Counter()
    held: list[asyncio.StreamWriter] = []
    running_flag = [True]

    async def hold() -> None:
        try:
            reader, writer = await asyncio.wait_for(connect(running.port, GREEDY), 10)
        except (OSError, TimeoutError):
            served["connection refused"] += 1
            return
        held.append(writer)
        if len(held) > args.loopers:
            return
        while running_flag[0]:
            try:
                writer.write(request("/", running.port))
                status, _ = await asyncio.wait_for(read_response(reader), 10)
                served[status] += 1
            except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError):
                served["dropped"] += 1
                return

    started = time.perf_counter()
    holders = [asyncio.ensure_future(hold()) for _ in range(args.connections)]
    await asyncio.sleep(args.duration)
    running_flag[0] = False
    seconds = time.perf_counter() - started
    with_greedy = await probe.stop()
    await asyncio.gather(*holders, return_exceptions=True)
    for writer in held:
        writer.close()
    close_all(streams)
    return {"greedy_streams": dict(stream_answers),
            "greedy_requests": {str(k): v for k, v in served.items()},
            "greedy_requests_per_s": round(sum(v for k, v in served.items()
                                               if isinstance(k, int)) / seconds, 1),
            "probe_alone": alone, "probe_with_greedy": with_greedy}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--streams", type=int, default=300)
    parser.add_argument("--connections", type=int, default=300)
    parser.add_argument("--loopers", type=int, default=50)
    parser.add_argument("--duration", type=float, default=10)
    args = parser.parse_args()
    result = measure_room(lambda running, devices: measure(running, devices, args),
                          5, phones=7, limit=120)
    print(f"greedy address: streams {result['greedy_streams']}, requests "
          f"{result['greedy_requests']} ({result['greedy_requests_per_s']}/s served)")
    print(f"probe alone:       {result['probe_alone']}")
    print(f"probe with greedy: {result['probe_with_greedy']}")
    save("greedy", result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
