"""The cache fails open (config.cache): a Redis that does not answer is a miss, never an error,
with one warning when it goes and one when it is back."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import pytest
from django.core.cache.backends.redis import RedisCache

from config import cache as fail_open
from config.cache import FailOpenRedisCache
from tests.faults.stack import Stack

NOBODY = "redis://127.0.0.1:1/0"  # nothing listens on port 1


@pytest.fixture(autouse=True)
def _no_outage_remembered():
    fail_open._retry_at.clear()
    yield
    fail_open._retry_at.clear()


def test_a_cache_nobody_answers_reads_as_misses_and_drops_writes(caplog) -> None:
    cache = FailOpenRedisCache(NOBODY, {})
    with caplog.at_level(logging.WARNING, logger="config.cache"):
        assert cache.get("bucket", []) == []
        cache.set("bucket", [1, 2, 3], 60)
        assert cache.add("bucket", [1]) is False
        assert cache.get_many(["a", "b"]) == {}
        assert cache.set_many({"a": 1, "b": 2}) == ["a", "b"]
        assert cache.delete("bucket") is False
        assert cache.has_key("bucket") is False
        assert cache.get_or_set("standings", lambda: "computed") == "computed"
    warnings = [r for r in caplog.records if r.name == "config.cache"]
    assert len(warnings) == 1  # once per outage, not once per call
    assert "does not answer" in warnings[0].getMessage()


def test_during_an_outage_redis_is_tried_at_most_once_a_second(monkeypatch) -> None:
    cache = FailOpenRedisCache(NOBODY, {})
    calls = []
    real = RedisCache.get

    def counting_get(self, *args, **kwargs):
        calls.append(args)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(RedisCache, "get", counting_get)  # Django's: the one that asks Redis
    for _ in range(50):
        cache.get("bucket")
    assert len(calls) == 1
    fail_open._retry_at[NOBODY] = time.monotonic() - 0.01  # a second later
    cache.get("bucket")
    assert len(calls) == 2


@pytest.mark.redis
def test_the_cache_works_again_as_soon_as_redis_is_back(tmp_path: Path, caplog) -> None:
    stack = Stack(tmp_path)  # our own redis-server on a free port
    try:
        redis = stack.redis()
        cache = FailOpenRedisCache(stack.redis_url, {})
        cache.set("standings", "before", 60)
        assert cache.get("standings") == "before"
        redis.kill()
        with caplog.at_level(logging.WARNING, logger="config.cache"):
            assert cache.get("standings", "missed") == "missed"
            stack.redis()  # back, empty
            fail_open._retry_at[stack.redis_url] = 0.0  # do not wait the second out
            cache.set("standings", "after", 60)
            assert cache.get("standings") == "after"
        messages = [r.getMessage() for r in caplog.records if r.name == "config.cache"]
        assert [m.split(" ")[-2:] for m in messages][-1] == ["answers", "again."]
        assert any("does not answer" in m for m in messages)
    finally:
        stack.close()
