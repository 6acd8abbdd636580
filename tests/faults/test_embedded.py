"""``run_embedded`` supervises its worker: killed mid-round (SIGKILL, its beat with it), the
worker is started again, logged, and the round is closed and scored. Real processes: the
command itself (Django's server, the worker and beat it starts) on SQLite and the folder
broker, as ``make run`` runs them."""

from __future__ import annotations

import os
import signal

import pytest

from tests.faults.stack import Stack

pytestmark = pytest.mark.slow


@pytest.fixture
def embedded(stack: Stack) -> Stack:
    stack.embedded = True
    return stack


def test_run_embedded_starts_its_killed_worker_again_and_the_round_is_scored(
    embedded: Stack,
) -> None:
    server = embedded.run_embedded()
    round_ = embedded.round_drawn(names=["Ann", "Bob", "Cleo"], seconds=6)
    rid, number, tokens = round_["round"], round_["number"], round_["tokens"]
    embedded.round_open(rid)
    assert embedded.slip(tokens["Ann"], round=number, word="WROTE", ref="H4", score=24)[0] == 201

    [worker] = embedded.children_of(server, marker=" worker ")
    os.killpg(worker, signal.SIGKILL)  # the worker, its pool and its beat: the whole group
    embedded.wait_until(
        "the restart logged",
        lambda: "starting it again in 1 s" in server.output(),
        seconds=10,
    )
    assert "exited with code -9" in server.output()
    assert embedded.slip(tokens["Bob"], round=number, word="TROWEL", ref="H3", score=21)[0] == 201

    embedded.wait_until("round scored", lambda: embedded.round_status(rid) == "scored", seconds=30)
    assert embedded.rulings(rid) == {"Ann": "valid", "Bob": "valid_warning", "Cleo": "missing"}
    [again] = embedded.children_of(server, marker=" worker ")
    assert again != worker
    embedded.wait_until("healthz 200", lambda: embedded.healthz()[0] == 200, seconds=10)
