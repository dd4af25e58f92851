"""A reconnect storm: every device drops its event stream and reconnects within a second.

Usage: python bench/storm.py [--tables 50] [--phones 7] [--window 1] [--reload] [--cold]

Starts `companion serve` on 127.0.0.1, seats 50 tables of London 1888 (a table screen
and 7 phones each: 400 devices, each on its own loopback address), opens every
device's event stream and has each fetch its view (as a live page shows its current
one; --cold: not, so every view of the storm is drawn afresh), then drops them all
(a Wi-Fi blip, a room reloading): each device reconnects at a random instant within
--window seconds, reads its stream's first event and fetches its view (--reload: the
full page, as a reload does). A probe loads the lobby and a view throughout. Prints
the figures and writes bench/results/storm.json.

Target (issue 14): every device has its stream back and its view within 3 s; pages
answer with p95 under 500 ms during the storm. Loopback only; about a minute;
stops itself and the server.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import random
import time

from room import (
    Probe,
    Stream,
    close_all,
    fetch,
    loopback,
    measure_room,
    open_all,
    percentiles,
    save,
)


async def storm(running, devices, window: float, reload: bool, cold: bool) -> dict:
    streams = [device.stream() for device in devices]
    await open_all(streams, running.port)
    held = collections.Counter(stream.status for stream in streams)
    if not cold:
        # A live page shows its current view (it fetched it when the table last
        # changed): the storm's fetches ask for what each device already had.
        for start in range(0, len(devices), 50):
            await asyncio.gather(*(fetch(running.port, device.path, device.address,
                                         device.cookie, component=not reload)
                                   for device in devices[start:start + 50]))
    await asyncio.sleep(2)
    probe = Probe(running.port, devices[1].at(loopback(len(devices) + 10)))
    probe.start()
    await asyncio.sleep(1)
    calm = probe.report()
    probe.lobby_ms.clear()
    probe.view_ms.clear()
    rng = random.Random(14)
    cpu = running.cpu()
    started = time.perf_counter()
    done: list[float] = []
    failures: collections.Counter[str] = collections.Counter()

    async def reconnect(device, stream: Stream) -> None:
        await asyncio.sleep(rng.uniform(0, window))
        stream.close()
        again = await device.stream().open(running.port)
        if again.status != 200:
            failures[f"stream {again.error or again.status}"] += 1
        status, _seconds = await fetch(running.port, device.path, device.address,
                                       device.cookie, component=not reload)
        if status != 200:
            failures[f"view {status}"] += 1
        done.append(time.perf_counter() - started)
        stream.reader, stream.writer = again.reader, again.writer

    await asyncio.gather(*(reconnect(device, stream)
                           for device, stream in zip(devices, streams, strict=True)))
    everyone = time.perf_counter() - started
    cpu = None if cpu is None else round(running.cpu() - cpu, 2)
    await asyncio.sleep(1)
    during = await probe.stop()
    close_all(streams)
    return {"devices": len(devices), "first_streams": dict(held), "window_s": window,
            "reload": reload, "cold": cold, "everyone_back_s": round(everyone, 2),
            "server_cpu_s": cpu,
            "device_back_s": percentiles(done), "failures": dict(failures),
            "probe_before": calm, "probe_during": during,
            "server_threads": running.threads()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--phones", type=int, default=7)
    parser.add_argument("--window", type=float, default=1.0)
    parser.add_argument("--reload", action="store_true")
    parser.add_argument("--cold", action="store_true",
                        help="no device fetched its view before (every view is drawn)")
    args = parser.parse_args()
    result = measure_room(lambda running, devices: storm(running, devices, args.window,
                                                         args.reload, args.cold),
                          args.tables, args.phones, limit=240)
    print(f"{result['devices']} devices dropped their streams within {args.window} s: all "
          f"back with their view after {result['everyone_back_s']} s (target 3 s); per device "
          f"{result['device_back_s']}; failures {result['failures']}; the server used "
          f"{result['server_cpu_s']} CPU s meanwhile")
    print(f"pages before: {result['probe_before']}")
    print(f"pages during: {result['probe_during']}   (target p95 < 500 ms)")
    save("storm" + ("-reload" if args.reload else "") + ("-cold" if args.cold else ""), result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
