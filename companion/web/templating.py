"""Jinja as the views use it: their data are plain dicts (the games' views, rows)."""

from __future__ import annotations

from typing import Any

from flask.templating import Environment

from companion.web.i18n import shown

_DICT_ATTRIBUTES = frozenset(dir(dict))


class ViewEnvironment(Environment):
    """``seat.name`` on a dict, without the cost of Jinja trying the attribute first.

    Jinja looks an attribute up before the key, and a dict has no attribute ``name``:
    the AttributeError it raises and catches on every such lookup was a seventh of the
    server's time in a busy room (bench/clubnight.py under ``py-spy --gil``). The
    answer is the same as Jinja's: a dict's own methods (``items``) still win.

    And every ``{{ }}`` shows a companion.words.Text in the reader's language
    (``finalize``, companion/web/i18n.py).
    """

    def __init__(self, app: Any, **options: Any) -> None:
        options.setdefault("finalize", shown)
        super().__init__(app, **options)

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)
