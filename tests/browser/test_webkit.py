"""Every game on an iPhone's engine: WebKitGTK (Safari's WebKit) at 390 px through its
WebDriver (tests/support/webkit.py), against the real server. Half the phones at a table
are iPhones, and what breaks them (a CSS feature, the shared worker, pointer events)
would not show in Chromium.

One phone a test is the browser; the laptop and the other players are HTTP devices
(tests/support/httpdevice.py), which bring the table quickly where the phone acts. Each
test: the phone joins by the join address, the other devices' actions reach it by
themselves (a live update), hold to peek where the game has a secret to hold, a tap-again
action, and in Letters from Whitechapel taps on the map. The keep-awake video is fetched
once per phone, not at every loop, as WebKit did from the server.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest

from companion.games.mrjack import CHARACTERS
from tests.support.hidden import hidden_state
from tests.support.httpdevice import HttpDevice, others_join_and_start
from tests.support.realserver import Server
from tests.support.webkit import (
    at_version,
    attribute,
    code_whole,
    confirm,
    gone,
    peek,
    says,
    shown,
    sit,
    tap,
    wait,
)
from tests.support.whitechapel_walks import CRIME

pytestmark = pytest.mark.webkit
NAMES = ("Ann", "Bob", "Cy", "Di")


def seated(server: Server, iphone, game: str, players: int,
           awake: bool = False) -> tuple[HttpDevice, list]:
    """The iPhone joins at seat 0 by the join address, HTTP phones take the other seats;
    the host starts and the iPhone's page follows by itself."""
    laptop = HttpDevice(server.url)
    laptop.create_as_set_up(game, players)
    sit(iphone, f"{server.url}/j/{laptop.code}", NAMES[0], 0, awake=awake)
    others = others_join_and_start(laptop, NAMES[:players])
    at_version(iphone, laptop.version())  # the start, from the laptop: a live update
    code_whole(iphone)
    return laptop, others


def act_on_page(device: HttpDevice, kind: str, **fields: object) -> None:
    """An HTTP phone acts, at the version its page shows."""
    reply = device.act(kind, device.version(), **fields)
    assert reply.status == 303, reply.text[:500]


def test_mr_jack_on_an_iphone(server, iphone):
    laptop, (detective,) = seated(server, iphone, "mrjack", 2)
    # Jack's alibi, held (1 press): his character, hidden again once let go.
    alibi = hidden_state(server, laptop.code)["alibi"]
    assert peek(iphone, "[data-secret-alibi]") == str(CHARACTERS[alibi])
    # Turn 1: the detective plays first, from his phone; Jack's page follows by itself.
    card = re.search(r'data-pick="([^"]+)"', detective.get(f"/t/{laptop.code}/me").text)[1]
    act_on_page(detective, "pick", character=card)
    at_version(iphone, laptop.version())
    gone(iphone, f"[data-pick='{card}']")
    shown(iphone, ".now-line[data-mine='yes']")
    # Jack plays a card: 2 taps (the one confirm pattern).
    mine = attribute(iphone, "[data-pick]", "data-pick")
    confirm(iphone, f"[data-pick='{mine}']")
    gone(iphone, f"[data-pick='{mine}']")
    assert 'data-taken-by="Jack"' in laptop.get(f"/t/{laptop.code}").text


def test_london_1888_on_an_iphone(server, iphone):
    laptop, others = seated(server, iphone, "london1888", 4)
    says(iphone, "[data-now]", "Your turn")
    # The role, held (1 press): the hidden state's, hidden again once let go.
    role = peek(iphone, "[data-role]")
    lines = hidden_state(server, laptop.code)["lines"]
    assert role in ("Innocent", "Jack the Ripper"), role
    assert (role == "Jack the Ripper") == ("jack" in lines[0]), (role, lines[0])
    confirm(iphone, "[data-end-turn]")  # 2 taps
    gone(iphone, "[data-end-turn]")
    # The next player ends his turn on his phone: Ann's page follows by itself.
    nxt = next(o for o in others if "data-end-turn" in o.get(f"/t/{laptop.code}/me").text)
    act_on_page(nxt, "end_turn")
    at_version(iphone, laptop.version())


