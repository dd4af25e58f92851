"""Two tables played side by side for a glance test: the same names, the same public
actions, different secrets (tests/support/glance.py compares their phones at rest).

    twins = TwinTables(server, "london1888", [(code_a, laptop_a, phones_a),
                                              (code_b, laptop_b, phones_b)])
    twins.both(lambda screen, phones: phones[0].click("[data-end-turn]"))
    twins.glance("after-a-turn")
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from playwright.sync_api import Page

from tests.support.glance import DEFAULT_MASK, assert_same_glance
from tests.support.pages import caught_up

NARROW = {"width": 360, "height": 740}
"""The narrowest phone: the glance tests look at it."""

# The random table code's whole line: antialiasing at the edge of the code's own box
# differs by a pixel from one code to another.
MASK = (*DEFAULT_MASK, "p:has(> .code)")


def leak(page: Page, text: str) -> None:
    """Show ``text`` at the top of the page, as a page that let a secret through would:
    a glance test proves that it sees one character of it (reload the page after)."""
    page.evaluate("""text => {
      const leak = document.createElement('b');
      leak.textContent = text;
      document.querySelector('#view').prepend(leak);
    }""", text)


class TwinTables:
    """``tables``: (code, table screen, phones in seat order) of each of the two."""

    def __init__(self, server: Any, name: str,
                 tables: Sequence[tuple[str, Page, Sequence[Page]]]) -> None:
        self.server = server
        self.name = name
        self.tables = list(tables)

    @property
    def codes(self) -> list[str]:
        return [code for code, _screen, _phones in self.tables]

    def phones(self, seat: int) -> list[Page]:
        """The two phones of ``seat``."""
        return [phones[seat] for _code, _screen, phones in self.tables]

    def every_phone(self) -> list[Page]:
        return [page for _code, _screen, phones in self.tables for page in phones]

    def both(self, do: Callable[[Page, Sequence[Page]], object]) -> None:
        """``do(screen, phones)`` at each table, then every page catches up."""
        for _code, screen, phones in self.tables:
            do(screen, phones)
        self.caught_up()

    def caught_up(self) -> None:
        """Every page shows its table's latest version."""
        for _code, screen, phones in self.tables:
            caught_up(screen, *phones)

    def glance(self, point: str, mask: Sequence[str] = MASK, language: str | None = None,
               ) -> None:
        """Every seat's phone, at rest, is the same at both tables (read in ``language``,
        both drawn again in it, if given: a point with nothing opened or refused)."""
        for seat in range(len(self.tables[0][2])):
            first, second = self.phones(seat)
            assert_same_glance(first, second, f"{self.name}-{point}-{seat}", mask,
                               language=language)
