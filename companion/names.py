"""Pure: a name as a person typed it (a seat's player, a tournament, its players and
clubs, a correction's reason, a player chosen in the history).

Its spaces are collapsed ("Anna  B " is "Anna B"), then it is refused when it is missing
or too long, each field with its own sentences: a language words "your name" and "the
club" each its own way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.words import Text


@dataclass(frozen=True)
class NameField:
    """A field a name is typed into: its longest, and why it is refused."""

    limit: int
    missing: Text
    too_long: Text


def clean_name(name: Any, field: NameField, error: Callable[[Text, int], Exception],
               required: bool = True) -> str:
    """``name`` with its spaces collapsed, or ``error`` (the refusal's sentence, status
    422) when it is empty (and ``required``) or longer than the field takes."""
    name = " ".join(str(name or "").split())
    if required and not name:
        raise error(field.missing, 422)
    if len(name) > field.limit:
        raise error(field.too_long, 422)
    return name
