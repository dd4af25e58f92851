"""The server loop that asks only connections that may have changed
(companion/server/quietloop.py), on real sockets."""

from __future__ import annotations

import socket
import time

import pytest

from companion.server import quietloop

pytestmark = pytest.mark.skipif(not quietloop.available(), reason="no select.poll here")


class Peer:
    """A connection as the loop sees it: wants to read, or to write when it has output."""

    accepting = False

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.waiting = False  # a request in the queue: it neither reads nor writes
        self.output = b""
        self.read: list[bytes] = []
        self.asked = 0

    def readable(self) -> bool:
        self.asked += 1
        return not self.output and not self.waiting

    def writable(self) -> bool:
        return bool(self.output)

    def handle_read_event(self) -> None:
        self.read.append(self.sock.recv(100))

    def handle_write_event(self) -> None:
        self.output = self.output[self.sock.send(self.output):]

    def handle_expt_event(self) -> None:
        pass

    def handle_close(self) -> None:
        pass


@pytest.fixture
def room():
    pairs = [socket.socketpair() for _ in range(20)]
    peers = {ours.fileno(): Peer(ours) for ours, _theirs in pairs}
    loop = quietloop.QuietLoop(peers, lambda peer, flags: flags == quietloop.READ or (
        flags == 0 and peer.waiting))
    yield loop, peers, {ours.fileno(): theirs for ours, theirs in pairs}
    for ours, theirs in pairs:
        ours.close()
        theirs.close()


def test_quiet_connections_are_not_asked_on_every_turn(room):
    loop, peers, _theirs = room
    loop.turn(0)  # the first turn asks everyone
    assert all(peer.asked == 1 for peer in peers.values())
    for _ in range(10):
        loop.turn(0)
    assert all(peer.asked == 1 for peer in peers.values())


def test_data_on_a_quiet_connection_is_read(room):
    loop, peers, theirs = room
    loop.turn(0)
    fd = next(iter(peers))
    theirs[fd].send(b"GET /")
    loop.turn(0.5)
    assert peers[fd].read == [b"GET /"]
    loop.turn(0)
    assert peers[fd].asked == 2  # asked again after its event


def test_a_change_made_behind_the_loops_back_is_seen_within_a_full_turn(room):
    loop, peers, theirs = room
    loop.turn(0)
    fd = next(iter(peers))
    peers[fd].output = b"bye"  # the upkeep closing an idle connection, say
    loop.turn(0)
    assert peers[fd].output == b"bye"
    time.sleep(quietloop.FULL_TURN)
    loop.turn(0)  # asks everyone: now it wants to write
    loop.turn(0.5)
    assert peers[fd].output == b""
    assert theirs[fd].recv(10) == b"bye"


def test_a_connection_gone_from_the_map_is_forgotten(room):
    loop, peers, _theirs = room
    loop.turn(0)
    fd = next(iter(peers))
    del peers[fd]
    loop.turn(0)
    assert fd not in loop.registered and fd not in loop.quiet


def test_a_connection_in_the_queue_is_asked_again_once_a_worker_touches_it(room):
    loop, peers, theirs = room
    fd = next(iter(peers))
    peers[fd].waiting = True
    loop.turn(0)
    asked = peers[fd].asked
    for _ in range(5):
        loop.turn(0)
    assert peers[fd].asked == asked  # waiting its turn: not asked
    peers[fd].waiting, peers[fd].output = False, b"page"  # a worker served it
    loop.touch(fd)
    loop.turn(0)
    loop.turn(0.5)
    assert theirs[fd].recv(10) == b"page"
