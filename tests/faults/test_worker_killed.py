"""The worker is killed (SIGKILL) mid-round, holding the round's close: a new worker closes and
scores it, and /healthz says 503 while no worker runs. Real processes (``tests.faults.stack``):
our own redis-server, workers, beat and gunicorn on one SQLite file."""

from __future__ import annotations

import time

import pytest

from tests.faults.stack import Stack

pytestmark = [pytest.mark.redis, pytest.mark.slow]


def test_a_new_worker_closes_and_scores_the_round_a_killed_worker_held(stack: Stack) -> None:
    stack.redis()
    first = stack.worker("worker-a")
    stack.beat()
    stack.web()
    round_ = stack.round_drawn(names=["Ann", "Bob", "Cleo"], seconds=6)
    rid, number, tokens = round_["round"], round_["number"], round_["tokens"]
    stack.round_open(rid)
    opened = time.monotonic()
    assert stack.slip(tokens["Ann"], round=number, word="WROTE", ref="H4", score=24)[0] == 201
    # The worker has taken the round's close (a countdown it holds, unacknowledged).
    stack.wait_until(
        "the worker holds the close",
        lambda: "arbiter.round_close" in first.output(),
        seconds=15,
    )
    first.kill()  # SIGKILL, its pool with it

    assert stack.slip(tokens["Bob"], round=number, word="TROWEL", ref="H3", score=21)[0] == 201
    stack.wait_until("healthz 503 with no worker", lambda: stack.healthz()[0] == 503, seconds=10)
    assert stack.healthz()[1]["worker"]["status"] == "error"
    time.sleep(max(0.0, opened + 7.5 - time.monotonic()))  # past the deadline and the grace
    assert stack.slip(tokens["Cleo"], round=number, word="WROTE", ref="H4", score=24)[0] == 409
    assert stack.round_status(rid) == "open"  # no worker: nothing closed it

    second = stack.worker("worker-b")
    stack.wait_until("round scored", lambda: stack.round_status(rid) == "scored", seconds=10)
    assert stack.rulings(rid) == {"Ann": "valid", "Bob": "valid_warning", "Cleo": "missing"}
    stack.wait_until("healthz 200", lambda: stack.healthz()[0] == 200, seconds=10)
    assert second.alive()
