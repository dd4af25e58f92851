"""How the action log keeps game states small: a change from an earlier state, compressed.

A state after an action differs from the one before by a few fields (a move appended,
a phase, a turn), while the whole state carries everything that never changes (a
board's graph, the deal). So the log keeps each game's first state whole and every
later one as a *delta* from an earlier entry's state (``companion/tables.py`` picks
the earlier entry and bounds how many deltas a state is away from a whole one).
Everything is JSON: the log's column holds it compressed, an export holds it as is.

A delta is one of:

``{key: delta, ...}``
    The same dict with some keys changed or added, each by its own delta.
``["-", {key: delta, ...}, [removed keys]]``
    The same, and some keys removed.
``["=", value]``
    The new value, whole.
``["+", [items]]``
    The same list with ``items`` appended (a move, a line of the log).
``["[", kept, [[index, delta], ...], tail]``
    The list's first ``kept`` items, some changed (each by its delta), then ``tail``.

``patch`` never changes its input and shares the parts a delta leaves alone, so a
game's states rebuilt one after another cost little more memory than one.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Mapping
from typing import Any

WHOLE, REMOVE, APPEND, LIST = "=", "-", "+", "["
_MISSING = object()


class DeltaError(ValueError):
    """A delta that does not fit the state it is applied to (a damaged file)."""


def same(a: Any, b: Any) -> bool:
    """Equal as JSON: ``1``, ``1.0`` and ``True`` are three different values here.
    States rebuilt by ``patch`` share what did not change, so identity settles most."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[key], b[key]) for key in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False))


def diff(old: Any, new: Any) -> Any:
    """The delta that turns ``old`` into ``new``, or None when they are the same.

    Each value is compared once, on the way down. A container with more unchanged
    parts than changed ones is patched (the parts left alone are what a delta saves);
    otherwise the smaller of the patch and the whole new value is kept."""
    if isinstance(old, dict) and isinstance(new, dict):
        changed = {}
        for key, value in new.items():
            step = diff(old[key], value) if key in old else [WHOLE, value]
            if step is not None:
                changed[key] = step
        removed = sorted(key for key in old if key not in new)
        if not changed and not removed:
            return None
        delta: Any = [REMOVE, changed, removed] if removed else changed
        left_alone = len(new) - len(changed)
        return delta if left_alone > len(changed) + len(removed) else _smaller(delta, new)
    if isinstance(old, list) and isinstance(new, list):
        kept = min(len(old), len(new))
        changed_items = []
        for index in range(kept):
            step = diff(old[index], new[index])
            if step is not None:
                changed_items.append([index, step])
        if not changed_items and len(old) == len(new):
            return None
        if kept == len(old) and not changed_items:
            return [APPEND, new[kept:]]
        delta = [LIST, kept, changed_items, new[kept:]]
        return delta if kept - len(changed_items) > len(changed_items) else _smaller(
            delta, new)
    return None if same(old, new) else [WHOLE, new]


def _smaller(delta: Any, new: Any) -> Any:
    whole = [WHOLE, new]
    return delta if _size(delta) < _size(whole) else whole


def nothing(value: Any) -> Any:
    """The delta that changes nothing in ``value``."""
    return {} if isinstance(value, dict) else [WHOLE, value]


def patch(old: Any, delta: Any) -> Any:
    """``old`` changed by ``delta``; a delta that does not fit raises DeltaError."""
    if isinstance(delta, dict):
        return _patch_dict(old, delta, [])
    if not isinstance(delta, list) or not delta or not isinstance(delta[0], str):
        raise DeltaError("a change is not of the form [kind, ...]")
    kind = delta[0]
    if kind == WHOLE and len(delta) == 2:
        return delta[1]
    if kind == REMOVE and len(delta) == 3 and isinstance(delta[1], dict):
        return _patch_dict(old, delta[1], delta[2])
    if kind == APPEND and len(delta) == 2 and isinstance(old, list) and isinstance(
            delta[1], list):
        return old + delta[1]
    if kind == LIST and len(delta) == 4:
        _, kept, changed_items, tail = delta
        if not isinstance(old, list) or type(kept) is not int or not 0 <= kept <= len(
                old) or not isinstance(changed_items, list) or not isinstance(tail, list):
            raise DeltaError("a change of a list does not fit")
        result = old[:kept]
        for item in changed_items:
            if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is int
                    and 0 <= item[0] < kept):
                raise DeltaError("a change of a list names an item that is not there")
            result[item[0]] = patch(result[item[0]], item[1])
        return result + tail
    raise DeltaError(f"a change of an unknown kind or form ({kind[:10]!r})")


def _patch_dict(old: Any, changed: Mapping[str, Any], removed: Any) -> dict[str, Any]:
    if not isinstance(old, dict) or not isinstance(removed, list):
        raise DeltaError("a change of a dict does not fit")
    result = dict(old)
    for key, step in changed.items():
        result[key] = patch(old.get(key, _MISSING), step)
    for key in removed:
        if not isinstance(key, str) or key not in result:
            raise DeltaError("a change removes a key that is not there")
        del result[key]
    return result


def pack(value: Any, level: int = 9) -> bytes:
    """A state or delta as the database keeps it: compact JSON, deflated (raw: a delta
    is often under 200 bytes, and zlib's header and checksum would add 6)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    packer = zlib.compressobj(level, zlib.DEFLATED, -15)
    return packer.compress(text.encode("utf-8")) + packer.flush()


def unpack(data: bytes) -> Any:
    return json.loads(zlib.decompress(data, -15).decode("utf-8"))


KEYFRAME = 256
"""A state is at most this many deltas from a whole one: a state of the log is rebuilt
(for undo, say) from at most 256 small rows, a few milliseconds (bench/storage.py)."""

Base = tuple[int, int, Any]
"""An earlier log entry a state may be kept against: its id, its depth (deltas from a
whole state) and its state."""


def encode(state: Any, base: Base | None,
           first: Callable[[], tuple[int, Any]]) -> tuple[int | None, int, bytes]:
    """How the log keeps ``state``: (the entry it is a delta from or None, its depth,
    the packed whole state or delta). Without a base the state is kept whole; a base
    already ``KEYFRAME - 1`` deltas deep is swapped for ``first()``, the game's first
    (whole) state, so no chain grows longer."""
    if base is None:
        return None, 0, pack(state)
    base_id, depth, base_state = base
    if depth + 1 >= KEYFRAME:
        base_id, base_state = first()
        depth = 0
    delta = diff(base_state, state)
    return base_id, depth + 1, pack(nothing(state) if delta is None else delta)
