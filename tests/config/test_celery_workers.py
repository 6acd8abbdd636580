"""Real workers on real brokers: a Celery worker subprocess runs a task sent by another process.

No eager mode: the task goes through the broker (Redis, or the embedded filesystem folders)
and its effect (the heartbeat file the worker writes) is seen from the outside.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.config.settings_probe import ROOT
from tests.faults.stack import redis_server

SEND = (
    "from tournament.tasks import health_ping; "
    "health_ping.apply_async(args=[{stamp!r}], queue={queue!r})"
)


def _env(var_dir: Path, redis_url: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        VAR_DIR=str(var_dir),
        DATABASE_URL=f"sqlite:///{var_dir}/db.sqlite3",
        PYTHONUNBUFFERED="1",
    )
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


@contextmanager
def celery_worker(env: dict[str, str], queue: str, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    with log.open("wb") as out:
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool",
                "solo",
                "--queues",
                queue,
                "--loglevel",
                "INFO",
                "--without-mingle",
                "--without-gossip",
                "--hostname",
                f"{queue}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield worker
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()


def _send_and_see_it_run(var_dir: Path, redis_url: str | None) -> dict[str, object]:
    env = _env(var_dir, redis_url)
    queue = f"test-{uuid.uuid4().hex[:12]}"
    stamp = uuid.uuid4().hex
    heartbeat = var_dir / "celery" / "heartbeat.json"
    log = var_dir / "worker.log"
    with celery_worker(env, queue, log) as worker:
        # Sent by another process, as the web process does; the worker may still be starting.
        subprocess.run(
            [
                sys.executable,
                "-c",
                "import django; django.setup(); " + SEND.format(stamp=stamp, queue=queue),
            ],
            cwd=ROOT,
            env=env,
            check=True,
            timeout=60,
            capture_output=True,
        )
        deadline = time.monotonic() + 45
        while time.monotonic() < deadline:
            if heartbeat.exists() and json.loads(heartbeat.read_text())["stamp"] == stamp:
                break
            assert worker.poll() is None, log.read_text()
            time.sleep(0.2)
        else:
            pytest.fail(f"the worker did not run the task in 45 s:\n{log.read_text()}")
        seen = json.loads(heartbeat.read_text())
        assert seen["pid"] == worker.pid  # --pool solo: the task ran in the worker itself
    assert "tournament.health_ping" in log.read_text()
    return seen


def test_a_worker_on_the_embedded_filesystem_broker_runs_a_task_sent_by_another_process(tmp_path):
    seen = _send_and_see_it_run(tmp_path, redis_url=None)
    assert seen["stamp"]
    assert not list((tmp_path / "celery" / "queue").glob("*.msg"))  # consumed


@pytest.mark.redis
def test_a_worker_on_redis_runs_a_task_sent_by_another_process(tmp_path):
    with redis_server(tmp_path / "redis") as redis_url:  # its own, not the shared one
        seen = _send_and_see_it_run(tmp_path, redis_url=redis_url)
    assert seen["stamp"]
    assert not (tmp_path / "celery" / "queue").exists()  # nothing went through folders
