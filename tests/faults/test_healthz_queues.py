"""/healthz names each worker queue without a live consumer, busy or not (issue 34: it said the
worker was down while it was busy compiling a word list, and did not check the word lists'
queue at all). Real processes (``tests.faults.stack``): our own redis-server, workers and
gunicorn; a worker made "busy" by stopping its pool (SIGSTOP), so that no task of it runs."""

from __future__ import annotations

import datetime as dt
import json
import os
import signal

import pytest

from tests.faults.stack import Stack

pytestmark = [pytest.mark.redis, pytest.mark.slow]

ALL = {"HEALTH_QUEUES": "celery,tops,wordlists"}


def _worker_error(stack: Stack) -> str:
    status, body = stack.healthz()
    return "" if status == 200 else str(body.get("worker", {}).get("error", body))


def test_healthz_names_the_word_lists_queue_until_its_worker_runs_and_not_when_busy(
    stack: Stack,
) -> None:
    stack.extra_env.update(ALL)
    stack.redis()
    stack.web(workers=1)
    stack.worker("worker", queues="celery,tops")
    stack.wait_until(
        "/healthz names the word lists' queue alone",
        lambda: (
            "wordlists (no worker seen)" in _worker_error(stack)
            and "celery" not in _worker_error(stack)
        ),
        seconds=20,
    )
    compiles = stack.worker("wordlists", queues="wordlists", concurrency=1)
    stack.beat()  # sends the health task, which a stopped pool never runs
    stack.wait_until("/healthz 200", lambda: stack.healthz()[0] == 200, seconds=20)

    # Busy: every pool process of both workers stopped, as a pool busy with a compile runs no
    # task. The workers' main processes still consume: /healthz stays 200.
    rounds = next(p for p in stack.processes if p.name == "worker")
    pool = [
        pid for parent in (rounds, compiles) for pid in stack.children_of(parent, marker="celery")
    ]
    assert pool, "no pool process found"
    heartbeat = stack.folder / "var" / "celery" / "heartbeat.json"
    for pid in pool:
        os.kill(pid, signal.SIGSTOP)
    try:

        def task_heartbeat_stale() -> bool:
            # the health task's own heartbeat (run by a pool process): older than three intervals
            if not heartbeat.exists():
                return True
            at = dt.datetime.fromisoformat(json.loads(heartbeat.read_text())["at"])
            return (dt.datetime.now(dt.UTC) - at).total_seconds() > 4

        stack.wait_until("no task runs (the pools stopped)", task_heartbeat_stale, seconds=20)
        status, body = stack.healthz()
        assert status == 200, body
    finally:
        for pid in pool:
            os.kill(pid, signal.SIGCONT)

    compiles.kill()  # SIGKILL, pool and all
    stack.wait_until(
        "/healthz names the word lists' queue again",
        lambda: "wordlists (last worker seen" in _worker_error(stack),
        seconds=20,
    )
