"""What one device may take of the server (companion/server/limits.py): an address
stands for as many phones as hold live pages there, up to its option, and the laptop at
any of its addresses is never limited."""

from __future__ import annotations

import ipaddress

from companion.server import limits


def test_an_address_gets_a_share_for_each_phone_it_holds_up_to_its_option():
    phones = {"10.0.0.1": 30, "10.0.0.2": 0, "10.0.0.3": 500}
    shares = limits.DeviceLimits(32, lambda address: phones.get(address, 0))
    assert [shares.share(address) for address in phones] == [30, 1, 32]
    for _ in range(limits.PER_ADDRESS):
        shares.connect("10.0.0.2")
    assert shares.over("10.0.0.2")  # one phone: its 48 connections
    for _ in range(limits.PER_ADDRESS):
        shares.connect("10.0.0.1")
    assert not shares.over("10.0.0.1")  # thirty phones behind it
    # Paced at thirty phones' rate: thirty phones' bursts go unpaced, one phone's one.
    burst = int(limits.BURST)
    unpaced = [sum(shares.pace(address) == 0 for _ in range(burst * 40))
               for address in ("10.0.0.1", "10.0.0.2")]
    assert unpaced[0] >= burst * 30 and burst <= unpaced[1] < burst * 2
    assert limits.streams_per_address(32) == limits.PER_ADDRESS
    assert limits.streams_per_address(100) == 116


def test_the_laptop_at_any_of_its_addresses_is_never_limited(monkeypatch):
    wifi = {ipaddress.ip_address("192.168.1.20")}
    monkeypatch.setattr(limits, "own_addresses", lambda: wifi)
    shares = limits.DeviceLimits(1)
    for address in ("127.0.0.1", "::1", "192.168.1.20", "::ffff:192.168.1.20"):
        for _ in range(limits.PER_ADDRESS * 2):
            shares.connect(address)
        assert not shares.over(address)
        assert all(shares.pace(address) == 0 for _ in range(int(limits.BURST) * 3))
    # A phone on 127.0.0.2 (as the room benchmarks make them) is a phone.
    for _ in range(limits.PER_ADDRESS):
        shares.connect("127.0.0.2")
    assert shares.over("127.0.0.2")
    # The Wi-Fi changed: read again at the next upkeep past the refresh.
    wifi.clear()
    wifi.add(ipaddress.ip_address("10.1.1.5"))
    shares.laptop_read -= limits.DeviceLimits.LAPTOP_REFRESH + 1
    shares.upkeep()
    assert "10.1.1.5" in shares.laptop and "192.168.1.20" not in shares.laptop
