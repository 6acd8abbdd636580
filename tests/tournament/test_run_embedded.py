"""``manage.py run_embedded`` end to end, as a person runs it: server, login, demo, stop."""

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
import urllib.parse
import urllib.request
from pathlib import Path

from tests.config.settings_probe import ROOT


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _pids_in_group(pgid: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getpgid(int(entry.name)) == pgid:
                    pids.append(int(entry.name))
            except ProcessLookupError:
                pass
    return pids


def test_run_embedded_serves_the_demo_to_the_director_and_stops_its_worker(tmp_path):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    env.update(VAR_DIR=str(tmp_path), PYTHONUNBUFFERED="1", DEBUG="true")
    log = (tmp_path / "run.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "manage.py", "run_embedded", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
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
        css = browser.open(f"{base}/static/tournament/site.css").read()
        assert b"--accent" in css

        worker_deadline = time.monotonic() + 30
        while "ready." not in (tmp_path / "log" / "worker.log").read_text():
            assert time.monotonic() < worker_deadline, (tmp_path / "log" / "worker.log").read_text()
            time.sleep(0.3)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        log.close()
    output = (tmp_path / "run.log").read_text()
    assert "Stopping the Celery worker" in output
    time.sleep(0.5)
    assert _pids_in_group(server.pid) == []
