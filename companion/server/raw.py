"""What the server writes on a connection itself, outside the app: the head of an event
stream that the stream hub holds, and a refusal (too many connections or live pages from
one device, the laptop busy). Both carry the app's own security headers
(``companion.web.SECURITY_HEADERS``), so no answer of the laptop goes without them."""

from __future__ import annotations

from http import HTTPStatus

from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from companion import terminal, words
from companion.web import SECURITY_HEADERS


def head(status: int, fields: dict[str, str]) -> bytes:
    """A response's status line and headers: ``fields``, then the security headers."""
    lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}",
             *(f"{name}: {value}" for name, value in {**fields, **SECURITY_HEADERS}.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def refusal(status: int, message: str, retry_after: int, accept_language: str = "") -> bytes:
    """A whole plain-text refusal, after which the connection closes: in the first of
    the browser's languages (``accept_language``) the app speaks, else English. (A
    device's own choice is in its session, which only the app reads.)"""
    language = parse_accept_header(accept_language, LanguageAccept).best_match(
        terminal.SPOKEN, "en")
    body = words.shown(message, terminal.catalogue(language)).encode()
    return head(status, {"Content-Type": "text/plain; charset=utf-8",
                         "Content-Length": str(len(body)), "Retry-After": str(retry_after),
                         "Cache-Control": "no-store", "Connection": "close"}) + body
