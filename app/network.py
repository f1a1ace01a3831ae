"""Which address friends' phones can reach: join links and QR codes must not say 127.0.0.1."""

from __future__ import annotations

import ipaddress
import socket


def lan_addresses() -> list[str]:
    """This machine's private IPv4 addresses, from its own host name (no packet is sent)."""
    found: list[str] = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    for info in infos:
        address = str(info[4][0])
        ip = ipaddress.ip_address(address)
        if ip.is_private and not ip.is_loopback and not ip.is_link_local and address not in found:
            found.append(address)
    return found


def public_base_url(public_url: str | None, listen_host: str, port: int) -> str:
    """The base of join links: an explicit URL wins; listening on every interface means the LAN address."""
    if public_url:
        return public_url.rstrip("/")
    if listen_host in ("0.0.0.0", "::", ""):
        addresses = lan_addresses()
        host = addresses[0] if addresses else "127.0.0.1"
        return f"http://{host}:{port}"
    return f"http://{listen_host}:{port}"
