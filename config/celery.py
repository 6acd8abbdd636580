"""The Celery app: ``celery -A config worker`` / ``celery -A config beat``.

Its settings are the ``CELERY_*`` names in ``config.settings``: Redis when ``REDIS_URL`` is
set, otherwise the embedded filesystem broker under ``var/celery/``. Tasks live in each app's
``tasks.py`` and only call services. A worker records its heartbeat as soon as it is ready,
then each time beat sends it the health task (``HEALTH_HEARTBEAT_SECONDS``); /healthz reads it.

Every worker keeps its own watch on the rounds (``RoundsWatch``, a thread of its main process,
every ``ROUNDS_SWEEP_SECONDS``): it closes and scores the rounds past their deadline and grace,
and marks failed the word lists whose compile stopped giving its heartbeat. So a round closes on
time with beat down, with the worker that held its countdown task killed, or both, as long as
one worker of any queue lives. While Redis does not answer, neither beat's sweep nor a round's
countdown task reaches a worker, so the watch runs the whole rounds sweep (tops and publishing
too): rounds close on the server clock and are scored, with or without the broker. Everything
it does is idempotent (each round is claimed by a conditional UPDATE), so several workers doing
it at once do no harm.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Any

from celery import Celery
from celery.signals import (
    after_setup_logger,
    after_setup_task_logger,
    worker_ready,
    worker_shutdown,
)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

logger = logging.getLogger("config.celery")


@after_setup_logger.connect
@after_setup_task_logger.connect
def _one_line_per_episode(logger: logging.Logger, **kwargs: Any) -> None:
    """A worker's warnings and errors too: one line per episode (config/log_episodes.py)."""
    from config.log_episodes import OneLinePerEpisode

    for handler in logger.handlers:
        if not any(isinstance(f, OneLinePerEpisode) for f in handler.filters):
            handler.addFilter(OneLinePerEpisode())


@worker_ready.connect
def _heartbeat_when_ready(**kwargs: Any) -> None:
    from tournament.services.health import health_ping_record

    health_ping_record(stamp="ready")


class RoundsWatch(threading.Thread):
    """In a worker's main process: every ``interval`` seconds, closes and scores the overdue
    rounds and reaps the word lists whose compile died (``check``). It also asks Redis (the
    broker, ``broker_url``; None for the folder broker, which never goes away) for a PING;
    while it does not answer, the whole rounds sweep runs here (the deadline in the database is
    the truth), said in the log once when the broker goes and once when it is back."""

    def __init__(self, broker_url: str | None, interval: float) -> None:
        super().__init__(name="rounds-watch", daemon=True)
        self.broker_url = broker_url
        self.interval = interval
        self.stopped = threading.Event()
        self.down = False

    def broker_answers(self) -> bool:
        if self.broker_url is None:
            return True
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

    def check(self) -> dict[str, int]:
        """One round of the watch: what it did (``closed``, ``scored``, and ``tops`` and
        ``published`` while the broker does not answer; ``word_lists_failed``)."""
        from django.db import connections

        from arbiter.services.clock import rounds_close_overdue, rounds_sweep
        from tournament.services.word_lists import word_lists_reap

        try:
            if self.broker_answers():
                if self.down:
                    logger.warning(
                        "The broker answers again: beat's sweep and the tasks take over."
                    )
                self.down = False
                done = rounds_close_overdue()
                if done["closed"]:
                    logger.info("Closed overdue rounds (before their countdown task): %s", done)
            else:
                if not self.down:
                    logger.warning(
                        "The broker does not answer: this worker sweeps the rounds itself every "
                        "%s s.",
                        self.interval,
                    )
                self.down = True
                done = rounds_sweep(tops_here=True)
                if any(done.values()):
                    logger.warning("Swept without the broker: %s", done)
            return done | {"word_lists_failed": word_lists_reap()}
        finally:
            connections.close_all()  # this thread's: it sleeps until the next watch

    def run(self) -> None:
        while not self.stopped.wait(self.interval):
            try:
                self.check()
            except Exception:  # the database too may be away: log, and try again next time
                logger.exception("The rounds watch failed.")


class QueueHeartbeat(threading.Thread):
    """In a worker's main process: every ``interval`` seconds, records that a worker consumes
    ``queues`` (``/healthz`` names each queue without one). The main process consumes while its
    pool runs tasks, so a worker busy compiling a word list still counts as alive."""

    def __init__(self, queues: list[str], interval: float) -> None:
        super().__init__(name="queue-heartbeat", daemon=True)
        self.queues = queues
        self.interval = interval
        self.stopped = threading.Event()

    def run(self) -> None:
        from tournament.services.health import queue_heartbeat_record

        while True:
            try:
                queue_heartbeat_record(queues=self.queues)
            except Exception:  # the cache fails open; anything else: said, and tried again
                logger.warning("The queues' heartbeat was not written.", exc_info=True)
            if self.stopped.wait(self.interval):
                return


def consumed_queues(consumer: Any) -> list[str]:
    """The queues a worker consumes (``-Q``), from its consumer (``worker_ready``'s sender)."""
    queues = getattr(getattr(consumer, "task_consumer", None), "queues", None) or []
    names = sorted({str(q.name) for q in queues})
    return names or sorted(app.amqp.queues.consume_from or app.amqp.queues)


_watch: RoundsWatch | None = None
_heartbeat: QueueHeartbeat | None = None


@worker_ready.connect
def _watch_the_rounds(**kwargs: Any) -> None:
    from django.conf import settings

    global _watch
    url = str(app.conf.broker_url or "")
    redis_url = url if url.startswith(("redis://", "rediss://")) else None
    _watch = RoundsWatch(redis_url, float(settings.ROUNDS_SWEEP_SECONDS))
    _watch.start()
    global _heartbeat
    _heartbeat = QueueHeartbeat(
        consumed_queues(kwargs.get("sender")), float(settings.HEALTH_HEARTBEAT_SECONDS)
    )
    _heartbeat.start()


@worker_shutdown.connect
def _stop_watching(**kwargs: Any) -> None:
    if _watch is not None:
        _watch.stopped.set()
    if _heartbeat is not None:
        _heartbeat.stopped.set()
