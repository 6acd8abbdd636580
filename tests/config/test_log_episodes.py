"""A fault's warnings and errors: one log line per episode, not one per request (issue 34: a
10 s database outage wrote 1,223 error lines). ``config.log_episodes.OneLinePerEpisode`` on the
console handler of every process (Django's LOGGING, the Celery workers' handlers)."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest
from django.conf import settings

from config.log_episodes import OneLinePerEpisode


@pytest.fixture
def written() -> Iterator[tuple[logging.Logger, io.StringIO, OneLinePerEpisode]]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    episodes = OneLinePerEpisode(quiet=30, every=60)
    handler.addFilter(episodes)
    logger = logging.getLogger("tests.episodes")
    logger.propagate = False
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield logger, out, episodes
    finally:
        logger.removeHandler(handler)
        logger.propagate = True


def test_an_error_a_thousand_times_in_one_episode_is_one_line(written) -> None:
    logger, out, _ = written
    for i in range(1000):
        try:
            raise ConnectionError("the database does not answer")
        except ConnectionError:
            logger.exception("Live: event %s could not be read.", i % 7)
    lines = [line for line in out.getvalue().splitlines() if line.startswith("ERROR")]
    assert lines == ["ERROR tests.episodes: Live: event 0 could not be read."]


def test_django_request_lines_are_one_per_reason_whatever_the_path() -> None:
    episodes = OneLinePerEpisode()

    def record(reason: str, path: str) -> logging.LogRecord:
        return logging.LogRecord(
            "django.request", logging.ERROR, __file__, 1, "%s: %s", (reason, path), None
        )

    kept = [
        episodes.filter(record(reason, f"/api/v1/play/{n}"))
        for n in range(50)
        for reason in ("Service Unavailable", "Internal Server Error")
    ]
    assert kept.count(True) == 2


def test_the_next_episode_says_how_many_lines_the_last_one_held(written) -> None:
    logger, out, episodes = written
    for _ in range(5):
        logger.warning("The cache at %s does not answer.", "redis://x")
    key = next(iter(episodes.seen))
    seen, wrote, skipped = episodes.seen[key]
    episodes.seen[key] = (seen - 31, wrote - 31, skipped)  # 31 s of quiet since
    logger.warning("The cache at %s does not answer.", "redis://x")
    lines = out.getvalue().splitlines()
    assert lines[-1].endswith("(a new episode; the last one held 4 more)")
    assert len(lines) == 2


def test_a_long_episode_writes_a_line_a_minute_with_the_count(written) -> None:
    logger, out, episodes = written
    for _ in range(10):
        logger.error("The rounds watch failed.")
    key = next(iter(episodes.seen))
    seen, wrote, skipped = episodes.seen[key]
    episodes.seen[key] = (seen, wrote - 61, skipped)
    logger.error("The rounds watch failed.")
    assert out.getvalue().splitlines()[-1].endswith("(still happening: 9 more since the last line)")


def test_information_lines_are_left_alone(written) -> None:
    logger, out, _ = written
    for _ in range(20):
        logger.info("Task %s received", "arbiter.round_close")
    assert len(out.getvalue().splitlines()) == 20


def test_every_process_writes_through_the_filter() -> None:
    console = settings.LOGGING["handlers"]["console"]
    assert "episodes" in console["filters"]
    assert settings.LOGGING["filters"]["episodes"]["()"] == "config.log_episodes.OneLinePerEpisode"


def test_the_access_logs_refusals_are_one_line_a_minute_with_the_count() -> None:
    """uvicorn's access record: (client, method, path, version, status). 429s are counted;
    every other answer is written."""
    from config.log_episodes import RefusalsCounted

    counted = RefusalsCounted(every=60)

    def record(status: int) -> logging.LogRecord:
        args = ("127.0.0.1:5000", "GET", "/results/x/live/", "1.1", status)
        return logging.LogRecord(
            "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d', args, None
        )

    kept = [counted.filter(record(429)) for _ in range(1000)]
    assert kept.count(True) == 1
    assert all(counted.filter(record(status)) for status in (200, 201, 304, 404, 503))
    counted.every = 0.0  # the next minute: one line, saying how many were not written
    again = record(429)
    assert counted.filter(again)
    assert "(and 999 more answered 429 since the last line)" in again.getMessage()
