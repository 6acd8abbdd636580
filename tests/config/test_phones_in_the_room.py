"""Phones in the room: ``LAN=1`` (``make run-lan``) listens on every interface, prints the
address phones open with its QR code, answers to that address, and the players' QR codes carry
it, whatever address the director's own browser used."""

from __future__ import annotations

import http.client
import io
import sqlite3

import psutil
import pytest
import segno
from django.test import Client

from config.lan import lan_addresses
from tests.config.embedded import director_session, lan_password, python_run, run_embedded
from tests.factories import PlayerFactory
from tournament.models import Event


def _qr_sheet_svg(url: str, name: str) -> str:
    """The sheet's QR code of a player whose join link is ``url`` (web/play/views.py)."""
    return segno.make(url, error="m").svg_inline(scale=4, omitsize=True, title=f"QR code of {name}")


@pytest.mark.django_db
def test_the_qr_sheet_carries_public_url_not_the_directors_host(
    settings, client_for, director, event: Event
) -> None:
    ann = PlayerFactory(event=event, name="Ann", table=4)
    settings.PUBLIC_URL = "http://192.168.1.20:8000"
    sheet = client_for(director).get(f"/events/{event.slug}/qr/").content.decode()
    assert _qr_sheet_svg(f"http://192.168.1.20:8000/play/{ann.token}/", "Ann") in sheet
    assert _qr_sheet_svg(f"http://testserver/play/{ann.token}/", "Ann") not in sheet
    one = client_for(director).get(f"/events/{event.slug}/players/{ann.pk}/qr/").content.decode()
    wanted = segno.make(f"http://192.168.1.20:8000/play/{ann.token}/", error="m")
    assert wanted.svg_inline(scale=10, omitsize=True, title="QR code of Ann") in one


@pytest.mark.django_db
def test_without_public_url_the_qr_code_carries_the_host_the_browser_used(
    settings, director, event: Event
) -> None:
    ann = PlayerFactory(event=event, name="Ann", table=4)
    settings.PUBLIC_URL = None
    browser = Client(HTTP_HOST="scrabble.example.org")
    browser.force_login(director)
    settings.ALLOWED_HOSTS = ["scrabble.example.org"]
    sheet = browser.get(f"/events/{event.slug}/qr/").content.decode()
    assert _qr_sheet_svg(f"http://scrabble.example.org/play/{ann.token}/", "Ann") in sheet


def _get(port: int, path: str, host: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers={"Host": host})
        return connection.getresponse().status
    finally:
        connection.close()


def test_make_run_lan_serves_the_phones_at_the_machines_address(tmp_path) -> None:
    found = lan_addresses()
    if not found:
        pytest.skip("this machine has no network interface with an IPv4 address")
    lan = found[0].address
    with run_embedded(tmp_path, {"LAN": "1"}, "--no-worker") as server:
        phones = f"http://{lan}:{server.port}/"
        output = server.output()
        assert f"Phones in the room open:  {phones}" in output
        terminal_qr = "\n".join(
            line[2:] for line in output.splitlines() if "█" in line or "▀" in line
        )
        drawn = segno.make(phones, error="m")
        assert terminal_qr == "\n".join(_terminal(drawn).splitlines()), "the QR code of it"
        listening = {
            (c.laddr.ip, c.laddr.port)
            for c in psutil.net_connections(kind="tcp4")
            if c.status == psutil.CONN_LISTEN
        }
        assert ("0.0.0.0", server.port) in listening
        assert _get(server.port, "/accounts/login/", f"{lan}:{server.port}") == 200
        assert _get(server.port, "/accounts/login/", f"127.0.0.1:{server.port}") == 200
        assert _get(server.port, "/accounts/login/", f"10.255.0.1:{server.port}") == 400

        # The director's browser is on this machine (127.0.0.1); the codes carry the LAN address.
        with sqlite3.connect(tmp_path / "db.sqlite3") as db:
            players = db.execute("SELECT name, token FROM tournament_player").fetchall()
            [slug] = db.execute("SELECT slug FROM tournament_event").fetchone()
        session = director_session(server.port, lan_password(output))
        sheet = session.open(f"{server.base}/events/{slug}/qr/").read()
        html = sheet.decode()
        assert len(players) == 12
        for name, token in players:
            assert _qr_sheet_svg(f"{phones}play/{token}/", name) in html, name
            assert _qr_sheet_svg(f"{server.base}/play/{token}/", name) not in html


def _terminal(qr: segno.QRCode) -> str:
    out = io.StringIO()
    qr.terminal(out=out, compact=True, border=2)
    return out.getvalue()


def test_a_port_given_apart_from_port_with_lan_1_is_refused_with_the_fix(tmp_path) -> None:
    if not lan_addresses():
        pytest.skip("this machine has no network interface with an IPv4 address")
    result = python_run(
        "manage.py",
        "run_embedded",
        "--port",
        "8001",
        "--no-worker",
        env={"LAN": "1", "PORT": "8000", "VAR_DIR": str(tmp_path)},
    )
    assert result.returncode == 1
    assert result.stderr == (
        "CommandError: --port 8001: with LAN=1 give the port as PORT=8001 (make run-lan "
        "PORT=8001), so that the phones' address carries it.\n"
    )
