"""kombu's Redis transport, whose channels outlive the connection they were made on.

When the broker connection drops, Celery 5.7.0's consumer collects it (kombu detaches the
transport: ``transport.client = None``) and then closes it, which drops the channel's Redis
connection pool. Whatever the old channel does next needs a new pool, and kombu builds it
from ``transport.client.hostname``: ``AttributeError: 'NoneType' object has no attribute
'hostname'``, which no one catches, so the worker stops ("Unrecoverable error"). It happens
on the close itself when unacknowledged messages are restored, and later when a countdown
task received before the drop (a round's close always is one) runs and is acknowledged on its
old channel. Celery 5.6 did not close the collected connection, so the pool survived.

Here a channel keeps the connection's details it was made with and lends them back to a
detached transport, so the old channel opens a new pool to the same Redis: the restore and
the late acknowledgement work once Redis answers (or fail with a connection error, which
Celery expects and logs) and the worker carries on.
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis


class Channel(redis.Channel):
    def __init__(self, connection: Any, **kwargs: Any) -> None:
        self._made_with = connection.client  # connection is the transport; client its details
        super().__init__(connection, **kwargs)

    def _connparams(self, asynchronous: bool = False) -> dict[str, Any]:
        if self.connection.client is None:
            self.connection.client = self._made_with
        params: dict[str, Any] = super()._connparams(asynchronous=asynchronous)  # type: ignore[misc]
        return params


class Transport(redis.Transport):
    Channel = Channel
