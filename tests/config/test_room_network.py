"""``make run-lan`` on the room's Wi-Fi (issue 25.6), started as a person starts it
(``run_embedded`` with LAN=1 on a free port): no debug page, the demo's known password replaced
by a generated one printed once, a secret key of its own kept under ``var/`` across restarts,
and no invitation or API token in its log."""

from __future__ import annotations

import http.client
import stat
import urllib.error
import urllib.parse
import urllib.request

import pytest

from config.lan import lan_addresses
from tests.config.embedded import director_session, lan_password, python_run, run_embedded
from tests.config.settings_probe import settings_chosen, settings_probe

INVITE = "eyJpIjo3LCJuIjoiUXpYcDFiIn0:1vNc2k:Kq8mZ0tLw3bVn5cXr7yPa2sDf4gHj6uE"
API_KEY = "5f0c2a9d8b7e6f1a3c4d5e6f7a8b9c0d1e2f3a4b"


def _get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        connection.request("GET", path, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, answer.read().decode(errors="replace")
    finally:
        connection.close()


def test_lan_1_with_debug_on_is_refused_and_its_secret_key_is_kept(tmp_path) -> None:
    if not lan_addresses():
        pytest.skip("this machine has no network interface with an IPv4 address")
    refused = settings_probe({"LAN": "1", "DEBUG": "true"}, tmp_path)
    assert refused.returncode == 1
    assert "DEBUG=true with LAN=1" in refused.stderr
    first = settings_chosen({"LAN": "1"}, tmp_path)
    assert first["DEBUG"] is False
    assert "DEV-ONLY" not in first["SECRET_KEY"] and len(first["SECRET_KEY"]) >= 50
    kept = tmp_path / "secret_key"
    assert kept.read_text().strip() == first["SECRET_KEY"]
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert settings_chosen({"LAN": "1"}, tmp_path)["SECRET_KEY"] == first["SECRET_KEY"]
    assert settings_chosen({"LAN": "1"}, tmp_path / "other")["SECRET_KEY"] != first["SECRET_KEY"]
    assert "DEV-ONLY" in settings_chosen({}, tmp_path)["SECRET_KEY"]  # make run: this machine


def test_listening_beyond_this_machine_with_debug_on_is_refused(tmp_path) -> None:
    result = python_run(
        "manage.py",
        "run_embedded",
        "--host",
        "0.0.0.0",
        "--no-worker",
        env={"VAR_DIR": str(tmp_path), "PORT": "8000", "DEBUG": "true"},
    )
    assert result.returncode == 1
    assert "--host 0.0.0.0 with DEBUG on" in result.stderr and "make run-lan" in result.stderr


def test_make_run_lan_has_no_debug_page_no_known_password_and_keeps_its_key(tmp_path) -> None:
    if not lan_addresses():
        pytest.skip("this machine has no network interface with an IPv4 address")
    env = {"LAN": "1", "STATIC_ROOT": str(tmp_path / "static")}
    with run_embedded(tmp_path, env, "--no-worker") as server:
        output = server.output()
        password = lan_password(output)
        assert "opens nothing on the room's network" in output
        # The demo's password opens nothing; the printed one does.
        with pytest.raises(AssertionError):
            _signed_in(server.base, "duplicate")
        browser = _signed_in(server.base, password)

        # No debug page: an unknown page and a refused host answer Django's plain pages.
        status, body = _get(server.port, "/no-such-page/")
        assert status == 404
        assert "Django tried these URL patterns" not in body and "DEBUG = True" not in body
        status, body = _get(server.port, "/accounts/login/", {"Host": "evil.example"})
        assert status == 400 and "DisallowedHost" not in body and "Traceback" not in body

        # Tokens in links and headers, through every door that logs.
        _get(server.port, f"/invitations/{INVITE}/")
        _get(server.port, "/api/v1/events", {"Authorization": f"Token {API_KEY}"})
        login = f"{server.base}/accounts/login/?next=/invitations/{INVITE}/"
        page = urllib.request.urlopen(login).read().decode()
        assert "csrfmiddlewaretoken" in page
        _bad_sign_in(server.base, INVITE)
        secret = (tmp_path / "secret_key").read_text().strip()

    log = server.output() + server.worker_log()
    assert INVITE not in log and API_KEY not in log
    assert "/invitations/<redacted>/" in log
    assert secret and "DEV-ONLY" not in secret

    # Started again: the same key (the browser's session still holds), no new password.
    with run_embedded(tmp_path, env, "--no-worker") as again:
        output = again.output()
        assert "make run-lan printed when it replaced the demo's" in output
        assert password not in output
        assert (tmp_path / "secret_key").read_text().strip() == secret
        still = browser.open(f"{again.base}/")
        assert "/accounts/login/" not in still.geturl()
        _signed_in(again.base, password)


def _signed_in(base: str, password: str) -> urllib.request.OpenerDirector:
    """A browser signed in as the director with ``password`` (an AssertionError if refused)."""
    port = int(base.rsplit(":", 1)[1])
    browser = director_session(port, password)
    answer = browser.open(f"{base}/")
    assert "/accounts/login/" not in answer.geturl(), f"refused: {password}"
    return browser


def _bad_sign_in(base: str, invite: str) -> None:
    """A wrong password on the login page reached from an invitation (django-axes logs it)."""
    import http.cookiejar
    import re

    browser = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    login = f"{base}/accounts/login/?next=/invitations/{invite}/"
    page = browser.open(login).read().decode()
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert match is not None
    form = {"username": "director", "password": "wrong", "csrfmiddlewaretoken": match[1]}
    try:
        browser.open(login, data=urllib.parse.urlencode(form).encode()).read()
    except urllib.error.HTTPError as exc:  # locked out after several (429): still logged
        assert exc.code == 429
