"""Redis down: the phones do not notice. The rate limits and the standings live in the cache,
which fails open (config.cache): a slip is still accepted and stored, the state and the
standings still served."""

from __future__ import annotations

import pytest

from config import cache as fail_open
from tests.arbiter.conftest import T0, open_round
from tests.web.api.conftest import seconds
from tournament.models import Submission

pytestmark = pytest.mark.django_db

NOBODY = "redis://127.0.0.1:1/0"  # nothing listens on port 1


@pytest.fixture
def redis_down(settings):
    fail_open._retry_at.clear()
    settings.CACHES = {
        **settings.CACHES,
        "default": {"BACKEND": "config.cache.FailOpenRedisCache", "LOCATION": NOBODY},
    }
    yield
    fail_open._retry_at.clear()


def test_ann_hands_in_her_slip_and_sees_the_standings_while_redis_is_down(
    redis_down, frozen_clock, phone, ann, game, caplog
) -> None:
    open_round(game, now=T0)
    frozen_clock.move_to(T0 + seconds(20))
    client = phone(ann)
    response = client.post(
        "/api/v1/play/submissions",
        {"round": 1, "ref": "H4", "word": "WROTE", "score": 24},
        format="json",
    )
    assert response.status_code == 201, response.content
    assert Submission.objects.get(player=ann).word == "WROTE"
    assert client.get("/api/v1/play/state").status_code == 200
    assert client.get("/api/v1/play/standings").status_code == 200
    assert "does not answer" in caplog.text
