"""The registry of games: every rules module in this package that names itself.

A game is found by its module: any module here (other than ``base``) with a
``NAME`` is registered, so adding a game needs no edit elsewhere. A game that needs
several modules is a package that is the game itself (its ``__init__`` gives the
protocol, as ``london1888/``, ``mrjack/`` and ``wo_ist_jack/`` do), or whose ``rules``
module is (``whitechapel/rules.py`` beside its board, deduction and map drawing).
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType

from companion.games.base import Game


def discover() -> dict[str, Game]:
    """All games of this package, by NAME, in title order."""
    found: dict[str, ModuleType] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name == "base" or info.name.startswith("_"):
            continue
        name = f"{__name__}.{info.name}"
        module = importlib.import_module(name)
        if info.ispkg and not hasattr(module, "NAME"):
            module = importlib.import_module(f"{name}.rules")
        if hasattr(module, "NAME"):
            found[module.NAME] = module
    return dict(sorted(found.items(), key=lambda item: item[1].TITLE))  # type: ignore[return-value]
