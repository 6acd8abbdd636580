"""Where the live versions live: Redis (every process sees them), else this process's memory
(the embedded run's one web process, and the tests).

A version is a random token, replaced after every commit that changes what it stands for:
``ev`` for what every phone of an event shows alike, ``pv`` for one player's own part. The
phone's version is ``<ev>.<pv>``: a poll that brings it back unchanged is answered 304 from
here, without the database. Tokens are compared, never ordered: a token is only ever attached
to what was read after the commit that set it, so a phone holding the current token holds the
current state. A missing token (Redis emptied, a key expired) is set anew, which a phone reads
as a change.

The player tokens the stream and the poll were shown are remembered here too (by digest, for
``TOKEN_SECONDS``): a poll is authenticated once, by its token, without the database; a revoked
or reissued token is forgotten at once (``bus``).
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)

VERSION_SECONDS = 7 * 24 * 3600
TOKEN_SECONDS = 300
CHANNEL = "live"
# Per web process, for the polls and the streams' catch-ups. A connection is held while the
# process's event loop comes back to its answer: on a busy process (1,000 polling phones and
# 1,000 slips in 10 s) 16 were all held past the pool's wait, and each wait refused then sent
# its poll through Django's view (a full reading); Redis holds thousands of connections.
ASYNC_CONNECTIONS = 64


POOL_BUSY = "No connection available."  # redis-py's pool waited its time for a connection


def event_key(event_id: int) -> str:
    return f"live:ev:{event_id}"


def player_key(player_id: int) -> str:
    return f"live:pv:{player_id}"


def token_key(digest: str) -> str:
    return f"live:tok:{digest}"


def new_version() -> str:
    return secrets.token_hex(4)


class LocalStore:
    """The versions in this process's memory: right where one web process serves every phone
    (the embedded run) and the changes of other processes reach it (``bus``'s datagrams)."""

    shared = False

    def __init__(self) -> None:
        self._values: dict[str, tuple[str, float]] = {}
        self._lock = threading.Lock()

    def _get(self, key: str) -> str | None:
        found = self._values.get(key)
        if found is None or (found[1] and found[1] < time.monotonic()):
            return None
        return found[0]

    def versions(self, keys: list[str]) -> list[str] | None:
        with self._lock:
            out = []
            for key in keys:
                value = self._get(key)
                if value is None:
                    value = new_version()
                    self._values[key] = (value, 0.0)
                out.append(value)
            return out

    def bump(self, keys: list[str], tokens: list[str]) -> None:
        with self._lock:
            for key, token in zip(keys, tokens, strict=True):
                self._values[key] = (token, 0.0)

    def token_get(self, digest: str) -> str | None:
        with self._lock:
            return self._get(token_key(digest))

    def token_set(self, digest: str, value: str) -> None:
        with self._lock:
            self._values[token_key(digest)] = (value, time.monotonic() + TOKEN_SECONDS)

    def token_forget(self, digest: str) -> None:
        with self._lock:
            self._values.pop(token_key(digest), None)

    async def aversions(self, keys: list[str]) -> list[str] | None:
        return self.versions(keys)

    async def atoken_get(self, digest: str) -> str | None:
        return self.token_get(digest)

    async def atoken_set(self, digest: str, value: str) -> None:
        self.token_set(digest, value)


class RedisStore:
    """The versions in Redis, shared by every process of every node. A Redis that does not
    answer reads as None (the callers fall back on the database) and drops writes, as the cache
    does (``config.cache``)."""

    shared = True

    def __init__(self, url: str) -> None:
        import redis

        self.url = url
        self.client = redis.Redis.from_url(
            url, decode_responses=True, socket_connect_timeout=0.5, socket_timeout=1.0
        )
        self._async: dict[int, Any] = {}  # id(event loop) -> its asyncio client
        self._down_until = 0.0

    def _down(self, exc: Exception) -> None:
        if str(exc) == POOL_BUSY:  # this process's pool was busy: Redis itself answers
            logger.warning("Live versions: every connection to Redis of this process is busy.")
            return
        if self._down_until < time.monotonic():
            logger.warning("Live versions: Redis does not answer (%s).", exc)
        self._down_until = time.monotonic() + 1.0

    def _up(self) -> bool:
        return self._down_until < time.monotonic()

    def versions(self, keys: list[str]) -> list[str] | None:
        import redis

        if not self._up():
            return None
        try:
            values = self.client.mget(keys)
            if None in values:
                fresh = {k: new_version() for k, v in zip(keys, values, strict=True) if v is None}
                pipe = self.client.pipeline()
                for key, token in fresh.items():
                    pipe.set(key, token, nx=True, ex=VERSION_SECONDS)
                pipe.execute()
                values = self.client.mget(keys)
            return [str(v) for v in values]
        except redis.RedisError as exc:
            self._down(exc)
            return None

    def bump(self, keys: list[str], tokens: list[str], *, message: str | None = None) -> bool:
        import redis

        try:
            pipe = self.client.pipeline(transaction=False)
            for key, token in zip(keys, tokens, strict=True):
                pipe.set(key, token, ex=VERSION_SECONDS)
            if message is not None:
                pipe.publish(CHANNEL, message)
            pipe.execute()
            return True
        except redis.RedisError as exc:
            self._down(exc)
            return False

    def token_get(self, digest: str) -> str | None:
        import redis

        if not self._up():
            return None
        try:
            value = self.client.get(token_key(digest))
        except redis.RedisError as exc:
            self._down(exc)
            return None
        return None if value is None else str(value)

    def token_set(self, digest: str, value: str) -> None:
        import redis

        try:
            self.client.set(token_key(digest), value, ex=TOKEN_SECONDS)
        except redis.RedisError as exc:
            self._down(exc)

    def token_forget(self, digest: str) -> None:
        import redis

        try:
            self.client.delete(token_key(digest))
        except redis.RedisError as exc:
            self._down(exc)

    def aclient(self) -> Any:
        """This event loop's asyncio client (one pool per loop)."""
        import asyncio

        import redis.asyncio

        loop = asyncio.get_running_loop()
        client = self._async.get(id(loop))
        if client is None:
            # A bounded pool that waits for a free connection: a room's polls at once would
            # otherwise open a connection each, until Redis refuses more ("Too many
            # connections"), and every poll then went to the database.
            pool = redis.asyncio.BlockingConnectionPool.from_url(
                self.url,
                max_connections=ASYNC_CONNECTIONS,
                timeout=2.0,
                decode_responses=True,
                socket_connect_timeout=0.5,
                socket_timeout=1.0,
            )
            client = redis.asyncio.Redis(connection_pool=pool)
            self._async[id(loop)] = client
        return client

    async def aversions(self, keys: list[str]) -> list[str] | None:
        import redis

        if not self._up():
            return None
        client = self.aclient()
        try:
            values = await client.mget(keys)
            if None in values:
                for key, value in zip(keys, values, strict=True):
                    if value is None:
                        await client.set(key, new_version(), nx=True, ex=VERSION_SECONDS)
                values = await client.mget(keys)
            return [str(v) for v in values]
        except (redis.RedisError, OSError) as exc:
            self._down(exc)
            return None

    async def atoken_get(self, digest: str) -> str | None:
        import redis

        if not self._up():
            return None
        try:
            value = await self.aclient().get(token_key(digest))
        except (redis.RedisError, OSError) as exc:
            self._down(exc)
            return None
        return None if value is None else str(value)

    async def atoken_set(self, digest: str, value: str) -> None:
        import redis

        try:
            await self.aclient().set(token_key(digest), value, ex=TOKEN_SECONDS)
        except (redis.RedisError, OSError) as exc:
            self._down(exc)


_store: LocalStore | RedisStore | None = None
_store_lock = threading.Lock()


def store() -> LocalStore | RedisStore:
    """This process's store: Redis when ``REDIS_URL`` is set, else its memory."""
    global _store
    with _store_lock:
        url = settings.REDIS_URL
        if _store is None or (isinstance(_store, RedisStore) and _store.url != url):
            _store = RedisStore(url) if url else LocalStore()
        elif url is None and isinstance(_store, RedisStore):
            _store = LocalStore()
        return _store


def live_version(*, event_id: int, player_id: int) -> str | None:
    """The phone's version, ``<ev>.<pv>``; None when it cannot be read (Redis down)."""
    values = store().versions([event_key(event_id), player_key(player_id)])
    return None if values is None else ".".join(values)
