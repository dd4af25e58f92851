"""London 1888 tournaments: several tables at once, seating, points and standings.

- ``logic``: pure (no Flask, no SQL): table sizes, seating, typed results, standings.
- ``storage``: the tournament's rows in SQLite; anything about a round's tables and
  their logs goes through ``companion.tables``.
"""
