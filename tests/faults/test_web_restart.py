"""The web process is killed (SIGKILL) mid-round while phones are sending slips, and started
again: every slip it answered 201 is in the database and ruled once the round closes, and the
phones that got no answer send again and are ruled too. Real processes (``tests.faults.stack``):
our own redis-server, a worker, beat and gunicorn."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.faults.stack import Stack

pytestmark = [pytest.mark.redis, pytest.mark.slow]

NAMES = [f"Phone {i:02d}" for i in range(24)]


def test_every_slip_accepted_around_a_web_restart_is_ruled(stack: Stack) -> None:
    stack.redis()
    stack.worker()
    stack.beat()
    web = stack.web()
    round_ = stack.round_drawn(names=NAMES, seconds=10)
    rid, number, tokens = round_["round"], round_["number"], round_["tokens"]
    stack.round_open(rid)

    def send(name: str) -> int:
        time.sleep(0.05 * NAMES.index(name))  # a phone every 50 ms, for 1.2 s
        return stack.slip(tokens[name], round=number, word="WROTE", ref="H4", score=24)[0]

    killer = threading.Timer(0.6, web.kill)  # SIGKILL gunicorn and its workers mid-burst
    killer.start()
    with ThreadPoolExecutor(max_workers=len(NAMES)) as pool:
        answers = dict(zip(NAMES, pool.map(send, NAMES), strict=True))
    killer.join()
    accepted = {name for name, status in answers.items() if status == 201}
    unanswered = {name for name, status in answers.items() if status != 201}
    assert accepted and unanswered, answers  # the kill fell mid-burst
    assert accepted <= set(stack.slips_stored(rid))  # every 201 is stored

    stack.web("web-again")
    for name in sorted(unanswered):  # the phones that got no answer send again
        status, body = stack.slip(tokens[name], round=number, word="WROTE", ref="H4", score=24)
        assert status == 201, (name, status, body)
    assert set(stack.slips_stored(rid)) == set(NAMES)

    stack.wait_until("round scored", lambda: stack.round_status(rid) == "scored", seconds=20)
    assert stack.rulings(rid) == dict.fromkeys(NAMES, "valid")
