"""The test suite (docs/TESTING.md).

Imported before anything else of the suite (conftest.py, the test modules, the servers the
tests start): the suite writes each module's bytecode once, whatever PYTHONDONTWRITEBYTECODE
says. Each xdist worker, and each of the dozens of servers the browser and crash tests
start, compiled the whole app (and each worker every test module) again: 4-5 s of CPU per
worker at collection, a fifth of a second per server (docs/PERFORMANCE.md, "The test
suite"). Python writes a module's cache atomically, so the workers may race. The caches
land in __pycache__ folders that git ignores."""

import os
import sys

sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
