"""Redis dies mid-round and comes back: the room does not notice.

Real processes (``tests.faults.stack``): our own redis-server, a Celery worker, beat and
gunicorn on one SQLite file. While Redis is down the phones' slips are still accepted and
stored (the caches fail open), the deadline still holds on the server clock, and /healthz says
503; once Redis is back the same worker reconnects and the round is closed and scored within
10 s.
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


def test_slips_are_accepted_while_redis_is_down_and_the_round_is_scored_once_it_is_back(
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

    # The deadline (8 s + 1 s of grace) holds on the server clock with no broker at all.
    time.sleep(max(0.0, opened + 10.5 - time.monotonic()))
    status, body = stack.slip(tokens["Dan"], round=number, word="WROTE", ref="H4", score=24)
    assert status == 409, (status, body)
    assert stack.round_status(rid) == "open"  # nothing closes it while the broker is down

    time.sleep(max(0.0, opened + 16 - time.monotonic()))  # an outage longer than the round
    stack.redis()  # back, on the same port, empty
    took = stack.wait_until(
        "round scored after Redis came back",
        lambda: stack.round_status(rid) == "scored",
        seconds=10,
    )
    assert worker.alive(), worker.output()[-3000:]  # the same worker reconnected
    assert stack.rulings(rid) == {
        "Ann": "valid",
        "Bob": "valid_warning",
        "Cleo": "valid",
        "Dan": "missing",
    }
    stack.wait_until("healthz 200 again", lambda: stack.healthz()[0] == 200, seconds=10)
    print(f"scored {took:.1f} s after Redis came back")
