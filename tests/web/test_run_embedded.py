"""``manage.py run_embedded`` end to end, as a person runs it: server, login, demo, stop; with
DEBUG off (the site's own pages, in the reader's language) and the static files still served."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from tests.config.settings_probe import ROOT


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _processes_started_for(var_dir: Path) -> list[int]:
    """Live processes whose environment has VAR_DIR=var_dir (the server, its worker, beat)."""
    marker = f"VAR_DIR={var_dir}".encode()
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                environ = (entry / "environ").read_bytes().split(b"\0")
                status = (entry / "status").read_text()
            except OSError:
                continue
            if marker in environ and "State:\tZ" not in status:
                pids.append(int(entry.name))
    return pids


def _wait_until_gone(var_dir: Path, seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while (left := _processes_started_for(var_dir)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


def _start(var_dir: Path, port: int) -> subprocess.Popen[bytes]:
    scrub = {"REDIS_URL", "DATABASE_URL", "DEBUG", "SECRET_KEY", "EMBEDDED_RUN", "STATIC_ROOT"}
    env = {k: v for k, v in os.environ.items() if k not in scrub}
    # As make run starts it: no DEBUG given (run_embedded runs with it off).
    env.update(VAR_DIR=str(var_dir), PYTHONUNBUFFERED="1", STATIC_ROOT=str(var_dir / "static"))
    with (var_dir / "run.log").open("wb") as log:
        return subprocess.Popen(
            [sys.executable, "manage.py", "run_embedded", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _wait_for_worker(var_dir: Path) -> None:
    log = var_dir / "log" / "worker.log"
    deadline = time.monotonic() + 180  # after migrate and collectstatic, on a busy machine
    while not (log.exists() and "ready." in log.read_text()):
        assert time.monotonic() < deadline, log.read_text() if log.exists() else "no log"
        time.sleep(0.3)


def test_run_embedded_serves_the_demo_to_the_director_and_stops_its_worker(tmp_path):
    port = _free_port()
    server = _start(tmp_path, port)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180  # migrate and collectstatic first, on a busy machine
        while True:
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=2) as response:
                    health = json.load(response)
                break
            except OSError:
                assert server.poll() is None, (tmp_path / "run.log").read_text()
                assert time.monotonic() < deadline, (tmp_path / "run.log").read_text()
                time.sleep(0.3)
        assert health["status"] == "ok"
        output = (tmp_path / "run.log").read_text()
        assert f"running at {base}/" in output
        assert "director  /  password: duplicate" in output

        jar = http.cookiejar.CookieJar()
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        login_page = browser.open(f"{base}/accounts/login/").read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login_page)[1]
        form = urllib.parse.urlencode(
            {"username": "director", "password": "duplicate", "csrfmiddlewaretoken": token}
        ).encode()
        events = browser.open(f"{base}/accounts/login/", data=form).read().decode()
        assert "Demo club night" in events
        assert "<dd>12</dd>" in events  # players
        css = browser.open(f"{base}/static/site.css").read()
        assert b"--accent" in css
        # The pages name the collected, cache-busted files, and those are served too.
        hashed = re.search(r'href="(/static/site\.[0-9a-f]{12}\.css)"', events)
        assert hashed, "the page does not name the collected style sheet"
        assert b"--accent" in browser.open(f"{base}{hashed[1]}").read()
        assert (tmp_path / "secret_key").exists()  # its own key, not the public one

        # No debug page: an unknown address answers the site's 404, in the reader's language.
        for language, words in (("fr", "Rien ici"), ("en", "Nothing here")):
            request = urllib.request.Request(
                f"{base}/no-such-page/", headers={"Accept-Language": language}
            )
            try:
                browser.open(request)
            except urllib.error.HTTPError as answer:
                status, page = answer.code, answer.read().decode()
            else:
                raise AssertionError("an unknown page answered 200")
            assert status == 404
            assert words in page and 'data-status="404"' in page
            assert "Django tried these URL patterns" not in page and "DEBUG = True" not in page

        _wait_for_worker(tmp_path)
    finally:
        # As make does on SIGTERM: the signal reaches us twice.
        server.send_signal(signal.SIGTERM)
        time.sleep(0.2)
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    output = (tmp_path / "run.log").read_text()
    assert "Stopping the Celery worker" in output
    assert _wait_until_gone(tmp_path, 5) == []


def _port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) != 0


def test_the_worker_stops_even_when_run_embedded_is_killed(tmp_path):
    port = _free_port()
    server = _start(tmp_path, port)
    try:
        _wait_for_worker(tmp_path)
    finally:
        server.kill()
        server.wait()
    assert _wait_until_gone(tmp_path, 30) == []
    # The web server goes too (its title hides its environment): its port is free again.
    deadline = time.monotonic() + 30
    while not _port_is_free(port) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _port_is_free(port)
