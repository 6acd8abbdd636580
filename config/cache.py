"""The cache fails open: a Redis that does not answer is a cache miss, never an error.

The cache holds only what can be recomputed (the API's rate-limit buckets, the standings shown
to phones, the worker's heartbeat), so a slip must not fail because Redis does. While Redis is
down reads miss, writes are dropped and rate limits are not enforced; one warning is logged
when it goes and one when it answers again. Redis is tried again at most once a second per
process meanwhile, so requests do not each wait for a connection that will not come.
``incr`` and ``decr`` still raise: nothing here uses them, and a counter that reads wrong in
silence would be worse than an error.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

T = TypeVar("T")

RETRY_SECONDS = 1.0
# Redis on the same machine or network answers in a millisecond: a second means it is gone.
CONNECT_TIMEOUT_SECONDS = 0.5
COMMAND_TIMEOUT_SECONDS = 1.0

# Django keeps one cache object per thread (per request under ASGI): the outage is the
# process's, by location, and so are the connections.
_lock = threading.Lock()
_retry_at: dict[str, float] = {}  # location -> time.monotonic() before which Redis is not tried
_clients: dict[tuple[str, str], Any] = {}  # (location, options) -> the process's client


class SharedRedisCacheClient(RedisCacheClient):
    """Django's Redis cache client, with one ``redis.Redis`` per connection pool: Django's makes
    a new one (its response callbacks, its locks) for every command, 7 % of a slip's time in
    its request's thread for the three commands a slip sends. A ``redis.Redis`` is safe to
    share between threads: each command takes a connection from the pool."""

    def __init__(self, servers: Any, **options: Any) -> None:
        super().__init__(servers, **options)
        self._redis: dict[int, Any] = {}  # id(pool) -> its client

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]  # Django's
        client = self._redis.get(id(pool))
        if client is None:
            make: Any = self._client  # type: ignore[attr-defined]  # Django's: redis.Redis
            with _lock:
                client = self._redis.setdefault(id(pool), make(connection_pool=pool))
        return client


class FailOpenRedisCache(RedisCache):
    """Django's Redis cache, except that an unreachable Redis reads as a miss (see above)."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        options = {
            "socket_connect_timeout": CONNECT_TIMEOUT_SECONDS,
            "socket_timeout": COMMAND_TIMEOUT_SECONDS,
            **params.get("OPTIONS", {}),
        }
        super().__init__(server, {**params, "OPTIONS": options})
        self._class = SharedRedisCacheClient
        self._location = ",".join([server] if isinstance(server, str) else server)

    @cached_property
    def _cache(self) -> Any:
        """One client (and so one pool of connections) per process and location: under ASGI
        Django makes a cache object per request, whose own pool opened a connection to Redis
        for each request (14 % of a slip's time in the web process)."""
        options: dict[str, Any] = self._options  # type: ignore[attr-defined]  # RedisCache's
        servers: Any = self._servers  # type: ignore[attr-defined]
        make: Any = self._class
        key = (self._location, repr(sorted(options.items())))
        with _lock:
            client = _clients.get(key)
            if client is None:
                client = _clients[key] = make(servers, **options)
        return client

    def _guarded(self, call: Callable[[], T], fallback: T) -> T:
        if _retry_at.get(self._location, 0.0) > time.monotonic():
            return fallback
        try:
            result = call()
        except RedisError as exc:
            with _lock:
                first = self._location not in _retry_at
                _retry_at[self._location] = time.monotonic() + RETRY_SECONDS
            if first:
                logger.warning(
                    "The cache at %s does not answer (%s: %s): reads miss and writes are "
                    "dropped until it does; rate limits are not enforced meanwhile.",
                    self._location,
                    type(exc).__name__,
                    exc,
                )
            return fallback
        if self._location in _retry_at:
            with _lock:
                back = _retry_at.pop(self._location, None) is not None
            if back:
                logger.warning("The cache at %s answers again.", self._location)
        return result

    def get(self, key: Any, default: Any | None = None, version: int | None = None) -> Any:
        return self._guarded(functools.partial(super().get, key, default, version), default)

    def set(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> None:
        self._guarded(functools.partial(super().set, key, value, timeout, version), None)

    def add(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> bool:
        return self._guarded(functools.partial(super().add, key, value, timeout, version), False)

    def touch(
        self, key: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        return self._guarded(functools.partial(super().touch, key, timeout, version), False)

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._guarded(functools.partial(super().delete, key, version), False)

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        return self._guarded(functools.partial(super().get_many, keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._guarded(functools.partial(super().has_key, key, version), False)

    def set_many(
        self,
        data: dict[Any, Any],
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> list[Any]:
        # Django's contract: the keys that could not be set.
        unset = list(data)
        return self._guarded(functools.partial(super().set_many, data, timeout, version), unset)

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        self._guarded(functools.partial(super().delete_many, keys, version), None)

    def clear(self) -> None:
        self._guarded(super().clear, None)
