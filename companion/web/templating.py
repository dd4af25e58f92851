"""Jinja as the views use it: their data are plain dicts (the games' views, rows)."""

from __future__ import annotations

from typing import Any

from flask.templating import Environment
from jinja2.bccache import Bucket, BytecodeCache

from companion.web.i18n import shown

_DICT_ATTRIBUTES = frozenset(dir(dict))


class _CompiledOnce(BytecodeCache):
    """Each template compiled once per process, whichever app of it draws the template.

    Every app is made by ``create_app`` with one ``ViewEnvironment``'s settings, and the
    tests make an app per test: compiling every template again for each was a third of
    the quick set's time. A changed template (its source's checksum) compiles anew."""

    def __init__(self) -> None:
        self.code: dict[tuple[str, str], Any] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        bucket.code = self.code.get((bucket.key, bucket.checksum))

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[(bucket.key, bucket.checksum)] = bucket.code


_COMPILED = _CompiledOnce()


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
        options.setdefault("bytecode_cache", _COMPILED)
        super().__init__(app, **options)

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)