def test_wo_ist_jack_on_an_iphone(server, iphone):
    # No secret on a reporter's phone to hold: the story deck is hidden from everyone.
    laptop, (bob, cy) = seated(server, iphone, "wo_ist_jack", 3)
    shown(iphone, "[data-choose-start]")
    act_on_page(bob, "start_player", seat=0)  # Bob says Ann starts: her page follows
    at_version(iphone, laptop.version())
    says(iphone, "[data-now]", "Your turn")
    lowest = attribute(iphone, "input[name=points]", "min")
    shown(iphone, "input[name=points]").send_keys(lowest)
    confirm(iphone, "[data-print-button]")  # 2 taps
    says(iphone, "[data-now]", "You are about to print")
    for other in (bob, cy):
        act_on_page(other, "pass")
    at_version(iphone, laptop.version())
    says(iphone, "[data-printed]", "printed")


TAPPABLE = """for (var a of document.querySelectorAll('a[data-to]')) {
  var r = a.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) { continue; }
  var hit = document.elementFromPoint(x, y);
  if (hit && a.contains(hit)) { return Number(a.dataset.to); }
}
return null"""
"""A circle of Jack's map a thumb can tap where the map stands now (no pan)."""


def test_letters_from_whitechapel_on_an_iphone(server, iphone):
    laptop, (ann,) = seated(server, iphone, "whitechapel", 2)
    says(iphone, "[data-now]", "Your turn: your hideout")
    # The hideout tapped on his map, open at rest while it holds nothing of his (zoomed
    # in on the middle of the board): the circle, then its button (2 taps).
    shown(iphone, "[data-pan][data-ready='1']")
    hideout = wait(iphone, lambda: iphone.execute_script(TAPPABLE), "no circle to tap")
    tap(iphone, f"a[data-to='{hideout}']")
    wait(iphone, lambda: attribute(iphone, "[data-picked]", "data-picked") == str(hideout),
         "the circle was not picked")
    tap(iphone, "[data-way='hideout']")
    says(iphone, "[data-now]", "mark the women")
    # Jack's sheet, held (1 press): his hideout.
    assert str(hideout) in peek(iphone, ".peek-secret")
    # The women ticked on his first screen, then sent (1 tap each, 1).
    for circle in (3, 21, 27, CRIME, 84):
        tap(iphone, f"label:has(> [data-woman-at='{circle}'])")
    tap(iphone, "[data-targets] [data-way='women']")
    says(iphone, "[data-now]", "Wait: the patrols are placed")
    # The Head of the Investigation says the patrols are placed: Jack's page follows.
    act_on_page(ann, "patrols_placed")
    at_version(iphone, laptop.version())
    says(iphone, "[data-now]", "Your turn: kill or wait")
    # The victim tapped, then killed with the one confirm pattern (2 taps).
    confirm(iphone, f"[data-targets] [data-victim='{CRIME}']")
    assert "Alarm whistles" in laptop.get(f"/t/{laptop.code}").text


@pytest.fixture
def logged_server(tmp_path) -> Iterator[Server]:
    running = Server(tmp_path / "companion.sqlite", access_log=tmp_path / "access.log").start()
    yield running
    running.stop()


LOOPS = """var v = document.querySelector('video.awake-video');
if (v && !v.dataset.loops) {
  v.dataset.loops = '0';
  var last = 0;
  v.addEventListener('timeupdate', function () {
    if (v.currentTime < last) { v.dataset.loops = String(Number(v.dataset.loops) + 1); }
    last = v.currentTime;
  });
}
return v && !v.paused ? Number(v.dataset.loops) : -1"""


def test_the_keep_awake_video_is_fetched_once_per_phone(logged_server, iphone):
    """WebKit's media stack asked the server for the looping video again at every loop
    (a range request a second, per iPhone, all game long): now the page fetches it once
    and it loops from memory. Counted in the server's access log over a few loops."""
    seated(logged_server, iphone, "tally", 2, awake=True)
    # As on the laptop's plain-http address, where Safari has no Wake Lock (on 127.0.0.1
    # WebKitGTK has one, which refuses): the video keeps the screen on.
    iphone.execute_script("delete Navigator.prototype.wakeLock")
    assert iphone.execute_script("return 'wakeLock' in navigator") is False
    tap(iphone, "[data-seat-label]")  # the first tap anywhere starts it, where it must
    says(iphone, "[data-wake]", "Screen stays on")
    started = time.monotonic()
    wait(iphone, lambda: iphone.execute_script(LOOPS) >= 3, "the video did not loop 3 times")
    loops = iphone.execute_script(LOOPS)
    fetched = [*logged_server.requests("/static/awake.webm"),
               *logged_server.requests("/static/awake.mp4")]
    assert len(fetched) == 1, (fetched, loops, time.monotonic() - started)
