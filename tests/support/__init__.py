"""Helpers of the test suite (none of them is a test): real servers, scripted players,
devices, board files, the non-interference check and the test game ``tally``."""

from pathlib import Path

SUPPORT = Path(__file__).resolve().parent
TEMPLATES = SUPPORT / "templates"
"""The test game's templates: they live with the tests, never in the product."""
