"""Rounds close whatever dies: beat is not running and the worker holding the round's close is
killed (SIGKILL); another worker's watch closes and scores the round within seconds of its
deadline and grace (not after Redis's one-hour visibility timeout). With every worker dead,
/healthz answers 503 naming the overdue round. Real processes (``tests.faults.stack``): our own
redis-server, two workers, gunicorn, one SQLite file; no beat at all."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from tests.faults.stack import Stack

pytestmark = [pytest.mark.redis, pytest.mark.slow]


def close_delay(stack: Stack, round_id: int) -> float:
    """Seconds from the round's deadline plus grace to its recorded close."""
    deadline, closed_at, grace = stack.query(
        "SELECT r.deadline, r.closed_at, e.grace_seconds FROM tournament_round r "
        "JOIN tournament_game g ON g.id = r.game_id JOIN tournament_event e ON e.id = g.event_id "
        "WHERE r.id = ?",
        round_id,
    )[0]
    due = dt.datetime.fromisoformat(deadline) + dt.timedelta(seconds=grace)
    return (dt.datetime.fromisoformat(closed_at) - due).total_seconds()


def test_without_beat_a_killed_workers_close_is_done_by_another_worker_in_seconds(
    stack: Stack,
) -> None:
    stack.redis()
    workers = [stack.worker("worker-a"), stack.worker("worker-b")]
    stack.web()
    round_ = stack.round_drawn(names=["Ann", "Bob", "Cleo"], seconds=6)
    rid, number, tokens = round_["round"], round_["number"], round_["tokens"]
    stack.round_open(rid)
    assert stack.slip(tokens["Ann"], round=number, word="WROTE", ref="H4", score=24)[0] == 201

    def holder() -> list:
        held = re.compile(r"Task arbiter\.round_close\[[-0-9a-f]+\] received")
        return [w for w in workers if held.search(w.output())]

    stack.wait_until("a worker holds the close", lambda: bool(holder()), seconds=15)
    (held,) = holder()
    (other,) = [w for w in workers if w is not held]
    held.kill()  # SIGKILL, its pool with it: the close it held returns only in an hour
    assert stack.round_status(rid) == "open"

    stack.wait_until("round scored", lambda: stack.round_status(rid) == "scored", seconds=30)
    delay = close_delay(stack, rid)
    print(f"closed {delay:.2f} s after deadline + grace, by {other.name} (no beat)")
    assert 0 <= delay < 5  # the watch runs every ROUNDS_SWEEP_SECONDS (1 s here)
    stack.wait_until(  # its log line is written once the round it closed is scored too
        "the other worker says it closed it",
        lambda: "Closed overdue rounds" in other.output(),
        seconds=15,
    )
    assert stack.rulings(rid) == {"Ann": "valid", "Bob": "missing", "Cleo": "missing"}
    assert other.alive()


def test_with_every_worker_dead_healthz_names_the_overdue_round_until_one_closes_it(
    stack: Stack,
) -> None:
    stack.redis()
    first = stack.worker("worker-a")
    stack.web()
    round_ = stack.round_drawn(names=["Ann", "Bob", "Cleo"], seconds=3)
    rid = round_["round"]
    stack.round_open(rid)
    first.kill()

    def rounds_check() -> dict:
        status, body = stack.healthz()
        said = body.get("rounds", {}) if status == 503 and isinstance(body, dict) else {}
        return said if said.get("status") == "error" else {}

    # deadline 3 s, grace 1 s, then the watch's interval (1 s) and 5 s of tolerance
    waited = stack.wait_until("/healthz names the round", lambda: bool(rounds_check()), seconds=30)
    error = rounds_check()["error"]
    assert f"round 1 of game 1 of Fault night (id {rid})" in error, error
    assert "No worker closes rounds" in error
    # Named only past the tolerance: the watch's interval (1 s here) and 5 s.
    past = re.search(r"\(id \d+\), (\d+) s past its deadline and grace", error)
    assert past is not None and int(past.group(1)) >= 6
    print(f"/healthz said 503 naming the round {waited:.1f} s after the worker was killed")

    stack.worker("worker-b")
    stack.wait_until("round scored", lambda: stack.round_status(rid) == "scored", seconds=30)
    stack.wait_until("rounds check ok", lambda: not rounds_check(), seconds=10)
    assert stack.healthz()[1]["rounds"] == {"kind": "rounds", "status": "ok"}
