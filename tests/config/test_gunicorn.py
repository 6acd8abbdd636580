"""The web process: gunicorn with uvicorn workers and timeouts (config/gunicorn.py), used by
compose, the image and the embedded run; slow clients do not freeze it; tokens stay out of
every log."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from django.urls import reverse
from gunicorn.config import Config
from uvicorn_worker import UvicornWorker

from tests.config.settings_probe import ROOT
from web.redaction import RedactTokensFilter, redact

TOKEN = "Zk3v9QmT0bq1Xl7aPw2cYr8NdE5uHs4G"


def gunicorn_config() -> Config:
    config = Config()
    namespace: dict[str, object] = {"__file__": str(ROOT / "config" / "gunicorn.py")}
    exec(compile((ROOT / "config/gunicorn.py").read_text(), "gunicorn.py", "exec"), namespace)
    for name, value in namespace.items():
        if name in config.settings:
            config.set(name, value)
    return config


def test_the_web_process_runs_uvicorn_workers_with_timeouts() -> None:
    config = gunicorn_config()
    assert config.worker_class_str == "config.gunicorn_worker.ArrivalUvicornWorker"
    assert issubclass(config.worker_class, UvicornWorker)  # ASGI, stamping arrivals
    assert config.wsgi_app == "config.asgi:application"  # gunicorn's name for any app
    assert 0 < config.timeout <= 60 and 0 < config.keepalive <= 10
    assert config.accesslog == "-"


def test_compose_and_the_image_start_gunicorn_with_that_configuration() -> None:
    compose = yaml.safe_load((ROOT / "docker/compose.yaml").read_text())
    assert "gunicorn config.asgi -c config/gunicorn.py" in compose["services"]["web"]["command"]
    dockerfile = (ROOT / "docker/Dockerfile").read_text()
    assert 'CMD ["gunicorn", "config.asgi", "-c", "config/gunicorn.py"' in dockerfile
    assert "-c config/gunicorn.py" in (ROOT / "README.md").read_text()


def test_join_links_are_redacted_and_api_paths_left_alone() -> None:
    assert redact(f"GET /play/{TOKEN}/ HTTP/1.1") == "GET /play/<redacted>/ HTTP/1.1"
    assert redact(f"/play/{TOKEN}/") == "/play/<redacted>/"
    assert (
        redact(f"http://room.local:8000/play/{TOKEN}/") == "http://room.local:8000/play/<redacted>/"
    )
    assert redact("GET /play/ HTTP/1.1") == "GET /play/ HTTP/1.1"
    for path in ["/api/v1/play/state", "/api/v1/play/submissions", "/static/play/play.js"]:
        assert redact(f"POST {path} HTTP/1.1") == f"POST {path} HTTP/1.1"


@pytest.mark.django_db
def test_djangos_request_log_of_an_unknown_join_link_has_no_token(client, caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get(reverse("play:play_join", args=[TOKEN]))
    assert response.status_code == 404
    messages = [r.getMessage() for r in caplog.records if r.name == "django.request"]
    # one line; the log's episodes (config.log_episodes) may add how many an episode held
    assert len(messages) == 1 and messages[0].startswith("Not Found: /play/<redacted>/")
    assert TOKEN not in messages[0]


def test_the_filter_rewrites_arguments_of_any_record() -> None:
    record = logging.LogRecord(
        "django.server", 20, __file__, 1, '"%s" %s', (f"GET /play/{TOKEN}/", 302), None
    )
    RedactTokensFilter().filter(record)
    assert record.getMessage() == '"GET /play/<redacted>/" 302'


# --- slow clients against a real gunicorn (127.0.0.1 only, bounded in time) ------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """gunicorn with config/gunicorn.py on a free loopback port; its base URL."""
    port = _free_port()
    env = {
        **os.environ,
        "DEBUG": "true",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "VAR_DIR": str(tmp_path),
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    env.pop("REDIS_URL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.asgi", "-c", "config/gunicorn.py"]
        + ["--bind", f"127.0.0.1:{port}", "--access-logfile", str(tmp_path / "access.log")],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"{url}/play/", timeout=2)
            except urllib.error.HTTPError:
                break  # 403: no player cookie, but it answers
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise
                time.sleep(0.2)
            else:
                break
        yield url
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_three_slow_clients_do_not_freeze_the_site(served: str) -> None:
    host, port = served.removeprefix("http://").split(":")
    slow = []
    for _ in range(4):  # more slow clients than the 3 sync workers there used to be
        sock = socket.create_connection((host, int(port)), timeout=5)
        sock.sendall(b"GET /play/ HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # headers never finished
        slow.append(sock)
    try:
        for _ in range(3):
            for sock in slow:
                sock.sendall(b"X-Trickle: 1\r\n")  # a byte now and then, as slowloris does
            started = time.monotonic()
            try:
                urllib.request.urlopen(f"{served}/play/", timeout=5)
            except urllib.error.HTTPError as exc:
                assert exc.code == 403  # the page answered (no player cookie)
            assert time.monotonic() - started < 2.0
            time.sleep(0.3)
    finally:
        for sock in slow:
            sock.close()


def test_the_access_log_writes_a_join_link_without_its_token(served: str, tmp_path: Path) -> None:
    with contextlib.suppress(urllib.error.HTTPError):  # whatever it answers, it is logged
        urllib.request.urlopen(f"{served}/play/{TOKEN}/", timeout=5)
    log = tmp_path / "access.log"
    deadline = time.monotonic() + 10
    while "/play/" not in (log.read_text() if log.exists() else ""):
        assert time.monotonic() < deadline, "no access log line"
        time.sleep(0.05)
    text = log.read_text()
    assert TOKEN not in text and "/play/<redacted>/" in text


# --- bodies past the limit, on the production server (issue 25.4) ------------------------------


def _answer(sock: socket.socket) -> bytes:
    """What the server answered on ``sock`` until it closed or 10 s passed."""
    sock.settimeout(10)
    answer = b""
    with contextlib.suppress(OSError):
        while chunk := sock.recv(65536):
            answer += chunk
            if b"\r\n\r\n" in answer and answer.split(b"\r\n\r\n", 1)[1].endswith(b"."):
                break
    return answer


def test_a_body_announced_too_large_is_refused_before_a_byte_of_it_is_read(served: str) -> None:
    host, port = served.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(
            b"POST /events/x/setup/player/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: multipart/form-data; boundary=x\r\n"
            b"Content-Length: 53687091200\r\n\r\n"  # 50 GB announced, none sent
        )
        answer = _answer(sock)
    assert answer.startswith(b"HTTP/1.1 413"), answer
    assert answer.endswith(b"The request is too large (51200 MB): at most 3 MB.")


def test_a_body_sent_in_chunks_is_cut_off_at_the_limit_with_a_413(served: str) -> None:
    host, port = served.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(
            b"POST /api/v1/play/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nAccept-Language: fr\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"x" * 65536
        sent = 0
        with contextlib.suppress(OSError):  # the server closes once it has answered
            while sent < 64 * 1024 * 1024:
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
        answer = _answer(sock)
    assert sent < 64 * 1024 * 1024, "the server read the whole body"
    head, body = answer.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 413"), answer[:300]
    said = json.loads(body)
    assert said["code"] == "too_large"
    # cut off within a few chunks of the 3 MB (uvicorn hands the body over as it comes)
    assert re.fullmatch(
        r"La requête est trop volumineuse \(3,\d Mo\)\xa0: au plus 3 Mo\.", said["detail"]
    )
