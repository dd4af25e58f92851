"""A phone or laptop speaking HTTP to a real server: cookies, CSRF, no redirects.

Used by the crash tests and the benchmark, where the Flask test client would not
exercise the real server.
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass

from tests.support.scripted import parse_forms


@dataclass
class Reply:
    status: int
    text: str
    location: str | None


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


class HttpDevice:
    def __init__(self, base: str, timeout: float = 10) -> None:
        self.base = base
        self.timeout = timeout
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect())
        self.csrf = ""
        self.code = ""

    def request(self, path: str, data: dict[str, object] | None = None) -> Reply:
        body = None
        if data is not None:
            body = urllib.parse.urlencode({"csrf": self.csrf, **data}).encode()
        try:
            response = self.opener.open(self.base + path, body, timeout=self.timeout)
            status, text, headers = response.status, response.read().decode(), response.headers
        except urllib.error.HTTPError as error:
            status, text, headers = error.code, error.read().decode(), error.headers
        found = re.search(r'name="csrf" value="([^"]+)"', text)
        if found:
            self.csrf = found.group(1)
        return Reply(status, text, headers.get("Location"))

    def get(self, path: str) -> Reply:
        return self.request(path)

    def post(self, path: str, data: dict[str, object]) -> Reply:
        if not self.csrf:
            self.get("/")
        return self.request(path, data)

    def cookie(self) -> str:
        """This device's cookies as a Cookie header (for raw HTTP from the same device)."""
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.jar)

    def version(self) -> int:
        return int(json.loads(self.get(f"/t/{self.code}/version").text)["version"])

    def create(self, game: str, players: int, **options: object) -> str:
        reply = self.post(f"/new/{game}", {"players": players, **options})
        assert reply.status == 303, reply.text
        self.code = reply.location.rstrip("/").rsplit("/", 1)[-1]
        return self.code

    def create_as_set_up(self, game: str, players: int) -> str:
        """A table with the set-up form's defaults, as a host who changes nothing."""
        form = next(f for f in parse_forms(self.get(f"/new/{game}").text)
                    if f.action.endswith(f"/new/{game}"))
        return self.create(game, players, **{key: value for key, value in
                                            form.defaults().items()
                                            if key not in ("csrf", "players")})

    def join(self, code: str, seat: int, name: str) -> Reply:
        self.code = code
        return self.post(f"/j/{code}", {"seat": seat, "name": name})

    def act(self, kind: str, version: int, **fields: object) -> Reply:
        return self.post(f"/t/{self.code}/me/act", {"type": kind, "version": version, **fields})

    def host(self, control: str, version: int, **fields: object) -> Reply:
        return self.post(f"/t/{self.code}/{control}", {"version": version, **fields})


def others_join_and_start(laptop: HttpDevice, names: Sequence[str]) -> list[HttpDevice]:
    """Once a browser's phone has taken seat 0 of the laptop's table, a phone over HTTP
    takes each other seat (``names[1:]``) and the host starts the game."""
    others = []
    for seat, name in enumerate(names[1:], start=1):
        other = HttpDevice(laptop.base)
        assert other.join(laptop.code, seat, name).status == 303
        others.append(other)
    assert laptop.host("start", laptop.version()).status == 303
    return others
