from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core.cache import caches
from django.db import connection
from django.utils import timezone

from config.brokers import embedded_broker_prepare
from tournament.services.health import HEARTBEAT_CACHE, queue_heartbeat_record


@pytest.fixture(autouse=True)
def _heartbeats_in_memory(settings, tmp_path):
    """The heartbeat goes to a per-test cache and folder, not to the checkout's var/."""
    settings.CELERY_DIR = tmp_path / "celery"
    embedded_broker_prepare(settings.CELERY_DIR)
    settings.CACHES = {
        **settings.CACHES,
        HEARTBEAT_CACHE: {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    }
    caches[HEARTBEAT_CACHE].clear()


def a_worker_ran_the_health_task(
    seconds_ago: float = 0, queues: tuple[str, ...] = ("celery", "tops", "wordlists")
) -> None:
    """A worker's main process wrote its heartbeat for ``queues`` (config.celery.QueueHeartbeat)."""
    queue_heartbeat_record(
        queues=list(queues), now=timezone.now() - dt.timedelta(seconds=seconds_ago)
    )


@pytest.mark.django_db
def test_healthz_reports_the_database_the_embedded_broker_and_a_live_worker(client):
    a_worker_ran_the_health_task()
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": {"kind": connection.vendor, "status": "ok"},
        "broker": {"kind": "filesystem", "status": "ok"},
        "worker": {"kind": "celery", "status": "ok"},
        "rounds": {"kind": "rounds", "status": "ok"},
    }


@pytest.mark.django_db
def test_healthz_answers_503_when_no_worker_has_ever_run_the_health_task(client):
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["worker"]["status"] == "error"
    said = body["worker"]["error"]
    assert "no live worker consumes the queue(s)" in said
    assert all(f"{q} (no worker seen)" in said for q in ("celery", "tops", "wordlists"))
    assert body["database"]["status"] == body["broker"]["status"] == "ok"


@pytest.mark.django_db
def test_healthz_names_each_queue_without_a_live_consumer_the_word_lists_included(client, settings):
    """Issue 34: a worker busy compiling a word list still writes its heartbeat (from its main
    process), and a deployment without the word lists' worker is named as such."""
    settings.HEALTH_HEARTBEAT_SECONDS = 10
    a_worker_ran_the_health_task(queues=("celery", "tops"))
    response = client.get("/healthz")
    assert response.status_code == 503
    said = response.json()["worker"]["error"]
    assert "wordlists (no worker seen)" in said and "celery" not in said and "tops" not in said
    a_worker_ran_the_health_task(seconds_ago=40, queues=("wordlists",))
    said = client.get("/healthz").json()["worker"]["error"]
    assert "wordlists (last worker seen 40 s ago)" in said
    a_worker_ran_the_health_task(queues=("wordlists",))
    assert client.get("/healthz").status_code == 200


@pytest.mark.django_db
def test_healthz_answers_503_when_the_last_heartbeat_is_three_intervals_old(client, settings):
    settings.HEALTH_HEARTBEAT_SECONDS = 10
    a_worker_ran_the_health_task(seconds_ago=25)
    assert client.get("/healthz").status_code == 200
    a_worker_ran_the_health_task(seconds_ago=35)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert "last worker seen 35 s ago" in response.json()["worker"]["error"]


@pytest.mark.django_db
def test_healthz_runs_only_the_checks_asked_for(client):
    response = client.get("/healthz?checks=database,broker")  # a web container's own health
    assert response.status_code == 200
    assert set(response.json()) == {"status", "database", "broker"}
    response = client.get("/healthz?checks=database,queue")
    assert response.status_code == 400
    assert "queue" in response.json()["detail"]


@pytest.mark.django_db
def test_healthz_answers_503_when_the_broker_does_not(client, settings):
    a_worker_ran_the_health_task()
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["broker"]["kind"] == "redis"
    assert body["broker"]["status"] == "error"
    assert body["database"]["status"] == "ok"


@pytest.mark.redis
@pytest.mark.django_db
def test_healthz_pings_redis_when_it_is_the_broker(client, settings):
    from tests.conftest import test_redis_url

    a_worker_ran_the_health_task()
    settings.REDIS_URL = test_redis_url()
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["broker"] == {"kind": "redis", "status": "ok"}


def test_the_api_schema_is_served(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert b"openapi" in response.content


@pytest.mark.django_db
def test_healthz_answers_503_naming_a_round_open_past_its_deadline_and_grace(client, settings):
    """No worker closed it (all dead): /healthz names the round, and says 200 once it closes.
    Within the tolerance (the watch's interval and a few seconds), the round is not overdue."""
    from arbiter.services import clock
    from tests.arbiter.conftest import open_round
    from tests.factories import EventFactory, GameFactory, PlayerFactory

    a_worker_ran_the_health_task()
    event = EventFactory(name="Night of the dead workers", solo_min_players=3)
    for i, name in enumerate(["Ann", "Bob", "Cleo"]):
        PlayerFactory(event=event, name=name, table=i + 1)
    game = GameFactory(event=event, number=1, seed=7)
    round_ = open_round(game, now=timezone.now() - dt.timedelta(hours=1))

    response = client.get("/healthz")
    assert response.status_code == 503
    said = response.json()["rounds"]
    assert said["status"] == "error"
    assert f"round 1 of game 1 of Night of the dead workers (id {round_.pk})" in said["error"]
    assert re.search(r"\(id \d+\), \d+ s past its deadline and grace", said["error"])

    response = client.get("/healthz", HTTP_ACCEPT_LANGUAGE="fr")
    said = response.json()["rounds"]["error"]
    assert "coup 1 de la partie 1 de Night of the dead workers" in said

    settings.ROUNDS_SWEEP_SECONDS = 2 * 3600  # within the tolerance: not overdue yet
    assert client.get("/healthz").status_code == 200

    settings.ROUNDS_SWEEP_SECONDS = 1
    assert clock.rounds_close_overdue()["closed"] == 1
    assert client.get("/healthz").status_code == 200
