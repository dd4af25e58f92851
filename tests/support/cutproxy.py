"""The Wi-Fi between a phone and the laptop, as a test cuts it: a TCP proxy on 127.0.0.1
in front of the real server. Down, it closes every connection it carries and refuses new
ones (the laptop cannot be reached); losing answers, it passes each POST to the server
and drops the connection when the answer comes back (the action stored, its answer
lost); up again, on the same port, it passes everything.

    with CutProxy(server.port) as wifi:
        phone.goto(wifi.url + "/j/ABCD")
        wifi.down()
        ...
        wifi.up()
"""

from __future__ import annotations

import contextlib
import socket
import threading

from tests.support.realserver import free_port


class CutProxy:
    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.losing = False
        self._listener: socket.socket | None = None
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()

    def __enter__(self) -> CutProxy:
        return self.up()

    def __exit__(self, *_exc: object) -> None:
        self.down()

    def up(self) -> CutProxy:
        """Pass everything (again), on the same port."""
        self.losing = False
        if self._listener is None:
            listener = socket.socket()
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(("127.0.0.1", self.port))
            listener.listen(64)
            self._listener = listener
            threading.Thread(target=self._accept, args=(listener,), daemon=True).start()
        return self

    def down(self) -> None:
        """Refuse new connections and close every one open (the live stream too)."""
        listener, self._listener = self._listener, None
        if listener is not None:
            _close(listener)  # shut down first: a close alone leaves accept() waiting
        with self._lock:
            for conn in self._open:
                _close(conn)
            self._open.clear()

    def lose_answers(self) -> None:
        """Every POST reaches the server; its answer never reaches the page."""
        self.losing = True

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # closed by down()
            try:
                server = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                _close(client)
                continue
            with self._lock:
                self._open.update((client, server))
            posted = threading.Event()
            threading.Thread(target=self._pipe, args=(client, server, posted, False),
                             daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, posted, True),
                             daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, posted: threading.Event,
              answers: bool) -> None:
        try:
            while chunk := source.recv(65536):
                if not answers and chunk.startswith(b"POST ") and self.losing:
                    posted.set()
                if answers and posted.is_set():
                    break  # the answer to a POST: lost on the way
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            with self._lock:
                self._open.discard(source)
                self._open.discard(sink)
            _close(source)
            _close(sink)


def _close(conn: socket.socket) -> None:
    with contextlib.suppress(OSError):  # already gone
        conn.shutdown(socket.SHUT_RDWR)
    conn.close()
