"""Slow clients: 1,000 connections that send their request a byte at a time.

Usage: python bench/slow.py [--clients 1000] [--addresses 1000] [--duration 15]

Starts `companion serve` on 127.0.0.1 and seats 5 tables of London 1888. Then
--clients connections trickle their request headers (a byte every 0.5 s, never
finishing), spread over --addresses source addresses (1: one misbehaving device;
1000: as many devices); a dropped one connects again at once. Meanwhile a probe (an
ordinary phone) opens a new connection for the lobby and its view again and again.
Prints how the trickling connections fared and what the probe saw, and writes
bench/results/slow-<addresses>.json.

Target (issue 14): a connection that has not sent its whole request within a few
seconds is dropped; 1,000 of them lock nobody out. Loopback only; about 30 s; stops
itself and the server.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import sys

from room import Probe, connect, loopback, measure_room, save


async def attack(port: int, clients: int, addresses: int, duration: float) -> dict:
    """The slow clients (run in a process of their own, so that the probe's figures are
    not slowed by the load generator's own loop)."""
    fate: collections.Counter[str] = collections.Counter()
    going = [True]
    head = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: ".encode()

    async def trickle(index: int) -> None:
        address = loopback(1000 + index % addresses)
        while going[0]:
            try:
                reader, writer = await asyncio.wait_for(connect(port, address), 5)
            except (OSError, TimeoutError):
                fate["could not connect"] += 1
                await asyncio.sleep(0.5)
                continue
            fate["connected"] += 1
            try:
                for byte in head + b"x" * 10_000:
                    if not going[0]:
                        break
                    writer.write(bytes([byte]))
                    await writer.drain()
                    try:
                        data = await asyncio.wait_for(reader.read(1024), 0.5)
                    except TimeoutError:
                        continue
                    fate["answered 429" if b" 429 " in data[:20] else "dropped"] += 1
                    break
            except OSError:
                fate["dropped"] += 1
            finally:
                writer.close()

    tasks = [asyncio.ensure_future(trickle(index)) for index in range(clients)]
    await asyncio.sleep(duration)
    going[0] = False
    await asyncio.gather(*tasks, return_exceptions=True)
    return dict(fate)


async def measure(running, devices, args) -> dict:
    probe = Probe(running.port, devices[1].at(loopback(3000)))
    probe.start()
    await asyncio.sleep(3)
    alone = probe.lap()
    cpu = running.cpu()
    attackers = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--attack", str(running.port), "--clients", str(args.clients),
        "--addresses", str(args.addresses), "--duration", str(args.duration),
        stdout=asyncio.subprocess.PIPE)
    output, _ = await attackers.communicate()
    cpu = None if cpu is None else round((running.cpu() - cpu) / args.duration, 2)
    with_slow = await probe.stop()
    return {"clients": args.clients, "addresses": args.addresses,
            "slow_connections": json.loads(output), "server_core_fraction": cpu,
            "probe_alone": alone, "probe_with_slow_clients": with_slow}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--addresses", type=int, default=1000)
    parser.add_argument("--duration", type=float, default=15)
    parser.add_argument("--attack", type=int, metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.attack:
        print(json.dumps(asyncio.run(attack(args.attack, args.clients, args.addresses,
                                            args.duration))))
        return 0
    result = measure_room(lambda running, devices: measure(running, devices, args),
                          5, phones=7, limit=120)
    print(f"{args.clients} slow clients from {args.addresses} addresses: "
          f"{result['slow_connections']}")
    print(f"server: {result['server_core_fraction']} of a core meanwhile")
    print(f"probe alone:             {result['probe_alone']}")
    print(f"probe with slow clients: {result['probe_with_slow_clients']}")
    save(f"slow-{args.addresses}", result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
