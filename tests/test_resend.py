"""An action sent twice through the real server (issue 26): the phone's connection drops
after the action was stored, before its answer arrived, and the browser sends the POST
again. The resend is answered as the first would have been (the same 303 to the same
page), and the action is stored once."""

from __future__ import annotations

import re
import socket
import time
import urllib.parse

import pytest

from tests.support.httpdevice import HttpDevice
from tests.support.realserver import Server
from tests.support.scripted import parse_forms

pytestmark = pytest.mark.slow


@pytest.fixture
def served(tmp_path):
    server = Server(tmp_path / "companion.sqlite").start()
    try:
        yield server
    finally:
        server.stop()


def _post(port: int, path: str, body: bytes, cookie: str, read: bool) -> bytes:
    """One POST on a connection of its own; ``read=False`` drops the connection as soon
    as the request is sent (the answer is lost on the way)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(b"POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: %s\r\n"
                     b"Content-Type: application/x-www-form-urlencoded\r\n"
                     b"Content-Length: %d\r\nConnection: close\r\n\r\n%s"
                     % (path.encode(), cookie.encode(), len(body), body))
        if not read:
            conn.shutdown(socket.SHUT_WR)
            return b""
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
        return answer


def test_a_resend_after_the_commit_is_answered_as_the_first_and_stored_once(served):
    host = HttpDevice(served.url)
    code = host.create("tally", 2)
    ann = HttpDevice(served.url)
    assert ann.join(code, 0, "Ann").status == 303
    assert HttpDevice(served.url).join(code, 1, "Bob").status == 303
    assert host.host("start", host.version()).status == 303
    version = host.version()
    form = next(form for form in parse_forms(ann.get(f"/t/{code}/me").text)
                if form.action.endswith("/me/act"))
    fields = {**form.defaults(), "type": "add", "amount": "2"}
    assert fields.get("key")
    body = urllib.parse.urlencode(fields).encode()

    _post(served.port, form.action, body, ann.cookie(), read=False)
    deadline = time.monotonic() + 10
    while host.version() == version and time.monotonic() < deadline:
        time.sleep(0.05)
    assert host.version() == version + 1  # stored, its answer lost

    answer = _post(served.port, form.action, body, ann.cookie(), read=True)
    head = answer.split(b"\r\n\r\n", 1)[0].decode()
    assert head.startswith("HTTP/1.1 303"), head
    location = re.search(r"(?im)^location: *(\S+)", head)
    assert location and location.group(1).endswith(f"/t/{code}/me")
    page = ann.get(f"/t/{code}/me").text
    assert "<span data-total>2</span>" in page and "moved on" not in page
    assert host.version() == version + 1  # not stored twice
