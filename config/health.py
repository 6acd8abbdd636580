"""Checks behind ``/healthz``: can we query the database, can we reach the broker, has a
worker run the health task lately (its heartbeat, ``tournament.services.health``), is every
round closed that should be (none open more than a few seconds past its deadline and grace)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from config.brokers import embedded_broker_folders
from tournament.services.health import queue_heartbeats_last, worker_heartbeat_last


@dataclass(frozen=True)
class Check:
    name: str  # what was checked: "sqlite", "postgresql", "redis", "filesystem", "celery"
    ok: bool
    error: str = ""

    def describe(self) -> dict[str, Any]:
        result: dict[str, Any] = {"kind": self.name, "status": "ok" if self.ok else "error"}
        if self.error:
            result["error"] = self.error
        return result


def database_status(connection: Any) -> Check:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:
        return Check(connection.vendor, False, f"{type(exc).__name__}: {exc}")
    return Check(connection.vendor, True)


def broker_status(*, redis_url: str | None, celery_dir: Path) -> Check:
    if redis_url is not None:
        import redis

        try:
            client = redis.Redis.from_url(redis_url, socket_connect_timeout=1, socket_timeout=1)
            try:
                client.ping()
            finally:
                client.close()
        except Exception as exc:
            return Check("redis", False, f"{type(exc).__name__}: {exc}")
        return Check("redis", True)

    for path in embedded_broker_folders(celery_dir).values():
        if not (path.is_dir() and os.access(path, os.W_OK)):
            return Check("filesystem", False, f"{path} is not a writable folder")
    return Check("filesystem", True)


def worker_status(*, now: datetime, max_age: float) -> Check:
    """A worker ran the health task less than ``max_age`` seconds ago (beat sends it)."""
    beat = worker_heartbeat_last()
    if beat is None:
        return Check(
            "celery",
            False,
            "no worker heartbeat found: none recorded yet (are the worker and beat running?), "
            "or the cache that holds it does not answer",
        )
    age = (now - beat["at"]).total_seconds()
    if age > max_age:
        return Check(
            "celery",
            False,
            f"the last worker heartbeat is {age:.0f} s old (more than {max_age:.0f} s): "
            "no worker is running tasks, or beat is not sending them",
        )
    return Check("celery", True)


def queues_status(*, queues: list[str], now: datetime, max_age: float) -> Check:
    """Every queue tasks are sent to has a live consumer: a worker consuming it wrote its
    heartbeat less than ``max_age`` seconds ago (from its main process, busy or not). The error
    names each queue without one."""
    from django.utils.translation import gettext

    try:
        last = queue_heartbeats_last(queues)
    except Exception as exc:
        return Check("celery", False, f"{type(exc).__name__}: {exc}")
    missing = []
    for queue, at in last.items():
        if at is None:
            missing.append(gettext("%(queue)s (no worker seen)") % {"queue": queue})
        elif (age := (now - at).total_seconds()) > max_age:
            missing.append(
                gettext("%(queue)s (last worker seen %(seconds)s s ago)")
                % {"queue": queue, "seconds": f"{age:.0f}"}
            )
    if not missing:
        return Check("celery", True)
    return Check(
        "celery",
        False,
        gettext(
            "no live worker consumes the queue(s): %(queues)s. Start a worker for each "
            "(README, 'With Redis and PostgreSQL'), or the cache that holds their heartbeats "
            "does not answer."
        )
        % {"queues": "; ".join(missing)},
    )


def rounds_status(*, now: datetime, tolerance: float) -> Check:
    """No round is open more than ``tolerance`` seconds past its deadline and grace: the
    workers' watch closes them within ``ROUNDS_SWEEP_SECONDS``, so one that is names a failure
    (no worker alive, or the database refusing their writes)."""
    from django.utils.translation import gettext, ngettext

    from arbiter.services.clock import rounds_overdue

    try:
        late = rounds_overdue(now=now, tolerance=tolerance)
    except Exception as exc:
        return Check("rounds", False, f"{type(exc).__name__}: {exc}")
    if not late:
        return Check("rounds", True)
    named = "; ".join(
        gettext(
            "round %(number)s of game %(game)s of %(event)s (id %(id)s), %(seconds)s s past its "
            "deadline and grace"
        )
        % {
            "number": round.number,
            "game": round.game.number,
            "event": round.game.event.name,
            "id": round.pk,
            "seconds": f"{past:.0f}",
        }
        for round, past in late
    )
    return Check(
        "rounds",
        False,
        ngettext(
            "%(count)s round is still open: %(rounds)s. No worker closes rounds (are the "
            "workers running?).",
            "%(count)s rounds are still open: %(rounds)s. No worker closes rounds (are the "
            "workers running?).",
            len(late),
        )
        % {"count": len(late), "rounds": named},
    )
