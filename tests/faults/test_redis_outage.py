"""Redis dies mid-round and comes back: the room does not notice.

Real processes (``tests.faults.stack``): our own redis-server, a Celery worker, beat and
gunicorn on one SQLite file. While Redis is down the phones' slips are still accepted and
stored (the caches fail open), the deadline still holds on the server clock, the worker closes
and scores the round itself on time (``config.celery.OutageSweeper``), and /healthz says 503;
once Redis is back the same worker reconnects, takes tasks again, and /healthz says 200.
"""

from __future__ import annotations

import time

import pytest

from tests.faults.stack import Stack

pytestmark = [pytest.mark.redis, pytest.mark.slow]

SLIPS = {
    "Ann": ("WROTE", "H4", 24),
    "Bob": ("TROWEL", "H3", 21),
    "Cleo": ("WROTE", "H4", 24),
}


def test_while_redis_is_down_slips_are_stored_and_the_round_closes_and_is_scored_on_time(
    stack: Stack,
) -> None:
    stack.redis()
    worker = stack.worker()
    stack.beat()
    stack.web()
    round_ = stack.round_drawn(names=["Ann", "Bob", "Cleo", "Dan"], seconds=8)
    rid, number, tokens = round_["round"], round_["number"], round_["tokens"]
    stack.wait_until("healthz 200", lambda: stack.healthz()[0] == 200, seconds=20)
    stack.round_open(rid)
    opened = time.monotonic()

    word, ref, score = SLIPS["Ann"]
    assert stack.slip(tokens["Ann"], round=number, word=word, ref=ref, score=score)[0] == 201

    stack.processes[0].kill()  # Redis, SIGKILL: nothing of it survives (no persistence)
    for name in ["Bob", "Cleo"]:
        word, ref, score = SLIPS[name]
        status, body = stack.slip(tokens[name], round=number, word=word, ref=ref, score=score)
        assert status == 201, (status, body, stack.logs())
    assert stack.slips_stored(rid) == {name: slip[0] for name, slip in SLIPS.items()}
    status, health = stack.healthz()
    assert status == 503
    assert health["broker"]["status"] == "error"
    assert health["database"]["status"] == "ok"

    # The deadline (8 s + 1 s of grace) holds on the server clock with no broker at all, and
    # the worker closes the round itself (it sweeps every second here, as ROUNDS_SWEEP_SECONDS).
    due = opened + 9
    closed_after = stack.wait_until(
        "round closed without the broker",
        lambda: stack.round_status(rid) in ("closed", "scored"),
        seconds=max(0.0, due - time.monotonic()) + 5,
    )
    late_by = time.monotonic() - due
    assert late_by < 4, (closed_after, late_by)  # on the server clock, not when Redis returns
    status, body = stack.slip(tokens["Dan"], round=number, word="WROTE", ref="H4", score=24)
    assert status == 409, (status, body)
    stack.wait_until("round scored without the broker", lambda: _scored(stack, rid), seconds=10)
    assert stack.rulings(rid) == RULINGS
    assert "this worker sweeps the rounds itself" in worker.output()

    time.sleep(max(0.0, opened + 16 - time.monotonic()))  # an outage longer than the round
    assert stack.healthz()[0] == 503  # still down: nothing pretends otherwise
    stack.redis()  # back, on the same port, empty
    took = stack.wait_until(
        "healthz 200 again (the worker's heartbeat through Redis)",
        lambda: stack.healthz()[0] == 200,
        seconds=10,
    )
    assert worker.alive(), worker.output()[-3000:]  # the same worker reconnected
    # The worker's own watch asks Redis once a second: its line can come after healthz's 200.
    stack.wait_until(
        "the worker says the broker is back",
        lambda: "The broker answers again" in worker.output(),
        seconds=10,
    )
    assert stack.rulings(rid) == RULINGS  # scored once: nothing ruled again
    assert stack.query(
        "SELECT COUNT(*) FROM tournament_auditentry WHERE round_id = ? "
        "AND action IN ('arbiter.round.closed', 'arbiter.round.scored')",
        rid,
    ) == [(2,)]
    print(f"closed {late_by:.1f} s after deadline + grace, Redis down; healthy {took:.1f} s after")


RULINGS = {"Ann": "valid", "Bob": "valid_warning", "Cleo": "valid", "Dan": "missing"}


def _scored(stack: Stack, round_id: int) -> bool:
    return stack.round_status(round_id) == "scored"
