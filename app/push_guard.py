"""What the push sender may reach. A subscription's endpoint is a URL a client gives us and
the server then posts to: a request forgery unless proven otherwise.

- ``PushEndpoints.checked``, when a device subscribes (app/routes/push.py answers 422) and
  again before each request (so that a narrowed ``PUSH_SERVICES`` stops stored
  subscriptions too): only ``https``, port 443, a DNS host name (no IP address in any
  spelling, no ``localhost``, no name without a dot), no user name or password, only
  characters a URL may hold, at most 1000 of them, and a host on the allow-list.
- ``is_public``: the addresses the sending process may connect to; its DNS keeps only
  those (``GuardedResolver`` in app/people/push_sender.py), so that the address
  connected to is checked, not the name a check once saw: DNS rebinding cannot pass.
- ``PUSH_TEST_ORIGINS`` (tests only, refused in production) exempts exactly the tests'
  loopback push services from both: plain http, any port, loopback, their self-signed
  certificates unverified.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from yarl import URL

# The push services of the browsers (each browser chooses its own; a site cannot).
BROWSERS_PUSH_SERVICES = (
    "fcm.googleapis.com",  # Chrome and other Chromium browsers (Firebase Cloud Messaging)
    "updates.push.services.mozilla.com",  # Firefox (Mozilla's autopush)
    "*.push.services.mozilla.com",
    "*.notify.windows.com",  # Edge on Windows (WNS: wns2-<region>.notify.windows.com)
    "web.push.apple.com",  # Safari (Apple's push service)
    "*.push.apple.com",
)
LONGEST = 1000  # characters, as PushSubscription.endpoint (app/protocol.py)
NOT_IN_A_URL = re.compile(r"[^A-Za-z0-9\-._~:/?\[\]@!$&'()*+,;=%]")  # nor #: no fragment
LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?")
LAST_LABEL = re.compile(r"[a-z][a-z0-9-]*")  # a top-level domain is never a number
SHARED = ipaddress.ip_network("100.64.0.0/10")  # carrier-grade NAT
NAT64 = ipaddress.ip_network("64:ff9b::/96")


class RefusedEndpoint(ValueError):
    """An endpoint the sender may not post to; the message says why."""


@dataclass(frozen=True)
class PushEndpoints:
    """The rules an endpoint meets: ``services`` the allow-list of host names (``*.`` a
    domain's subdomains), ``test_origins`` the tests' push services (``scheme://host:port``)."""

    services: tuple[str, ...] = BROWSERS_PUSH_SERVICES
    test_origins: frozenset[str] = frozenset()

    def checked(self, endpoint: str) -> URL:
        """The endpoint as the sender posts to it; ``RefusedEndpoint`` saying why not."""
        if len(endpoint) > LONGEST:
            raise RefusedEndpoint(f"endpoint: longer than {LONGEST} characters")
        if odd := NOT_IN_A_URL.search(endpoint):
            raise RefusedEndpoint(f"endpoint: holds {odd[0]!r}, which no push endpoint holds")
        try:
            url = URL(endpoint)
        except ValueError:
            raise RefusedEndpoint("endpoint: not a URL") from None
        if "@" in urlsplit(endpoint).netloc or "@" in (url.raw_authority or ""):
            raise RefusedEndpoint("endpoint: holds a user name or password")
        if self.exempt(url):
            return url
        if url.scheme != "https":
            raise RefusedEndpoint("endpoint: not https")
        host = url.raw_host or ""
        if not is_host_name(host):
            raise RefusedEndpoint(
                "endpoint: not a host name (an IP address, localhost or a name without a dot)"
            )
        if url.explicit_port not in (None, 443):
            raise RefusedEndpoint("endpoint: a port other than 443")
        if not any(matches(host, service) for service in self.services):
            raise RefusedEndpoint("endpoint: not a known push service (PUSH_SERVICES)")
        return url

    def exempt(self, url: URL) -> bool:
        """A test's push service on loopback (PUSH_TEST_ORIGINS)."""
        return bool(self.test_origins) and origin_of(url) in self.test_origins

    def exempt_host(self, host: str, port: int) -> bool:
        """The host and port of a test's push service (for the resolver)."""
        return any((url.raw_host, url.port) == (host, port) for url in map(URL, self.test_origins))


def origin_of(url: URL) -> str:
    """``scheme://host:port``, the port always written."""
    host = url.raw_host or ""
    return f"{url.scheme}://{f'[{host}]' if ':' in host else host}:{url.port}"


def is_host_name(host: str) -> bool:
    """A DNS name of two labels or more whose last starts with a letter: never an IP
    address in any spelling (``2130706433``, ``0x7f.1``, ``127.1``, ``[::1]``), nor
    ``localhost``, nor a name with a trailing dot."""
    labels = host.split(".")
    return (
        len(host) <= 253
        and len(labels) >= 2
        and all(LABEL.fullmatch(label) for label in labels)
        and LAST_LABEL.fullmatch(labels[-1]) is not None
    )


def matches(host: str, service: str) -> bool:
    """``host`` is ``service``, or one of its subdomains for ``*.domain``."""
    return host == service or (service.startswith("*.") and host.endswith(service[1:]))


def checked_push_service(entry: str) -> str:
    """An entry of PUSH_SERVICES, in lower case; ValueError if it is no host name."""
    name = entry.lower()
    if not is_host_name(name.removeprefix("*.")):
        raise ValueError(f"PUSH_SERVICES: {entry!r} is no host name (or *. and one)")
    return name


def checked_test_origin(entry: str) -> str:
    """An entry of PUSH_TEST_ORIGINS as ``origin_of`` writes it; ValueError if it is not
    exactly ``http(s)://host:port``."""
    try:
        url = URL(entry)
        exact = url.explicit_port is not None and origin_of(url) == entry.removesuffix("/")
    except ValueError:
        exact = False
    if not exact or url.scheme not in ("http", "https"):
        raise ValueError(f"PUSH_TEST_ORIGINS: {entry!r} is not http(s)://host:port")
    return entry.removesuffix("/")


# Addresses


def is_public(address: str) -> bool:
    """Whether the sender may connect to ``address``: one on the public internet, not
    loopback, private, link-local, multicast, reserved, unspecified or shared (100.64/10).
    An IPv6 address carrying an IPv4 one (mapped, NAT64, 6to4) is judged by that one."""
    try:
        ip: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and (carried := carried_ipv4(ip)) is not None:
        ip = carried
    return ip.is_global and not (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or ip in SHARED
    )


def carried_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if ip in NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFF_FFFF)
    return ip.ipv4_mapped or ip.sixtofour
