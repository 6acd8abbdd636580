"""schemathesis over /api/schema/: every operation, with generated (and broken) input, as a
player (Bearer token), as a director and as an arbiter (sessions with their CSRF token), never
answers 5xx, and every refusal is ``{"detail", "code"}`` (docs/design.md). Runs in both passes
(``each_database``): on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest
import schemathesis
from django.contrib.sessions.backends.db import SessionStore
from hypothesis import HealthCheck, settings

from config.wsgi import application
from tests.arbiter.conftest import open_round
from tests.factories import EventRoleFactory, GameFactory, PlayerFactory, UserFactory

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)

CSRF = "a" * 32

pytestmark = [pytest.mark.usefixtures("each_database"), pytest.mark.slow]


@pytest.fixture
def callers(transactional_db) -> dict[str, dict[str, str]]:
    from tournament.models import Event

    event = Event.objects.filter(slug="fuzz").first() or None
    if event is None:
        from tests.factories import EventFactory

        event = EventFactory(slug="fuzz", name="Fuzz open", solo_min_players=3)
    director = UserFactory(username="fuzz-director")
    EventRoleFactory(event=event, user=director, role="director")
    arbiter = UserFactory(username="fuzz-arbiter")
    EventRoleFactory(event=event, user=arbiter, role="arbiter")
    player = PlayerFactory(event=event, name="Ann", table=1)
    open_round(GameFactory(event=event, number=1, seed=7))
    return {
        "player": {"Authorization": f"Bearer {player.token}"},
        "director": _session(director),
        "arbiter": _session(arbiter),
    }


def _session(user) -> dict[str, str]:
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    return {
        "Cookie": f"sessionid={session.session_key}; csrftoken={CSRF}",
        "X-CSRFToken": CSRF,
    }


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
@pytest.mark.parametrize("who", ["player", "director", "arbiter"])
def test_no_api_call_is_a_server_error(case, who, callers) -> None:
    if "slug" in (case.path_parameters or {}):
        case.path_parameters["slug"] = "fuzz"
    response = case.call(headers={**callers[who], "Host": "localhost"})
    assert response.status_code < 500, (case.method, case.formatted_path, response.text[:300])
    if response.status_code >= 400 and response.headers.get("Content-Type", "").startswith(
        "application/json"
    ):
        body = response.json()
        assert isinstance(body, dict) and {"detail", "code"} <= set(body), (
            case.method,
            case.formatted_path,
            response.status_code,
            body,
        )
