"""Every CSV the app writes: one cell writer, so no export hands a spreadsheet a formula.

A player may join as ``=HYPERLINK("http://x.io","a")``; a club secretary opening the
export must see that name, not a live link or a formula run on their computer.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

from flask import Response

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (a player called "=1+2")."""


def spreadsheet_text(cell: Any) -> Any:
    """A text cell a spreadsheet shows as typed: one that could start a formula gets a
    leading apostrophe, which spreadsheets read as "this is text". Numbers stay numbers."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def csv_response(rows: Iterable[Iterable[Any]], filename: str) -> Response:
    """``rows`` as a CSV download called ``filename``, every cell through
    ``spreadsheet_text``."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(
        [spreadsheet_text(cell) for cell in row] for row in rows)
    return Response(out.getvalue(), mimetype="text/csv", headers={
        "Content-Disposition": f"attachment; filename={filename}"})
