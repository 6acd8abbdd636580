"""Real workers on real brokers run the round lifecycle: the round closes at its deadline and
is scored by the tasks, a worker killed mid-round loses nothing (the sweep takes over), and a
task delivered twice changes nothing. No eager mode: every task goes through the broker."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.config.settings_probe import ROOT
from tests.config.test_celery_workers import _env as worker_env
from tests.faults.stack import redis_server

SETUP = """
from arbiter.services import clock, racks
from arbiter.services.slips import slip_submit
from tournament.models import Event, Game, Player
from tournament.services.events import event_create
from tournament.services.games import game_create
from tournament.services.players import player_register
import datetime as dt, json
event = event_create(name="Worker night", starts_on=dt.date(2026, 5, 1), actor=None)
Event.objects.filter(pk=event.pk).update(
    round_seconds=ROUND_SECONDS, warning_seconds=1, grace_seconds=1
)
event.refresh_from_db()
players = [
    player_register(event=event, name=n, table=i + 1, actor=None)
    for i, n in enumerate(["Ann", "Bob", "Cleo"])
]
game = game_create(event=event, actor=None, seed=7)
r = clock.round_open(round=racks.round_draw(game=game, actor=None), actor=None)
slip_submit(player=players[0], round=r, word="WROTE", ref="H4", score=24)
slip_submit(player=players[1], round=r, word="TROWEL", ref="H3", score=21)
print(json.dumps({"round": r.pk}))
"""

# The round's deadline brought to now (the killed worker's test: a round long enough that no
# loaded machine reaches its deadline before the kill, then due at once for the sweep).
DUE_NOW = (
    "from django.utils import timezone; from tournament.models import Round; "
    "Round.objects.filter(pk={round}).update(deadline=timezone.now())"
)

RESEND = (
    "from arbiter import tasks; tasks.round_score.delay({round}); tasks.round_close.delay({round})"
)


def _env(var_dir: Path, redis_url: str | None) -> dict[str, str]:
    return {**worker_env(var_dir, redis_url), "ROUNDS_SWEEP_SECONDS": "1"}


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


@contextmanager
def worker(
    env: dict[str, str], log: Path, *, beat: bool, queues: str = "celery,tops"
) -> Iterator[subprocess.Popen[bytes]]:
    args = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "--pool",
        "solo",
        "-Q",
        queues,
        "--loglevel",
        "INFO",
        "--without-mingle",
        "--without-gossip",
        "--hostname",
        f"{log.stem}@%h",
    ]
    if beat:
        args.append("-B")
    with log.open("wb") as out:
        proc = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def query(var_dir: Path, sql: str, *params: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(var_dir / "db.sqlite3", timeout=10) as db:
        return db.execute(sql, params).fetchall()


def wait_for(
    var_dir: Path, sql: str, *params: object, expect: object, seconds: float, logs: list[Path]
) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        rows = query(var_dir, sql, *params)
        if rows and rows[0][0] == expect:
            return
        time.sleep(0.3)
    tail = "\n".join(p.read_text(errors="replace")[-2000:] for p in logs if p.exists())
    raise AssertionError(f"{sql} did not give {expect!r} within {seconds}s; worker logs:\n{tail}")


def scenario(var_dir: Path, env: dict[str, str], *, seconds: int = 4) -> int:
    """The round of SETUP, open for ``seconds``; its id."""
    manage(env, "migrate", "-v0")
    out = manage(env, "shell", "-c", SETUP.replace("ROUND_SECONDS", str(seconds)))
    return int(json.loads(out.strip().splitlines()[-1])["round"])


def results(
    var_dir: Path, round_id: int
) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    rulings = query(
        var_dir,
        "SELECT p.name, r.code, r.points FROM tournament_ruling r "
        "JOIN tournament_player p ON p.id = r.player_id WHERE r.round_id = ? ORDER BY p.name",
        round_id,
    )
    audit = query(
        var_dir,
        "SELECT action, COUNT(*) FROM tournament_auditentry WHERE round_id = ? "
        "AND action IN ('arbiter.round.closed', 'arbiter.round.scored') "
        "GROUP BY action ORDER BY action",
        round_id,
    )
    return rulings, audit


EXPECTED = [("Ann", "valid", 24), ("Bob", "valid_warning", 20), ("Cleo", "missing", 0)]


@pytest.mark.redis
@pytest.mark.slow
def test_a_worker_killed_mid_round_loses_nothing_and_a_task_delivered_twice_changes_nothing(
    tmp_path: Path,
) -> None:
    with redis_server(tmp_path / "redis") as redis_url:  # its own: nothing to empty
        _worker_killed_mid_round(tmp_path, _env(tmp_path, redis_url))


def _worker_killed_mid_round(tmp_path: Path, env: dict[str, str]) -> None:
    round_id = scenario(tmp_path, env, seconds=600)
    first, second = tmp_path / "worker-a.log", tmp_path / "worker-b.log"
    with worker(env, first, beat=False) as a:
        wait_for(
            tmp_path,
            "SELECT tops_ready_at IS NOT NULL FROM tournament_round WHERE id = ?",
            round_id,
            expect=1,
            seconds=60,
            logs=[first],
        )
        os.killpg(
            a.pid, signal.SIGKILL
        )  # mid-round: it holds the countdown task, never acknowledged
        a.wait()
    assert query(tmp_path, "SELECT status FROM tournament_round WHERE id = ?", round_id) == [
        ("open",)
    ]
    manage(env, "shell", "-c", DUE_NOW.format(round=round_id))  # its countdown is the dead one's
    with worker(env, second, beat=True):
        wait_for(
            tmp_path,
            "SELECT status FROM tournament_round WHERE id = ?",
            round_id,
            expect="scored",
            seconds=60,
            logs=[first, second],
        )
        rulings, audit = results(tmp_path, round_id)
        assert rulings == EXPECTED
        manage(env, "shell", "-c", RESEND.format(round=round_id))  # delivered again
        time.sleep(4)
        assert results(tmp_path, round_id) == (rulings, audit)
    assert audit == [("arbiter.round.closed", 1), ("arbiter.round.scored", 1)]


@pytest.mark.slow
def test_the_embedded_broker_closes_and_scores_the_round_at_its_deadline(tmp_path: Path) -> None:
    env = _env(tmp_path, None)
    round_id = scenario(tmp_path, env)
    log = tmp_path / "embedded.log"
    with worker(env, log, beat=True):
        wait_for(
            tmp_path,
            "SELECT status FROM tournament_round WHERE id = ?",
            round_id,
            expect="scored",
            seconds=60,
            logs=[log],
        )
    rulings, audit = results(tmp_path, round_id)
    assert rulings == EXPECTED
    assert audit == [("arbiter.round.closed", 1), ("arbiter.round.scored", 1)]
