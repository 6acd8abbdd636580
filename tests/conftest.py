"""Fixtures and the service markers for the Django side of the suite.

``@pytest.mark.redis`` and ``@pytest.mark.postgres`` tests skip, with the reason, when the
service is not there, and fail instead under ``REQUIRE_SERVICES=1`` (CI): a missing service
is never a silent pass there.

- redis: a Redis answering at ``$TEST_REDIS_URL`` (default ``redis://127.0.0.1:6379/15``).
- postgres: the run's database is PostgreSQL. ``make test`` runs them in a second pass
  with ``DATABASE_URL=$TEST_POSTGRES_URL`` when that variable is set.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import cache

import pytest
from django.conf import settings
from django.test import Client

from tests.factories import EventFactory, EventRoleFactory, UserFactory

DEFAULT_TEST_REDIS_URL = "redis://127.0.0.1:6379/15"

# The SQLite test database is a file (in memory, /dev/shm, where there is one), not SQLite's
# shared-cache memory database: the browser tests' live server answers the pages' polls on its
# own threads while the test writes, and a shared cache locks whole tables with no waiting
# ("database table is locked", at once); a file has the product's own settings (WAL, BEGIN
# IMMEDIATE, the busy timeout: config/env.py), readers go on while one writes.
_database = settings.DATABASES["default"]
if _database["ENGINE"].endswith("sqlite3") and not _database.get("TEST", {}).get("NAME"):
    _folder = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    import tempfile

    _database.setdefault("TEST", {})["NAME"] = os.path.join(
        _folder or tempfile.gettempdir(), f"duplicate-tests-{os.getpid()}.sqlite3"
    )


def services_required() -> bool:
    return os.environ.get("REQUIRE_SERVICES", "") in {"1", "true", "yes"}


def test_redis_url() -> str:
    return os.environ.get("TEST_REDIS_URL") or DEFAULT_TEST_REDIS_URL


test_redis_url.__test__ = False  # type: ignore[attr-defined] - a helper, not a test


@cache
def _redis_unavailable() -> str | None:
    """Why Redis cannot be used, or None when it answers."""
    import redis

    url = test_redis_url()
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)
        client.ping()
        client.close()
    except Exception as exc:  # any failure means: no usable Redis
        return f"no Redis answers at {url} ({type(exc).__name__}: {exc})"
    return None


def _postgres_unavailable() -> str | None:
    engine = settings.DATABASES["default"]["ENGINE"]
    if engine.endswith("postgresql"):
        return None
    return (
        "needs PostgreSQL: run with DATABASE_URL=postgres://... "
        "(make test does it when TEST_POSTGRES_URL is set)"
    )


def pytest_itemcollected(item: pytest.Item) -> None:
    """``make test`` runs the suite on every core (pytest-xdist, ``--dist loadgroup``). The
    tests that share the Redis at ``$TEST_REDIS_URL`` (its queues, its channels: a worker
    started by one test takes the tasks another sent) and the fault tests (each starts a whole
    stack and times its rounds against the clock) run one at a time, on one of the workers."""
    # Every other test goes with its module (its fixtures, the French list's build, are set up
    # once). Marked as each test is collected: pytest-xdist reads the groups in its own
    # pytest_collection_modifyitems, which runs before the suite's (tests/test_parallel.py).
    if item.get_closest_marker("redis") is not None or item.nodeid.startswith("tests/faults/"):
        item.add_marker(pytest.mark.xdist_group("services"))
    else:
        item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))


def pytest_runtest_setup(item: pytest.Item) -> None:
    reasons = []
    if item.get_closest_marker("redis") is not None:
        reasons.append(_redis_unavailable())
    if item.get_closest_marker("postgres") is not None:
        reasons.append(_postgres_unavailable())
    for reason in filter(None, reasons):
        if services_required():
            pytest.fail(f"REQUIRE_SERVICES=1 but the test {reason}", pytrace=False)
        pytest.skip(reason)


# --- Personas ------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _fresh_local_caches() -> Iterator[None]:
    """Each test starts with empty in-process caches (a cached ranking of an earlier test's
    event, whose ids and times a later test may repeat, is not this test's). A shared cache
    (Redis) is never cleared: its data may not be the suite's."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    for alias in settings.CACHES:
        if isinstance(caches[alias], LocMemCache):
            caches[alias].clear()
    yield


@pytest.fixture
def superuser(db):
    return UserFactory(username="boss", is_superuser=True, is_staff=True)


@pytest.fixture
def director(db):
    """A club director: no superuser, director of ``event``."""
    return UserFactory(username="dora")


@pytest.fixture
def outsider(db):
    """An account with no role in any event."""
    return UserFactory(username="otto")


@pytest.fixture
def event(db, director):
    event = EventFactory(name="Spring open")
    EventRoleFactory(event=event, user=director, role="director")
    return event


@pytest.fixture
def client_for() -> Iterator:
    """``client_for(user)``: a test client logged in as ``user``."""

    def make(user) -> Client:
        client = Client()
        client.force_login(user)
        return client

    yield make


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts in the site's language: Django's locale middleware activates a
    request's language in the thread and leaves it there, so a French request of an earlier
    test would otherwise speak in the next one."""
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """PBKDF2 is slow on purpose; tests need no protection from brute force."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(params=["main", pytest.param("postgres", marks=pytest.mark.postgres)])
def each_database(request: pytest.FixtureRequest) -> str:
    """Runs a test in both passes of ``make test``: on the main run's database (SQLite) and
    again, marked ``postgres``, in the PostgreSQL pass, where NUL bytes and integer overflows
    fail differently. Use it as ``pytestmark = pytest.mark.usefixtures("each_database")``."""
    return str(request.param)
