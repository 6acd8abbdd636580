"""The Celery app: ``celery -A config worker`` / ``celery -A config beat``.

Its settings are the ``CELERY_*`` names in ``config.settings``: Redis when ``REDIS_URL`` is
set, otherwise the embedded filesystem broker under ``var/celery/``. Tasks live in each app's
``tasks.py`` and only call services. A worker records its heartbeat as soon as it is ready,
then each time beat sends it the health task (``HEALTH_HEARTBEAT_SECONDS``); /healthz reads it.

While Redis does not answer, neither beat's sweep nor a round's countdown task reaches a
worker, so each worker runs the rounds sweep itself (``OutageSweeper``): rounds close on the
server clock and are scored, with or without the broker. The sweep is idempotent (each round
is claimed by a conditional UPDATE), so several workers doing it at once do no harm.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from celery import Celery
from celery.signals import worker_ready, worker_shutdown

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger("config.celery")


@worker_ready.connect
def _heartbeat_when_ready(**kwargs: Any) -> None:
    from tournament.services.health import health_ping_record

    health_ping_record(stamp="ready")


class OutageSweeper(threading.Thread):
    """In a worker's main process: every ``interval`` seconds, asks Redis (the broker) for a
    PING; while it does not answer, runs the rounds sweep here (the deadline in the database is
    the truth), and says so in the log once when the broker goes and once when it is back."""

    def __init__(self, broker_url: str, interval: float) -> None:
        super().__init__(name="outage-sweeper", daemon=True)
        self.broker_url = broker_url
        self.interval = interval
        self.stopped = threading.Event()
        self.down = False

    def broker_answers(self) -> bool:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        client = redis.Redis.from_url(
            self.broker_url, socket_connect_timeout=1, socket_timeout=1, retry=Retry(NoBackoff(), 0)
        )
        try:
            return bool(client.ping())
        except (redis.RedisError, OSError):
            return False
        finally:
            client.close()

    def check(self) -> dict[str, int] | None:
        """One round of the watch: what the sweep did, or None when the broker answered."""
        from django.db import connections

        from arbiter.services.clock import rounds_sweep

        if self.broker_answers():
            if self.down:
                logger.warning("The broker answers again: beat's sweep and the tasks take over.")
            self.down = False
            return None
        if not self.down:
            logger.warning(
                "The broker does not answer: this worker sweeps the rounds itself every %s s.",
                self.interval,
            )
        self.down = True
        try:
            done = rounds_sweep()
            if any(done.values()):
                logger.warning("Swept without the broker: %s", done)
            return done
        finally:
            connections.close_all()  # this thread's: it sleeps until the next watch

    def run(self) -> None:
        while not self.stopped.wait(self.interval):
            try:
                self.check()
            except Exception:  # the database too may be away: log, and try again next time
                logger.exception("The rounds sweep without the broker failed.")


_sweeper: OutageSweeper | None = None


@worker_ready.connect
def _sweep_when_the_broker_is_down(**kwargs: Any) -> None:
    from django.conf import settings

    global _sweeper
    url = str(app.conf.broker_url or "")
    if not url.startswith(("redis://", "rediss://")):
        return  # the folder broker is never unreachable: beat's sweep reaches the worker
    _sweeper = OutageSweeper(url, float(settings.ROUNDS_SWEEP_SECONDS))
    _sweeper.start()


@worker_shutdown.connect
def _stop_sweeping(**kwargs: Any) -> None:
    if _sweeper is not None:
        _sweeper.stopped.set()
