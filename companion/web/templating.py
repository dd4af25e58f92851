"""Jinja as the views use it: their data are plain dicts (the games' views, rows)."""

from __future__ import annotations

from typing import Any

from flask.templating import Environment

_DICT_ATTRIBUTES = frozenset(dir(dict))


class ViewEnvironment(Environment):
    """``seat.name`` on a dict, without the cost of Jinja trying the attribute first.

    Jinja looks an attribute up before the key, and a dict has no attribute ``name``:
    the AttributeError it raises and catches on every such lookup was a seventh of the
    server's time in a busy room (bench/clubnight.py under ``py-spy --gil``). The
    answer is the same as Jinja's: a dict's own methods (``items``) still win.
    """

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)
