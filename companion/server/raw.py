"""What the server writes on a connection itself, outside the app: the head of an event
stream that the stream hub holds, and a refusal (too many connections or live pages from
one device, the laptop busy). Both carry the app's own security headers
(``companion.web.SECURITY_HEADERS``), so no answer of the laptop goes without them."""

from __future__ import annotations

from http import HTTPStatus

from companion.web import SECURITY_HEADERS


def head(status: int, fields: dict[str, str]) -> bytes:
    """A response's status line and headers: ``fields``, then the security headers."""
    lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}",
             *(f"{name}: {value}" for name, value in {**fields, **SECURITY_HEADERS}.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def refusal(status: int, message: str, retry_after: int) -> bytes:
    """A whole plain-text refusal, after which the connection closes."""
    body = message.encode()
    return head(status, {"Content-Type": "text/plain; charset=utf-8",
                         "Content-Length": str(len(body)), "Retry-After": str(retry_after),
                         "Cache-Control": "no-store", "Connection": "close"}) + body
