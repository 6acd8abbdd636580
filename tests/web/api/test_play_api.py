"""The player API (v1): the state, slips and standings a phone sees, and every refusal."""

from __future__ import annotations

import json

import pytest
from django.test import override_settings
from django.urls import reverse

from arbiter.services import racks
from tests.arbiter.conftest import T0, finish_round, open_round
from tests.web.api.conftest import seconds
from tournament.models import Player, Submission
from tournament.services.players import player_token_reissue, player_token_revoke

pytestmark = pytest.mark.django_db

STATE = "/api/v1/play/state"
SUBMISSIONS = "/api/v1/play/submissions"
STANDINGS = "/api/v1/play/standings"

# Seed 7: round 1 rack ELORTTW (top H4 WROTE 24).


def test_the_urls_are_the_documented_ones() -> None:
    assert reverse("play_api:state") == STATE
    assert reverse("play_api:submissions") == SUBMISSIONS
    assert reverse("play_api:standings") == STANDINGS


def test_ann_sees_the_open_round_with_rack_board_and_the_server_clock(
    frozen_clock, phone, ann, game
) -> None:
    r = open_round(game, now=T0)
    frozen_clock.move_to(T0 + seconds(30))
    response = phone(ann).get(STATE)
    assert response.status_code == 200
    state = response.json()
    assert state["event"] == {
        "slug": "spring-open",
        "name": "Spring open",
        "warning_seconds": 30,
        "time_zone": "UTC",
        "rulebook": "fisf-2023",
    }
    assert state["player"] == {"name": "Ann", "table": 1}
    assert state["game"]["number"] == 1
    assert state["round"]["number"] == 1 and state["round"]["status"] == "open"
    assert state["round"]["rack"] == r.rack == "ELORTTW"
    assert state["round"]["deadline"] == "2026-05-01T20:03:00Z"
    assert state["server_time"] == "2026-05-01T20:00:30Z"
    assert state["round"]["remaining_seconds"] == 150.0
    assert state["board"] == ["." * 15] * 15
    assert state["premiums"][0] == "T..d...T...d..T" and state["premiums"][7][7] == "D"
    assert state["slip"] is None and state["result"] is None
    assert state["standings"]["rank"] == 1 and state["standings"]["rounds"] == 0
    assert response["ETag"] == f'"{state["version"]}"'
    assert response["X-Server-Time"].startswith("2026-05-01T20:00:30")


