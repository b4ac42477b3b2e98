"""Where the server can be reached: the addresses of this machine's interfaces and its host name, found locally.

Nothing here sends a packet. The interfaces' addresses are read from the kernel: on Linux, each interface's
IPv4 address by the ``SIOCGIFADDR`` ioctl over ``socket.if_nameindex()`` (interfaces that are up) and the IPv6 ones from
``/proc/net/if_inet6``. Elsewhere (and to rank them on Linux), the address of the default route is asked of the
kernel by ``connect()`` on a UDP socket to a documentation address (RFC 5737/3849): a UDP connect only picks a
route and a source address, and sends nothing. Resolving the host name (``getaddrinfo(gethostname())``) is not
used: on Debian it answers 127.0.1.1 from /etc/hosts, and elsewhere it may ask a DNS or mDNS server.

``reachable(host, port)`` turns the host ``serve`` listens on into the URLs a phone in the room can open: for
0.0.0.0 every IPv4 address (the default route's first, virtual bridges last), for :: the IPv6 ones too, for one
address that address; loopback and link-local addresses never. Standard library only (settings.py's rule).
"""

from __future__ import annotations

import ipaddress
import socket
import struct
import sys
from collections.abc import Collection
from dataclasses import dataclass

IP = ipaddress.IPv4Address | ipaddress.IPv6Address

SIOCGIFFLAGS, SIOCGIFADDR, IFF_UP = 0x8913, 0x8915, 0x1  # Linux: an interface's flags, its IPv4 address; up
ROUTE_PROBES = {socket.AF_INET: "203.0.113.1", socket.AF_INET6: "2001:db8::1"}  # documentation addresses
WILDCARDS = {"", "0.0.0.0", "::", "[::]"}
# Interfaces of containers and virtual machines: listed last (a phone in the room is never on them).
VIRTUAL = ("docker", "br-", "veth", "virbr", "lxc", "cni", "flannel", "podman", "vmnet", "vboxnet", "ifb")
# How to serve for a room: the CLI and the Present dialog say it in these words (README.md too).
SERVE_FOR_A_ROOM = ("To serve for a room, stop the server and start it again with `make present` (or "
                    "`inflight-scope serve --host 0.0.0.0`): it prints the addresses phones can open.")
NO_NETWORK = ("The server listens on every address, but this computer has none but loopback (no network): join "
              "the room's network (its Wi-Fi), then open Present… again.")


@dataclass(frozen=True)
class Reach:
    """The URLs the server can be opened at from another machine (best first; none: loopback only), and the
    host it listens on."""

    urls: tuple[str, ...]
    host: str

    @property
    def loopback_only(self) -> bool:
        return not self.urls


def split_listen(listen: str) -> tuple[str, int] | None:
    """``host:port`` (``[v6]:port``) as ``serve`` writes the LISTEN setting, or None if it is not one."""
    host, colon, port = listen.rpartition(":")
    if not colon or not port.isdigit() or not 0 < int(port) < 65536:
        return None
    return host.removeprefix("[").removesuffix("]"), int(port)


def reachable(host: str, port: int) -> Reach:
    """The URLs of ``http://…:port/`` that another machine can open while the server listens on ``host``."""
    if host in WILDCARDS:
        families = (socket.AF_INET, socket.AF_INET6) if ":" in host else (socket.AF_INET,)
        hosts = [literal(ip) for ip in interface_addresses(families)]
        name = host_url_name()
        if hosts and name:
            hosts.append(name)  # last: a phone finds it only where the network resolves it (mDNS, DNS)
    else:
        ip = _ip(host)
        hosts = [literal(ip)] if ip is not None and usable(ip) else []
        if not hosts and _ip(host) is None and any(usable(ip) for ip in resolved(host)):
            hosts = [host]
    return Reach(tuple(f"http://{h}:{port}" for h in hosts), host)


def interface_addresses(families: Collection[socket.AddressFamily] = (socket.AF_INET,)) -> list[IP]:
    """This machine's usable addresses (``ipaddress`` objects) of the given families, best first: the one of the
    default route, then by interface in the kernel's order, virtual bridges last."""
    found: list[tuple[str, IP]] = []
    if sys.platform.startswith("linux"):
        if socket.AF_INET in families:
            found += _linux_ipv4()
        if socket.AF_INET6 in families:
            found += _linux_ipv6()
    preferred = [route_address(family) for family in families]
    for ip in preferred:
        if ip is not None and all(ip != other for _, other in found):
            found.append(("", ip))
    found = [(name, ip) for name, ip in found if usable(ip)]
    ranked = sorted(found, key=lambda item: (item[1] not in preferred, item[0].startswith(VIRTUAL),
                                             item[1].version != 4))
    return list(dict.fromkeys(ip for _, ip in ranked))


def usable(ip: IP) -> bool:
    """An address another machine can open a page at: not loopback, link-local, unspecified or multicast."""
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def literal(ip: IP | str) -> str:
    """An address as a URL writes it (IPv6 in brackets)."""
    text = str(ip)
    return f"[{text}]" if ":" in text else text


def route_address(family: socket.AddressFamily) -> IP | None:
    """The source address of this machine's default route for ``family``, or None (no such route). ``connect()``
    on a UDP socket sends nothing: it chooses the route and the source address."""
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.connect((ROUTE_PROBES[family], 9))
            return _ip(probe.getsockname()[0])
    except OSError:
        return None


def own_names() -> set[str]:
    """The names this machine calls itself (lower case), as a browser in the room may write them in Host: its
    host name, its first label, and that label under .local (mDNS)."""
    name = socket.gethostname().lower().rstrip(".")
    if not name or _ip(name) is not None:
        return set()
    label = name.split(".")[0]
    return {name, label, f"{label}.local"}


def host_url_name() -> str | None:
    """The machine's name as a URL in the room would carry it: the host name if it has a domain, else under
    .local (mDNS); None without a usable one ("localhost")."""
    name = socket.gethostname().lower().rstrip(".")
    if not name or name == "localhost" or _ip(name) is not None or not all(c.isalnum() or c in "-." for c in name):
        return None
    return name if "." in name else f"{name}.local"


def resolved(host: str) -> list[IP]:
    """The addresses ``host`` names (what the server binds when given a name); none if it does not resolve."""
    try:
        found = [_ip(str(info[4][0]).split("%")[0]) for info in socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)]
        return [ip for ip in found if ip is not None]
    except (OSError, UnicodeError):
        return []


def _linux_ipv4() -> list[tuple[str, IP]]:
    import fcntl  # Unix only: imported where it is used

    found: list[tuple[str, IP]] = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                flags = struct.unpack("H", fcntl.ioctl(s.fileno(), SIOCGIFFLAGS, request)[16:18])[0]
                answer = fcntl.ioctl(s.fileno(), SIOCGIFADDR, request)
            except OSError:  # no IPv4 address on it
                continue
            if not flags & IFF_UP:  # an address on an interface that is down: no phone reaches it
                continue
            found.append((name, ipaddress.ip_address(answer[20:24])))
    return found


def _linux_ipv6() -> list[tuple[str, IP]]:
    """``/proc/net/if_inet6``: one line per address, ``hex index prefix scope flags name``."""
    try:
        with open("/proc/net/if_inet6", encoding="ascii") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    found: list[tuple[str, IP]] = []
    for line in lines:
        parts = line.split()
        if len(parts) == 6 and len(parts[0]) == 32:
            found.append((parts[5], ipaddress.IPv6Address(bytes.fromhex(parts[0]))))
    return found


def _ip(text: str) -> IP | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None
