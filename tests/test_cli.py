"""`companion serve`, `export` and `import` from the terminal, as a user runs them."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from companion import cli
from tests.support.realserver import ROOT, free_port

pytestmark = pytest.mark.slow


def run(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def test_serve_prints_addresses_and_a_qr_code_then_serves(tmp_path):
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--port", str(port), "--db",
         str(tmp_path / "c.sqlite"), "--no-browser", "--phones-per-address", "60"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            lines.append(line)
            if line.startswith("Lobby:"):
                break
        output = "".join(lines)
        assert "Phones on the same Wi-Fi can open:" in output
        assert f":{port}/" in output
        assert "█" in output  # the QR code
        page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read().decode()
        assert "Join a table" in page
    finally:
        process.terminate()
        process.wait(10)


def test_port_in_use_is_a_clear_message(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("serve", "--host", "127.0.0.1", "--port", str(port), "--db",
                     str(tmp_path / "c.sqlite"), "--no-browser")
    assert result.returncode == 2
    assert f"port {port} is already in use" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("make", ["garbage", "directory"])
def test_unreadable_database_is_a_clear_message(tmp_path, make):
    path = tmp_path / "broken.sqlite"
    if make == "garbage":
        path.write_bytes(b"this is not a database at all" * 100)
    else:
        path.mkdir()
    result = run("serve", "--port", str(free_port()), "--db", str(path), "--no-browser")
    assert result.returncode == 2
    assert "cannot use the database" in result.stderr
    assert "Traceback" not in result.stderr


def test_export_and_import_from_the_terminal(tmp_path, app):
    from tests.support.webflow import seated_table

    laptop, (ann, bob) = seated_table(app, "tally", ["Ann", "Bob"])
    ann.act("add", amount=2)
    db = app.config["DATABASE"]
    out = tmp_path / "t.json"
    assert cli.main(["export", laptop.code, "--db", db, "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    assert data["format"] == "companion-table/2"
    assert data["log"][-1][7] == {"log": ["+", ["Ann added 2"]], "total": ["=", 2],
                                  "turn": ["=", 1]}
    other_db = str(tmp_path / "other.sqlite")
    assert cli.main(["import", str(out), "--db", other_db]) == 2  # tally is a test game
    assert cli.main(["export", "ZZZZ", "--db", db]) == 1
    assert cli.main(["import", str(tmp_path / "missing.json"), "--db", db]) == 1


def test_python_dash_m_companion_help():
    result = run("--help")
    assert result.returncode == 0 and "serve" in result.stdout
