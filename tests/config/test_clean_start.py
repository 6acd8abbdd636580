"""A normal start (``make run``: ``manage.py run_embedded``) prints no warning at all, neither in
the terminal nor in its worker's log: once a start printed a runpy RuntimeWarning, kombu's "No
hostname was supplied" and Django's development-server notice, and a real warning drowned."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.request

from tests.config.embedded import environment, free_port, run_embedded
from tests.config.settings_probe import ROOT

WARNING = re.compile(r"warn|traceback|error", re.IGNORECASE)
# Celery's own, true whenever the worker runs as root (as in this test machine's containers,
# never on a club's laptop): the one line a root start leaves in the worker's log.
ROOT_WARNING = re.compile(
    r"^\S*celery/platforms\.py:\d+: SecurityWarning: You're running the worker with superuser "
    r"privileges.*?\n  _warn_or_raise_security_error\(egid, euid, gid, uid,\n",
    re.DOTALL | re.MULTILINE,
)


def warnings_in(text: str) -> list[str]:
    return [line for line in text.splitlines() if WARNING.search(line)]


def test_a_normal_start_prints_no_warning_in_the_terminal_or_the_worker_log(tmp_path):
    with run_embedded(tmp_path, {"HEALTH_HEARTBEAT_SECONDS": "1"}) as server:
        server.wait_for("embedded@", worker=True)
        server.wait_for("tournament.health_ping", worker=True)
        server.wait_for("succeeded", worker=True)
        with urllib.request.urlopen(f"{server.base}/healthz", timeout=10) as response:
            assert json.load(response)["status"] == "ok"
    terminal = server.output()
    assert "Duplicate Scrabble is running at" in terminal
    assert "Stopped." in terminal
    assert warnings_in(terminal) == [], terminal
    worker = server.worker_log()
    assert "ready." in worker
    if os.geteuid() == 0:
        worker = ROOT_WARNING.sub("", worker, count=1)
    assert warnings_in(worker) == [], worker


def test_the_test_sees_a_warning_when_there_is_one():
    assert warnings_in("x\n[2026-11-24: WARNING/MainProcess] No hostname was supplied.\n")
    assert warnings_in("<frozen runpy>:128: RuntimeWarning: 'engine.lexicon' found")
    root_start = (
        "/x/celery/platforms.py:893: SecurityWarning: You're running the worker with superuser "
        "privileges: this is\nabsolutely not recommended!\n\nUser information: uid=0\n\n"
        "  _warn_or_raise_security_error(egid, euid, gid, uid,\n"
    )
    assert warnings_in(ROOT_WARNING.sub("", root_start + "a UserWarning\n")) == ["a UserWarning"]


def recipe(target: str) -> list[str]:
    """The Makefile's recipe lines for ``target``, ``$(PY)`` spelt out."""
    text = (ROOT / "Makefile").read_text()
    body = text.split(f"\n{target}:", 1)[1].split("\n\n", 1)[0].splitlines()[1:]
    return [line.strip().replace("$(PY)", sys.executable) for line in body]


def test_what_make_run_does_before_run_embedded_prints_no_warning_either(tmp_path):
    for target in ["run", "run-lan"]:
        lines = recipe(target)
        assert lines[-1].endswith("manage.py run_embedded"), lines
        for line in lines[:-1]:
            result = subprocess.run(
                ["bash", "-c", line],
                cwd=ROOT,
                env=environment(tmp_path, free_port(), {}),
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert result.returncode == 0, result.stderr
            assert warnings_in(result.stdout + result.stderr) == [], result.stderr
