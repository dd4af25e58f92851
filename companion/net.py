"""Where phones can reach this laptop, whether a request came from the laptop itself,
and QR codes for those addresses."""

from __future__ import annotations

import functools
import ipaddress
import re
import socket

import ifaddr
import qrcode
import qrcode.image.svg

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def lan_addresses() -> list[str]:
    """IPv4 addresses phones on the same network may use, best first.

    The UDP probe asks the OS which address it would route from (no packet
    is sent by a UDP connect); ifaddr then adds every other interface.
    """
    found: list[str] = []
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))
        found.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                found.append(ip.ip)
    usable = []
    for address in found:
        parsed = ipaddress.ip_address(address)
        if parsed.is_loopback or parsed.is_link_local or parsed.is_unspecified:
            continue
        if address not in usable:
            usable.append(address)
    # Private LAN addresses are what phones on the same Wi-Fi can reach.
    usable.sort(key=lambda address: not ipaddress.ip_address(address).is_private)
    return usable


def own_addresses() -> set[IPAddress]:
    """Every address of this laptop's network interfaces, read afresh each time (the
    Wi-Fi may have changed since the start; reading them takes about a millisecond)."""
    found: set[IPAddress] = set()
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            text = ip.ip if isinstance(ip.ip, str) else ip.ip[0]
            parsed = _parse_address(text)
            if parsed is not None:
                found.add(parsed)
    return found


def is_this_laptop(address: str | None) -> bool:
    """Whether a request came from the laptop the server runs on: a loopback address,
    or one of the laptop's own addresses (its browser may open the LAN address)."""
    parsed = _parse_address(address or "")
    return parsed is not None and (parsed.is_loopback or parsed in own_addresses())


def _parse_address(text: str) -> IPAddress | None:
    try:
        parsed = ipaddress.ip_address(text.split("%", 1)[0])  # an IPv6 zone: fe80::1%eth0
    except ValueError:
        return None
    mapped = getattr(parsed, "ipv4_mapped", None)  # ::ffff:127.0.0.1 is 127.0.0.1
    return mapped or parsed


def base_urls(host: str, port: int, public_url: str | None) -> list[str]:
    """Every base URL phones may use, best first."""
    if public_url:
        return [public_url.rstrip("/")]
    if host not in ("0.0.0.0", "", "::"):
        return [f"http://{host}:{port}"]
    urls = [f"http://{address}:{port}" for address in lan_addresses()]
    return urls or [f"http://127.0.0.1:{port}"]


def qr_svg(data: str) -> str:
    """An inline SVG QR code (no Pillow), styled by the stylesheet. Drawing one takes
    ~20 ms of pure Python: public addresses use the cached ``public_qr_svg``."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, border=2,
                        error_correction=qrcode.constants.ERROR_CORRECT_M)
    svg = image.to_string(encoding="unicode")
    # The stylesheet sizes the code; a white back keeps it readable on the dark theme.
    svg = re.sub(r'<svg width="[^"]*" height="[^"]*"', '<svg class="qr" role="img"', svg, count=1)
    return svg.replace('<path d=', '<rect width="100%" height="100%" fill="#fff"/><path d=', 1)


def qr_ascii(data: str) -> str:
    """A QR code drawn with block characters for the terminal."""
    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(data)
    code.make(fit=True)
    matrix = code.get_matrix()
    lines = []
    # Two matrix rows per text line with half blocks keep the code square.
    for top in range(0, len(matrix), 2):
        upper = matrix[top]
        lower = matrix[top + 1] if top + 1 < len(matrix) else [False] * len(upper)
        line = ""
        for up, down in zip(upper, lower, strict=True):
            line += {(True, True): " ", (True, False): "▄", (False, True): "▀",
                     (False, False): "█"}[(up, down)]
        lines.append(line)
    return "\n".join(lines)


public_qr_svg = functools.lru_cache(maxsize=128)(qr_svg)
"""``qr_svg`` kept per address, for public addresses only (join links, the leaderboard):
every refresh of a table screen shows the same join code (bench/clubnight.py measured
its drawing as most of the screen's render time). A private link is never cached."""
