"""Hostile files for the imports (a table's, a tournament's): random JSON, one random
change somewhere in a real export, and every row of the database to see that a refused
file changed nothing."""

from __future__ import annotations

import io
import sqlite3
from typing import Any

from hypothesis import strategies as st

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner,
                                                                max_size=4), max_leaves=30)
ODD_VALUES = [2**70, -1, 0, 1, "", "{0}", "ABCD", [], {}, None, True, "seat:9", "start", "act"]
"""Values a file may hold where it should not: past any limit, empty, a template."""


def mutate(value: Any, data: st.DataObject, depth: int = 0, odd: list[Any] = ODD_VALUES
           ) -> Any:
    """One random change somewhere in ``value``."""
    if isinstance(value, dict) and value and depth < 6 and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(value)))
        return {**value, key: mutate(value[key], data, depth + 1, odd)}
    if isinstance(value, list) and value and depth < 6 and data.draw(st.booleans()):
        index = data.draw(st.integers(0, len(value) - 1))
        return [*value[:index], mutate(value[index], data, depth + 1, odd),
                *value[index + 1:]]
    return data.draw(json_values | st.sampled_from(odd))


def rows(database: str) -> list:
    """Every row of every table of the database (to see that nothing changed)."""
    conn = sqlite3.connect(database)
    try:
        names = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite%'")]
        return [(name, sorted(map(repr, conn.execute(f"SELECT * FROM {name}"))))
                for name in names]
    finally:
        conn.close()


def upload(device: Any, url: str, raw: bytes) -> Any:
    """``raw`` sent as the file of an import form."""
    return device.post(url, {"file": (io.BytesIO(raw), "t.json")},
                       content_type="multipart/form-data")
