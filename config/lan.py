"""The address the phones in the room reach this machine at (``LAN=1``, ``make run-lan``).

Found by reading the machine's network interfaces with psutil (the addresses each one holds,
whether it is up and has a link): no packet is sent anywhere. The candidates are IPv4
addresses that are neither loopback nor link-local (169.254.x.x, what a machine gives itself
when no network answered) on an interface that is up; an interface that is up but has no link
(a Wi-Fi that joined nothing, an empty Docker bridge) comes last, and so do virtual interfaces
(Docker, VirtualBox, VMware, VPNs) and addresses outside the private ranges. ``PUBLIC_URL``
overrides the choice (README, "Phones in the room").
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass

import psutil

# Interfaces a phone on the room's Wi-Fi cannot reach: containers, virtual machines, VPNs.
VIRTUAL_PREFIXES = (
    "docker",
    "br-",
    "veth",
    "virbr",
    "vboxnet",
    "vmnet",
    "lxc",
    "lxd",
    "podman",
    "cni",
    "flannel",
    "tailscale",
    "zt",
    "wg",
    "tun",
    "tap",
    "utun",
    "ifb",
)


@dataclass(frozen=True)
class LanAddress:
    interface: str
    address: str
    linked: bool  # up with a link (RUNNING): something is plugged in or joined
    virtual: bool

    def url(self, port: int) -> str:
        return f"http://{self.address}:{port}"


@dataclass(frozen=True)
class Interface:
    """What psutil says of one interface: its IPv4 addresses, up or not, and its flags
    (``running`` when it has a link; psutil gives no flags on Windows)."""

    name: str
    addresses: tuple[str, ...]
    up: bool
    flags: frozenset[str]


def lan_candidates(interfaces: Iterable[Interface]) -> list[LanAddress]:
    """The addresses phones may reach, best first (pure: the choice, tested on its own)."""
    found: list[tuple[tuple[bool, bool, bool], int, LanAddress]] = []
    for interface in interfaces:
        if not interface.up or "loopback" in interface.flags:
            continue
        linked = "running" in interface.flags or not interface.flags
        virtual = interface.name.lower().startswith(VIRTUAL_PREFIXES)
        for text in interface.addresses:
            address = ipaddress.IPv4Address(text)
            if address.is_loopback or address.is_link_local or address.is_unspecified:
                continue
            candidate = LanAddress(interface.name, text, linked, virtual)
            rank = (not linked, virtual, not address.is_private)
            found.append((rank, len(found), candidate))
    return [candidate for _, _, candidate in sorted(found, key=lambda item: item[:2])]


def machine_interfaces() -> list[Interface]:
    """This machine's interfaces as psutil reads them."""
    stats = psutil.net_if_stats()
    interfaces = []
    for name, addresses in psutil.net_if_addrs().items():
        stat = stats.get(name)
        interfaces.append(
            Interface(
                name=name,
                addresses=tuple(a.address for a in addresses if a.family == socket.AF_INET),
                up=stat.isup if stat is not None else False,
                flags=frozenset(f for f in (stat.flags if stat else "").split(",") if f),
            )
        )
    return interfaces


def lan_addresses() -> list[LanAddress]:
    """This machine's addresses that phones may reach, best first (may be empty)."""
    return lan_candidates(machine_interfaces())