def test_an_unchanged_state_is_a_304_and_a_new_slip_changes_it(
    frozen_clock, phone, ann, game, django_capture_on_commit_callbacks
) -> None:
    open_round(game, now=T0)
    client = phone(ann)
    etag = client.get(STATE)["ETag"]
    unchanged = client.get(STATE, HTTP_IF_NONE_MATCH=etag)
    assert unchanged.status_code == 304 and not unchanged.content
    assert unchanged["X-Server-Time"]
    assert unchanged["X-Poll-After"] == "2"  # the round is open
    with django_capture_on_commit_callbacks(execute=True):  # the live version moves on commit
        client.post(
            SUBMISSIONS, {"round": 1, "ref": "H4", "word": "WROTE", "score": 24}, format="json"
        )
    changed = client.get(STATE, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed.json()["slip"]["word"] == "WROTE"


def test_the_rack_stays_hidden_until_the_round_opens(frozen_clock, phone, ann, game) -> None:
    racks.round_draw(game=game, actor=None)
    state = phone(ann).get(STATE).json()
    assert state["round"]["status"] == "drawn" and state["round"]["rack"] is None


def test_before_any_game_the_state_says_so(frozen_clock, phone, ann) -> None:
    state = phone(ann).get(STATE).json()
    assert state["game"] is None and state["round"] is None and state["board"] is None


def test_ann_hands_in_a_slip_and_gets_a_receipt_then_replaces_it(
    frozen_clock, phone, ann, game
) -> None:
    open_round(game, now=T0)
    client = phone(ann)
    frozen_clock.move_to(T0 + seconds(20))
    first = client.post(
        SUBMISSIONS, {"round": 1, "ref": "h3", "word": "TROWEL", "score": 20}, format="json"
    )
    assert first.status_code == 201, first.json()
    receipt = first.json()
    assert receipt == {
        "id": receipt["id"],
        "round": 1,
        "word": "TROWEL",
        "ref": "H3",
        "score": 20,
        "received_at": "2026-05-01T20:00:20Z",
        "replaced_previous": False,
    }
    assert Submission.objects.get(pk=receipt["id"]).source == "api"
    frozen_clock.move_to(T0 + seconds(40))
    second = client.post(
        SUBMISSIONS, {"round": 1, "ref": "H4", "word": "WROTE", "score": 24}, format="json"
    )
    assert second.status_code == 201
    assert second.json()["replaced_previous"] is True
    assert client.get(STATE).json()["slip"]["word"] == "WROTE"
    assert Submission.objects.filter(player=ann).count() == 2


def test_only_her_own_slip_shows_before_publication(frozen_clock, phone, players, game) -> None:
    ann, bob, _ = players
    open_round(game, now=T0)
    phone(bob).post(
        SUBMISSIONS, {"round": 1, "ref": "H4", "word": "WROTE", "score": 24}, format="json"
    )
    state = phone(ann).get(STATE).json()
    assert state["slip"] is None
    assert "WROTE" not in str(state)
    standings = phone(ann).get(STANDINGS).json()
    assert standings["rounds"] == 0 and all(row["total"] == 0 for row in standings["leaders"])


@pytest.mark.parametrize(
    ("slip", "status", "code", "detail"),
    [
        (
            {"round": 1, "ref": "H4 AC", "word": "WROTE", "score": 24},
            400,
            "malformed_reference",
            "longer than a grid reference",
        ),
        (
            {"round": 1, "ref": "H4", "word": "WROTEWROTEWROTEX", "score": 24},
            400,
            "invalid",
            "word: ",
        ),
        (
            {"round": 1, "ref": "H4", "word": "WROTE", "score": -1},
            400,
            "malformed_score",
            "whole number",
        ),
        ({"round": 1, "ref": "H4", "score": 24}, 400, "invalid", "word: This field is required."),
        (
            {"round": 9, "ref": "H4", "word": "WROTE", "score": 24},
            404,
            "no_such_round",
            "There is no round 9",
        ),
    ],
)
def test_a_malformed_slip_is_refused_with_the_services_reason_and_code(
    frozen_clock, phone, ann, game, slip, status, code, detail
) -> None:
    open_round(game, now=T0)
    response = phone(ann).post(SUBMISSIONS, slip, format="json")
    assert response.status_code == status
    body = response.json()
    assert body["code"] == code
    assert body["detail"].startswith(detail) or detail in body["detail"]
    assert not Submission.objects.exists()


def test_a_slip_for_a_round_that_is_not_open_is_a_409(frozen_clock, phone, ann, game) -> None:
    racks.round_draw(game=game, actor=None)
    response = phone(ann).post(
        SUBMISSIONS, {"round": 1, "ref": "H4", "word": "WROTE", "score": 24}, format="json"
    )
    assert response.status_code == 409
    assert response.json() == {
        "detail": "Round 1 is not open (it is drawn).",
        "code": "round_not_open",
    }


def test_a_slip_after_the_deadline_and_grace_is_refused_on_the_server_clock(
    frozen_clock, phone, ann, game
) -> None:
    open_round(game, now=T0)
    client = phone(ann)
    frozen_clock.move_to(T0 + seconds(189))  # deadline 20:03:00 + 10 s grace
    assert (
        client.post(
            SUBMISSIONS, {"round": 1, "ref": "H4", "word": "WROTE", "score": 24}, format="json"
        ).status_code
        == 201
    )
    frozen_clock.move_to(T0 + seconds(191))
    late = client.post(
        SUBMISSIONS, {"round": 1, "ref": "H4", "word": "WROTE", "score": 24}, format="json"
    )
    assert late.status_code == 409
    assert late.json() == {
        "detail": (
            "The deadline has passed: round 1 closed at 20:03:00 "
            "and this slip arrived at 20:03:11 (server clock, local time)."
        ),
        "code": "deadline_passed",
    }


def test_a_player_of_another_event_cannot_reach_this_events_rounds(
    frozen_clock, phone, stranger, game
) -> None:
    open_round(game, now=T0)
    # Sam's round 1 is in his own event's game, which has no round yet: nothing to hand in to.
    response = phone(stranger).post(
        SUBMISSIONS, {"round": 1, "ref": "H4", "word": "WROTE", "score": 24}, format="json"
    )
    assert response.status_code == 404
    state = phone(stranger).get(STATE).json()
    assert state["event"]["slug"] == "autumn-cup"
    assert state["round"] is None
    assert not Submission.objects.exists()


def test_the_services_not_your_event_refusal_is_a_403(
    frozen_clock, phone, stranger, game, monkeypatch
) -> None:
    r = open_round(game, now=T0)
    monkeypatch.setattr("web.api.views.play_round_by_number", lambda **kw: r)
    response = phone(stranger).post(
        SUBMISSIONS, {"round": 1, "ref": "H4", "word": "WROTE", "score": 24}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["code"] == "not_your_event"


def test_a_revoked_token_gets_a_401_saying_so_and_a_reissued_one_works(
    frozen_clock, phone, ann, game
) -> None:
    open_round(game, now=T0)
    old = ann.token
    player_token_revoke(player=ann, actor=None)
    for response in (
        phone(token=old).get(STATE),
        phone(token=old).post(
            SUBMISSIONS, {"round": 1, "ref": "H4", "word": "WROTE", "score": 24}, format="json"
        ),
        phone(token=old).get(STANDINGS),
    ):
        assert response.status_code == 401
        assert response.json() == {
            "detail": "This access has been revoked: ask the director for a new QR code.",
            "code": "revoked",
        }
        assert response["WWW-Authenticate"] == 'Bearer realm="play"'
    fresh = player_token_reissue(player=Player.objects.get(pk=ann.pk), actor=None)
    assert phone(token=old).get(STATE).status_code == 401
    assert phone(fresh).get(STATE).status_code == 200


def test_anonymous_and_unknown_tokens_get_a_401(db, phone) -> None:
    for url in (STATE, STANDINGS):
        anonymous = phone().get(url)
        assert anonymous.status_code == 401
        assert anonymous.json()["code"] == "not_authenticated"
        assert "scan your QR code" in anonymous.json()["detail"]
    unknown = phone(token="not-a-token").get(STATE)
    assert unknown.status_code == 401 and unknown.json()["code"] == "unknown_token"
    assert phone().post(SUBMISSIONS, {"round": 1}, format="json").status_code == 401


@override_settings(
    REST_FRAMEWORK={
        "EXCEPTION_HANDLER": "web.api.errors.api_exception_handler",
        "DEFAULT_THROTTLE_RATES": {"play_state": "3/min", "play_submissions": "2/min"},
    }
)
def test_a_token_is_rate_limited_on_its_own(frozen_clock, phone, players, game) -> None:
    ann, bob, _ = players
    open_round(game, now=T0)
    client = phone(ann)
    assert [client.get(STATE).status_code for _ in range(4)] == [200, 200, 200, 429]
    slip = {"round": 1, "ref": "H4", "word": "WROTE", "score": 24}
    codes = [client.post(SUBMISSIONS, slip, format="json").status_code for _ in range(3)]
    assert codes == [201, 201, 429]
    throttled = client.post(SUBMISSIONS, slip, format="json").json()
    assert throttled["code"] == "throttled" and "throttled" in throttled["detail"]
    assert phone(bob).get(STATE).status_code == 200  # Bob's bucket is his own
    frozen_clock.move_to(T0 + seconds(61))
    assert client.get(STATE).status_code == 200


def test_after_the_round_ann_sees_the_top_her_ruling_and_the_standings(
    frozen_clock, phone, players, game
) -> None:
    ann, bob, _ = players
    r = open_round(game, now=T0)
    phone(ann).post(
        SUBMISSIONS, {"round": 1, "ref": "H4", "word": "WROTE", "score": 24}, format="json"
    )
    phone(bob).post(
        SUBMISSIONS, {"round": 1, "ref": "H4", "word": "TOWER", "score": 99}, format="json"
    )
    finish_round(r, T0 + seconds(190))
    state = phone(ann).get(STATE).json()
    assert state["round"]["status"] == "published"
    assert state["result"]["top"] == {"ref": "H4", "word": "WROTE", "score": 24}
    ruling = state["result"]["ruling"]
    assert ruling["code"] == "valid" and ruling["points"] == 24 and ruling["found_top"]
    assert ruling["slip"] == {"word": "WROTE", "ref": "H4", "score": 24}
    assert state["board"][7][3:8] == "WROTE"
    assert (
        state["standings"]["rank"] == 1
        and state["standings"]["total"] == state["standings"]["rank"] * 0 + ruling["total"]
    )
    standings = phone(bob).get(STANDINGS).json()
    assert standings["rounds"] == 1 and standings["top_total"] == 24
    assert standings["leaders"][0]["name"] == "Ann" and not standings["leaders"][0]["me"]
    assert standings["me"]["name"] == "Bob" and standings["me"]["me"]


def test_the_page_cookie_authenticates_and_its_posts_need_the_csrf_token(
    frozen_clock, client, ann, game
) -> None:
    open_round(game, now=T0)
    client.get(f"/play/{ann.token}/")
    assert client.get(STATE).json()["player"]["name"] == "Ann"
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.get(f"/play/{ann.token}/")
    strict.get("/play/")
    refused = strict.post(
        SUBMISSIONS,
        {"round": 1, "ref": "H4", "word": "WROTE", "score": 24},
        content_type="application/json",
    )
    assert refused.status_code == 403 and refused.json()["code"] == "csrf_failed"
    csrf = strict.cookies["csrftoken"].value
    accepted = strict.post(
        SUBMISSIONS,
        {"round": 1, "ref": "H4", "word": "WROTE", "score": 24},
        content_type="application/json",
        HTTP_X_CSRFTOKEN=csrf,
    )
    assert accepted.status_code == 201
    assert Submission.objects.get().source == "phone"


def test_the_player_api_schema_generates_without_warnings_and_documents_every_answer() -> None:
    from django.urls import include, path
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    from web.api.urls import play_patterns

    GENERATOR_STATS.reset()
    generator = SchemaGenerator(patterns=[path("api/v1/", include((play_patterns, "play_api")))])
    schema = generator.get_schema(request=None, public=True)
    assert not GENERATOR_STATS, "drf-spectacular warned about the player API"
    assert {STATE, SUBMISSIONS, STANDINGS} == set(schema["paths"])
    post = schema["paths"][SUBMISSIONS]["post"]
    assert {"201", "400", "401", "403", "404", "409", "429"} <= set(post["responses"])
    assert {"playerToken", "playerCookie"} <= set(schema["components"]["securitySchemes"])


def test_the_served_schema_contains_both_player_paths(client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = json.loads(response.content)
    assert {STATE, SUBMISSIONS} <= set(schema["paths"])


def test_the_whole_schema_generates_without_a_warning_or_an_error() -> None:
    from drf_spectacular.drainage import GENERATOR_STATS
    from drf_spectacular.generators import SchemaGenerator

    GENERATOR_STATS.reset()
    schema = SchemaGenerator().get_schema(request=None, public=True)
    assert not GENERATOR_STATS, "drf-spectacular warned or failed on some view"
    paths = set(schema["paths"])
    assert "/api/v1/staff/events/{slug}/games/{number}/{action}" in paths
    assert (
        "/api/v1/events/{slug}/export" in paths
        and "/api/v1/events/{slug}/exports/{job_id}" in paths
    )
