"""Whom the server believes about a client's address and scheme (`FORWARDED_ALLOW_IPS`).

uvicorn replaces a connection's peer address and scheme by the values of the
`X-Forwarded-For` and `X-Forwarded-Proto` headers only when the peer is one of these
trusted addresses: a reverse proxy. Anyone else could fake their address (and so slip
past limits kept per address) or claim https.

The setting is a comma-separated list of IP addresses and networks. `local-networks` stands
for the networks this machine is directly attached to, read from the kernel's routing
table when the server starts: inside a container that is the Compose network, from whose
gateway address a reverse proxy on the host connects through the published port.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path

LOCAL_NETWORKS = "local-networks"
ANYONE = "*"

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

_RTF_UP = 0x0001
_RTF_GATEWAY = 0x0002
_RTF_LOCAL = 0x80000000  # IPv6: a route to one of this machine's own addresses
_ROUTES_V4 = Path("/proc/net/route")
_ROUTES_V6 = Path("/proc/net/ipv6_route")


def parse(value: str) -> list[str]:
    """The entries of a FORWARDED_ALLOW_IPS value; ValueError names the first bad one.

    uvicorn itself takes a misspelt entry for a name that never matches; here it stops the
    start instead.
    """
    entries = [entry.strip() for entry in value.split(",") if entry.strip()]
    for entry in entries:
        if entry in (ANYONE, LOCAL_NETWORKS):
            continue
        try:
            ipaddress.ip_network(entry, strict=False)
        except ValueError:
            raise ValueError(
                f"{entry!r} is neither an IP address, a network such as 10.0.0.0/8, "
                f"{LOCAL_NETWORKS} nor {ANYONE}"
            ) from None
    if ANYONE in entries and len(entries) > 1:
        raise ValueError(f"{ANYONE} (trust everyone) stands alone")
    return entries


def resolve(value: str, routes_v4: Path = _ROUTES_V4, routes_v6: Path = _ROUTES_V6) -> list[str]:
    """What uvicorn's `forwarded_allow_ips` gets: addresses and networks in canonical form,
    `local-networks` replaced by the networks of the routing table."""
    trusted: list[str] = []
    for entry in parse(value):
        if entry == ANYONE:
            trusted.append(entry)
        elif entry == LOCAL_NETWORKS:
            trusted.extend(str(network) for network in attached_networks(routes_v4, routes_v6))
        elif "/" in entry:
            # uvicorn reads "10.0.0.1/8" (host bits set) as a name that never matches.
            trusted.append(str(ipaddress.ip_network(entry, strict=False)))
        else:
            trusted.append(str(ipaddress.ip_address(entry)))
    return list(dict.fromkeys(trusted))


def attached_networks(
    routes_v4: Path = _ROUTES_V4, routes_v6: Path = _ROUTES_V6
) -> list[IPNetwork]:
    """The networks of this machine's interfaces other than loopback: the routes that lead
    straight to an interface (no gateway). Link-local, multicast and the routes to this
    machine's own addresses are left out."""
    networks: list[IPNetwork] = []
    for line in _lines(routes_v4)[1:]:  # the first line names the columns
        fields = line.split()
        if len(fields) < 8 or fields[0] == "lo":
            continue
        flags = int(fields[3], 16)
        destination = ipaddress.IPv4Address(bytes.fromhex(fields[1])[::-1])
        mask = ipaddress.IPv4Address(bytes.fromhex(fields[7])[::-1])
        if flags & _RTF_UP and not flags & _RTF_GATEWAY and int(mask):
            networks.append(ipaddress.IPv4Network(f"{destination}/{mask}", strict=False))
    for line in _lines(routes_v6):
        fields = line.split()
        if len(fields) < 10 or fields[9] == "lo":
            continue
        prefix_length = int(fields[1], 16)
        flags = int(fields[8], 16)
        network = ipaddress.IPv6Network(
            (ipaddress.IPv6Address(bytes.fromhex(fields[0])), prefix_length), strict=False
        )
        if (
            prefix_length
            and int(fields[4], 16) == 0  # no next hop
            and flags & _RTF_UP
            and not flags & (_RTF_GATEWAY | _RTF_LOCAL)
            and not (network.is_link_local or network.is_multicast)
        ):
            networks.append(network)
    return list(dict.fromkeys(networks))


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text().splitlines()
    except OSError:  # not Linux, or no IPv6 in this network namespace
        return []
