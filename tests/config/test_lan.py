"""The address phones reach (``config.lan``): chosen from the interfaces as they are, and on
this machine the same as ``ip`` reports, read without sending a packet."""

from __future__ import annotations

import ipaddress
import json
import shutil
import subprocess

import pytest

from config.lan import Interface, lan_addresses, lan_candidates
from tests.config.embedded import python_run
from tests.config.settings_probe import settings_chosen, settings_probe
from web.management.phones import phones_lines


def interface(name, *addresses, up=True, flags="up,broadcast,running,multicast"):
    return Interface(name, tuple(addresses), up, frozenset(flags.split(",")) - {""})


def test_it_offers_the_room_s_network_and_never_loopback_link_local_or_a_down_interface():
    found = lan_candidates(
        [
            interface("lo", "127.0.0.1", flags="up,loopback,running"),
            interface("eth0", "169.254.3.4"),
            interface("wlan1", "10.1.1.1", up=False, flags="broadcast"),
            interface("wlan0", "192.168.1.20"),
        ]
    )
    assert [(a.interface, a.address) for a in found] == [("wlan0", "192.168.1.20")]
    assert found[0].url(8001) == "http://192.168.1.20:8001"


def test_a_linked_physical_private_interface_comes_before_virtual_unlinked_or_public_ones():
    found = lan_candidates(
        [
            interface("docker0", "172.17.0.1"),
            interface("eth0", "192.168.0.5", flags="up,broadcast,multicast"),  # no cable
            interface("tun0", "10.8.0.2", flags="up,pointopoint,running"),
            interface("enp3s0", "81.56.10.7"),
            interface("wlp2s0", "192.168.1.20"),
        ]
    )
    assert [a.interface for a in found] == ["wlp2s0", "enp3s0", "docker0", "tun0", "eth0"]


def test_with_no_flags_as_on_windows_an_up_interface_counts_as_linked():
    found = lan_candidates([interface("Wi-Fi", "192.168.1.20", flags="")])
    assert found[0].linked and not found[0].virtual


def test_it_finds_what_ip_reports_on_this_machine():
    ip = shutil.which("ip")
    if ip is None:
        pytest.skip("no `ip` command to compare with")
    reported = set()
    for link in json.loads(subprocess.run([ip, "-j", "addr"], capture_output=True).stdout):
        for info in link.get("addr_info", []):
            if info["family"] == "inet" and "UP" in link["flags"]:
                reported.add((link["ifname"], ipaddress.IPv4Address(info["local"])))
    assert {(a.interface, a.address) for a in lan_addresses()} == {
        (name, str(address))
        for name, address in reported
        if not (address.is_loopback or address.is_link_local)
    }


def test_lan_1_makes_the_phones_address_public_and_allowed(tmp_path):
    found = lan_addresses()
    if not found:
        pytest.skip("this machine has no network interface with an IPv4 address")
    chosen = settings_chosen({"LAN": "1", "PORT": "8123"}, tmp_path)
    assert chosen["PUBLIC_URL"] == f"http://{found[0].address}:8123"
    assert found[0].address in chosen["ALLOWED_HOSTS"]
    assert "127.0.0.1" in chosen["ALLOWED_HOSTS"]
    assert chosen["CSRF_TRUSTED_ORIGINS"] == [f"http://{found[0].address}:8123"]


def test_public_url_wins_over_the_address_found(tmp_path):
    chosen = settings_chosen(
        {"LAN": "1", "PUBLIC_URL": "http://10.0.0.9:9000", "ALLOWED_HOSTS": "a.org"}, tmp_path
    )
    assert chosen["PUBLIC_URL"] == "http://10.0.0.9:9000"
    assert chosen["ALLOWED_HOSTS"] == ["a.org", "10.0.0.9"]


def test_a_bad_lan_value_names_the_variable(tmp_path):
    result = settings_probe({"LAN": "wifi"}, tmp_path)
    assert result.returncode == 1
    assert result.stderr.startswith("Configuration error: LAN='wifi' is not valid")


def test_the_terminal_shows_the_address_its_qr_code_and_the_other_addresses():
    found = [("wlan0", "192.168.1.20"), ("eth1", "10.0.0.3")]
    lines = phones_lines("http://192.168.1.20:8000", 8000, found)
    text = "\n".join(lines)
    assert "Phones in the room open:  http://192.168.1.20:8000/" in text
    assert "TCP port 8000" in text
    assert "PUBLIC_URL=http://10.0.0.3:8000 make run-lan   (eth1)" in text
    assert "PUBLIC_URL=http://192.168.1.20:8000 make" not in text
    qr_rows = [line for line in lines if "█" in line]
    assert len(qr_rows) >= 12  # a version 2 code, two rows of modules a line
    assert len({len(row) for row in qr_rows}) == 1  # square: every row as wide


def test_with_no_network_at_all_lan_1_stops_with_one_line_saying_what_to_do(tmp_path):
    """In a network namespace of its own (``unshare -n``: loopback only, and down)."""
    unshare = shutil.which("unshare")
    if unshare is None or subprocess.run([unshare, "-n", "true"]).returncode != 0:
        pytest.skip("cannot make a network namespace here (unshare -n needs root)")
    env = {"LAN": "1", "VAR_DIR": str(tmp_path)}
    result = python_run("manage.py", "check", env=env, prefix=(unshare, "-n"))
    assert result.returncode == 1
    assert result.stderr == (
        "Configuration error: LAN=1 but no network interface of this machine has an IPv4 "
        "address: join the room's Wi-Fi (or plug in its cable), or set "
        "PUBLIC_URL=http://ADDRESS:PORT\n"
    )
