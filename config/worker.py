"""The worker's consumer (``worker_consumer`` in the settings): Celery's, reconnecting to a
broker that went away every ``RECONNECT_SECONDS``, however long it stays away.

- kombu waits 2, 4, 6 ... up to 30 s between attempts to reconnect, so a broker back after a
  long outage could wait half a minute for the worker (and the rounds for their close); here
  every 2 s (``broker_connection_max_retries = None`` in the settings: never give up).
- Celery 5.7.0 cleans up a lost connection in a way that can raise ``AttributeError`` from
  kombu (see ``config.redis_broker``, which removes the cause on Redis); should another path
  raise it there, it is logged and the reconnect goes on instead of the worker stopping.
"""

from __future__ import annotations

import functools
import logging

import kombu
from celery.worker.consumer import Consumer as CeleryConsumer

logger = logging.getLogger(__name__)

RECONNECT_SECONDS = 2


class Consumer(CeleryConsumer):
    def ensure_connected(self, conn: kombu.Connection) -> kombu.Connection:
        retry = functools.partial(
            conn.ensure_connection,
            interval_start=RECONNECT_SECONDS,
            interval_step=0,
            interval_max=RECONNECT_SECONDS,
        )
        setattr(conn, "ensure_connection", retry)  # noqa: B010 - shadows the method on this one
        return super().ensure_connected(conn)

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        try:
            super().on_connection_error_after_connected(exc)
        except AttributeError as error:
            logger.warning(
                "Cleaning up the lost broker connection failed (%s); reconnecting anyway. "
                "Unacknowledged messages come back after the visibility timeout.",
                error,
            )
