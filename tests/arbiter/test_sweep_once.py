"""The sweep does each thing once (issue 27.6): a round it closes is scored there and no
scoring task is sent after it; the tops are never searched on the sweep's own (default) queue,
and a round whose search was lost gets it sent again, once, to the ``tops`` queue.

What is sent is read from a real broker: Celery's own app, its broker pointed at the test Redis
(``TEST_REDIS_URL``), each queue a Redis list whose messages name their task."""

from __future__ import annotations

import base64
import datetime as dt
import json
from collections import Counter
from collections.abc import Iterator

import kombu.pools
import pytest
import redis

from arbiter.services import clock
from config.celery import app
from tests.arbiter.conftest import T0, open_round
from tests.conftest import test_redis_url
from tests.factories import EventFactory, GameFactory, PlayerFactory
from tournament.models import Game, Round

pytestmark = [pytest.mark.redis, pytest.mark.django_db]

QUEUES = ("celery", "tops")


class Broker:
    def __init__(self, client: redis.Redis) -> None:
        self.client = client

    def empty(self) -> None:
        self.client.delete(*QUEUES)

    def sent(self) -> Counter[tuple[str, str, int]]:
        """(queue, task, round id) of every message waiting in the queues."""
        found: Counter[tuple[str, str, int]] = Counter()
        for queue in QUEUES:
            for raw in self.client.lrange(queue, 0, -1):
                message = json.loads(raw)
                args = json.loads(base64.b64decode(message["body"]))[0]
                found[(queue, message["headers"]["task"], args[0])] += 1
        return found


def _reset_pools() -> None:
    """Celery keeps its connection and producer pools once made: a new broker URL needs new
    ones (what a worker or beat starting with it would have)."""
    app._pool = None
    app.amqp._producer_pool = None


@pytest.fixture
def broker() -> Iterator[Broker]:
    urls = ("broker_url", "broker_write_url", "broker_read_url")
    before = {
        name: app.conf[name] for name in (*urls, "broker_transport", "broker_transport_options")
    }
    app.conf.update(  # what the settings say with REDIS_URL set
        dict.fromkeys(urls, test_redis_url()), broker_transport=None, broker_transport_options={}
    )
    _reset_pools()
    client = redis.Redis.from_url(test_redis_url())
    watching = Broker(client)
    watching.empty()
    try:
        yield watching
    finally:
        watching.empty()
        client.close()
        app.conf.update(before)
        _reset_pools()
        kombu.pools.reset()  # the connections to the test Redis, closed


def test_the_round_opens_with_its_tops_sent_to_their_queue_and_its_close_to_the_default(
    game: Game, broker: Broker, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        r = open_round(game)
    assert broker.sent() == Counter(
        {
            ("tops", "arbiter.round_tops_compute", r.pk): 1,
            ("celery", "arbiter.round_close", r.pk): 1,
        }
    )


def test_the_sweep_scores_what_it_closes_and_sends_no_scoring_task_after_it(
    game: Game, broker: Broker, django_capture_on_commit_callbacks
) -> None:
    r = open_round(game)
    with django_capture_on_commit_callbacks(execute=True):
        done = clock.rounds_sweep(now=T0 + dt.timedelta(seconds=200))
    assert done["closed"] == 1 and done["scored"] == 1
    assert Round.objects.get(pk=r.pk).status == Round.Status.SCORED
    assert broker.sent() == Counter()  # no scoring task: it would find nothing to do


def test_the_sweep_leaves_the_tops_to_their_queue_and_sends_a_lost_search_again_once(
    broker: Broker, django_capture_on_commit_callbacks
) -> None:
    def room(number: int) -> Round:
        event = EventFactory(name=f"Room {number}")
        PlayerFactory(event=event, name="Ann", table=1)
        return open_round(GameFactory(event=event, number=1, seed=7), now=T0)

    searching, lost = room(1), room(2)  # both opened at T0, their search sent then
    soon = T0 + dt.timedelta(seconds=30)
    with django_capture_on_commit_callbacks(execute=True):
        done = clock.rounds_sweep(now=soon)
    # Before: the sweep searched both here, on its own queue, while the tops queue did too.
    assert done["tops_queued"] == 0 and "tops" not in done
    assert Round.objects.filter(tops_ready_at__isnull=False).count() == 0
    assert broker.sent() == Counter()

    Round.objects.filter(pk=lost.pk).update(tops_queued_at=T0 - dt.timedelta(minutes=10))
    with django_capture_on_commit_callbacks(execute=True):
        first = clock.rounds_sweep(now=soon)
        again = clock.rounds_sweep(now=soon + dt.timedelta(seconds=5))
    assert (first["tops_queued"], again["tops_queued"]) == (1, 0)
    assert broker.sent() == Counter({("tops", "arbiter.round_tops_compute", lost.pk): 1})
    assert Round.objects.get(pk=searching.pk).tops_queued_at == T0


def test_without_the_broker_the_watch_searches_the_tops_itself(game: Game) -> None:
    r = open_round(game)
    done = clock.rounds_sweep(now=T0 + dt.timedelta(seconds=30), tops_here=True)
    assert done["tops"] == 1 and Round.objects.get(pk=r.pk).tops_ready_at is not None
