"""The HTTP server of ``companion serve``. Only ``companion.cli`` imports it
(tests/test_architecture.py): nothing of the app, its pages or its games knows it is
there, so a page or game change never needs to touch it.

- ``make_server`` (here): waitress and the stream hub sized for a room of devices;
- wsgi.py: waitress for pages and actions (two worker threads, actions first), event
  streams handed to the hub, room made for newcomers;
- limits.py: what one device may take (connections, requests at once, pace, slow
  requests), so that no device freezes the room;
- quietloop.py: waitress's poll loop, asking only connections that may have changed;
- streamhub.py: every page's event stream held on one asyncio loop, no thread each;
- raw.py: what the server writes itself (a stream's head, a refusal), with the app's
  security headers.

Waitress internals it leans on (waitress is pinned to 3.0.2 in pyproject.toml; none of
these is waitress's documented API):

- ``waitress.channel.HTTPChannel`` (wsgi.Channel): ``__init__(server, sock, addr, adj,
  map=)``; ``received(data)``, which calls ``server.add_task(channel)`` on the loop thread
  once a connection's first waiting request is whole; ``service()``, which serves
  ``requests[0]`` on a worker thread; ``del_channel(map)``, which drops it from
  ``server.active_channels`` and the socket map; and the attributes ``requests``,
  ``request`` (the one still arriving: ``headers_finished``, ``path``, ``command``),
  ``creation_time``, ``last_activity``, ``total_outbufs_len``, ``will_close``,
  ``connected``, ``socket``, ``addr``, ``server`` and wasyncore's ``_fileno``.
- ``waitress.task.ThreadedTaskDispatcher`` (wsgi.Dispatcher): ``add_task(task)`` is the
  only way in (a task is a channel with ``requests``); workers take ``queue`` (a deque)
  from its left under ``lock`` and wait on ``queue_cv``; ``set_thread_count``,
  ``shutdown``.
- ``waitress.server.TcpWSGIServer`` (wsgi.Server): ``channel_class``; ``handle_accept``,
  ``readable`` and ``run`` replaced whole, reusing ``accept``, ``fix_addr``,
  ``set_socket_options``, ``next_channel_cleanup``, ``maintenance(now)``, ``accepting``
  ``task_dispatcher.shutdown`` and ``pull_trigger`` (``stop`` wakes the loop with it);
  ``add_task(channel)`` (called once a request is whole) and ``maintenance(now)``
  extended; ``_map``, ``active_channels``, ``task_dispatcher``, ``adj``
  (``connection_limit``, ``asyncore_loop_timeout``, ``cleanup_interval``), ``close``; and
  the keyword arguments of ``make_server`` below, read by waitress's ``Adjustments``.
- ``waitress.wasyncore``: ``poll(timeout, map)`` (wsgi.Server.run where there is no poll);
  in quietloop.py ``readwrite(obj, flags)`` and a dispatcher's
  ``readable``, ``writable``, ``accepting``.

When waitress is upgraded, read its changes to those names, then check:

1. ``handle_accept``, ``readable`` and ``run``: whatever waitress's own now do beyond
   accepting one connection, the upkeep every ``cleanup_interval`` and stopping at the
   connection limit (``readable``), and ``wasyncore.loop`` (``run``), wsgi.Server must do
   too (it leaves out only that stop: it makes room instead).
2. The hand-off of a stream: ``received`` still calls ``add_task`` for a connection's
   first request on the loop thread, and after ``del_channel`` and ``connected = False``
   waitress neither reads, writes nor closes the socket (wsgi.Server.add_task).
3. ``del_channel`` is still the one way a channel leaves (the per-device count of
   connections is given back there), and ``service`` the one way a request is served
   (the device's next request then runs).
4. The dispatcher's ``queue``, ``lock`` and ``queue_cv`` (actions are put first).
5. Then run tests/test_storm.py, tests/test_quietloop.py, tests/test_crash.py and
   bench/clubnight.py, storm.py, slow.py, greedy.py and streams.py, and compare with
   their last measured figures.
"""

from __future__ import annotations

import contextlib
import sys

from flask import Flask

from companion.server.limits import PHONES_PER_ADDRESS, DeviceLimits, streams_per_address
from companion.server.streamhub import stream_hub
from companion.server.wsgi import THREADS, Dispatcher, Server


def raise_open_file_limit(wanted: int) -> None:
    """Each connection is a file descriptor; many systems allow only 256 or 1,024 by
    default, fewer than a room of streams. Windows has no such limit."""
    if sys.platform == "win32":
        return
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    # macOS refuses more than its own per-process cap (often 10,240) whatever the hard
    # limit says: then a smaller raise is tried.
    for limit in (target, min(target, 10240), min(target, 4096)):
        if soft == resource.RLIM_INFINITY or soft >= limit:
            return
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
            return


def make_server(app: Flask, host: str, port: int, devices: int,
                phones_per_address: int = PHONES_PER_ADDRESS) -> Server:
    """Waitress sized for ``devices`` phones and screens, each with its event stream
    on the hub (twice as many streams fit before one is refused); up to
    ``phones_per_address`` of them may share one address (companion/server/limits.py)."""
    streams = devices * 2
    # A connection per device plus room; past it, idle and slow ones make room for
    # newcomers, and a burst may go over up to the hard limit (on Windows select()
    # stops at 512 sockets).
    connections = devices + 64
    hard = min(connections * 2, 500) if sys.platform == "win32" else connections * 2
    connections = min(connections, hard)
    raise_open_file_limit(streams + hard + 256)
    hub = stream_hub(app, capacity=streams, per_address=streams_per_address(phones_per_address),
                     exempt=lambda address: address in shares.laptop)
    shares = DeviceLimits(phones_per_address, hub.phones_at)
    dispatcher = Dispatcher()
    dispatcher.set_thread_count(THREADS)
    return Server(app, hub, shares, hard, host=host, port=port, dispatcher=dispatcher,
                  threads=THREADS, connection_limit=connections, asyncore_use_poll=True,
                  channel_timeout=60, cleanup_interval=1, ident="companion")
