"""The director's console, the arbiters' slip entry and the projection screen: each action and
each refusal, by role (director, arbiter, outsider, anonymous)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import EventRoleFactory, GameFactory, PlayerFactory, UserFactory
from tournament.models import AuditEntry, Game, Round, Ruling, Submission

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(event) -> Game:
    for i, name in enumerate(["Ann", "Bob", "Cleo"], start=1):
        PlayerFactory(event=event, name=name, table=i)
    return GameFactory(event=event, number=1, seed=7)


@pytest.fixture
def arbiter(event):
    user = UserFactory(username="arnold")
    EventRoleFactory(event=event, user=user, role="arbiter")
    return user


def act(client: Client, game: Game, action: str, **data: object):
    return client.post(
        reverse("console:action", args=[game.event.slug, game.number, action]), data, follow=True
    )


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def current(game: Game) -> Round:
    return game.rounds.order_by("-pk").first()


def test_the_director_runs_a_round_from_the_console(client_for, director, game: Game) -> None:
    client = client_for(director)
    page = client.get(reverse("console:game", args=[game.event.slug, 1]))
    assert page.status_code == 200 and b"Draw the next rack" in page.content
    response = act(client, game, "draw")
    assert "Round 1: rack ELORTTW." in messages_of(response)
    response = act(client, game, "open")
    assert any("is open until" in m for m in messages_of(response))
    assert b"slips handed in" in response.content
    r = current(game)
    act(client, game, "slip", table=1, word="WROTE", ref="H4", score=24)
    state = json.loads(client.get(reverse("console:game_state", args=[game.event.slug, 1])).content)
    assert (
        state["status"] == "open"
        and state["slips"] == 1
        and [p["name"] for p in state["missing"]] == ["Bob", "Cleo"]
    )
    assert "WROTE" not in json.dumps(state)  # who handed in, never what
    act(client, game, "extend", seconds=30)
    act(client, game, "pause")
    act(client, game, "resume")
    act(client, game, "close")
    from arbiter.services import clock, scoring

    r.refresh_from_db()
    import datetime as dt

    later = r.deadline + dt.timedelta(seconds=game.event.grace_seconds)
    clock.round_close(round_id=r.pk, now=later)
    scoring.round_score(round_id=r.pk, now=later)
    review = client.get(reverse("console:game", args=[game.event.slug, 1]))
    assert (
        b"review" in review.content
        and b"Publish round 1" in review.content
        and b"WROTE" in review.content
    )
    # which article of the regulation ruled each slip: the first move, no slip
    assert '<td class="article">FISF 2023 · 5.4.2.a</td>'.encode() in review.content
    assert '<td class="article">FISF 2023 · 5.7</td>'.encode() in review.content
    assert b">Article</th>" in review.content
    ruling = Ruling.objects.get(round=r, player__name="Bob")
    assert (
        "keeps the ruling 'missing'"
        in messages_of(
            act(client, game, "amend", ruling=ruling.pk, points=12, code="valid", reason="x")
        )[0]
    )
    act(
        client,
        game,
        "amend",
        ruling=ruling.pk,
        points=12,
        code="missing",
        reason="average of the room",
    )
    ruling.refresh_from_db()
    assert ruling.amended and ruling.points == 12
    response = act(client, game, "publish")
    assert "Round 1 published: H4 WROTE 24." in messages_of(response)
    actions = set(AuditEntry.objects.filter(game=game).values_list("action", flat=True))
    for name in (
        "drawn",
        "opened",
        "extended",
        "paused",
        "resumed",
        "closed_early",
        "closed",
        "scored",
        "published",
    ):
        assert f"arbiter.round.{name}" in actions
    assert (
        b"arbiter.round.published"
        in client.get(reverse("console:game", args=[game.event.slug, 1])).content
    )


def test_refusals_come_back_as_messages_saying_why(client_for, director, game: Game) -> None:
    client = client_for(director)
    assert "has no round in play" in messages_of(act(client, game, "open"))[0]
    act(client, game, "draw")
    assert "publish or annul it" in messages_of(act(client, game, "draw"))[0]
    assert (
        "only a round that is scored can be published"
        in messages_of(act(client, game, "publish"))[0]
    )
    assert "must be a whole number" in messages_of(act(client, game, "extend", seconds="soon"))[0]
    assert "Unknown action" in messages_of(act(client, game, "dance"))[0]
    assert "Say why" in messages_of(act(client, game, "annul", reason=""))[0]
    act(client, game, "annul", reason="called wrongly")
    assert current(game).status == Round.Status.ANNULLED


def test_a_typed_rack_breaking_the_minimum_is_refused_with_the_reason(
    client_for, director, event
) -> None:
    game = GameFactory(event=event, number=2, seed=None, source=Game.Source.MANUAL)
    client = client_for(director)
    assert (
        b"Rack drawn from the bag"
        in client.get(reverse("console:game", args=[event.slug, 2])).content
    )
    message = messages_of(act(client, game, "rack", rack="AEIOUAE"))[0]
    assert "consonants 0" in message and "Put the whole rack back" in message
    assert "accepted" in messages_of(act(client, game, "rack", rack="AEINRST"))[0]


def test_an_arbiter_runs_the_round_enters_slips_and_amends_but_may_not_annul(
    client_for, arbiter, game: Game, director
) -> None:
    act(client_for(director), game, "draw")
    act(client_for(director), game, "open")
    client = client_for(arbiter)
    assert (
        client.get(reverse("console:game", args=[game.event.slug, 1])).status_code == 200
    )  # docs/design.md, "Roles": arbiters run rounds from the console too
    page = client.get(reverse("console:slip_entry", args=[game.event.slug, 1]))
    assert page.status_code == 200 and b"Record (Enter)" in page.content
    response = act(client, game, "slip", table=2, word="TROWEL", ref="H3", score=20)
    assert "Table 2 (Bob): H3 TROWEL 20 recorded." in messages_of(response)
    slip = Submission.objects.get(player__table=2)
    assert (slip.source, slip.entered_by) == ("arbiter", arbiter)
    assert "paused" in messages_of(act(client, game, "pause"))[0]
    assert "resumed" in messages_of(act(client, game, "resume"))[0]
    annul = client.post(reverse("console:action", args=[game.event.slug, 1, "annul"]))
    assert annul.status_code == 403  # annulling a round is the director's...
    page = client.get(reverse("console:game", args=[game.event.slug, 1])).content.decode()
    assert "Annul round 1" not in page  # ...and only a director is offered it
    assert (
        "Annul round 1"
        in client_for(director)
        .get(reverse("console:game", args=[game.event.slug, 1]))
        .content.decode()
    )
    # docs/design.md, "Roles": arbiters amend rulings (with a reason); here nothing is scored yet
    assert "No such ruling" in messages_of(act(client, game, "amend", ruling=1, reason="x"))[0]
    refused = client.post(
        reverse("console:action", args=[game.event.slug, 1, "slip"]),
        {"table": 9, "word": "WROTE", "ref": "H4", "score": 24},
    )
    assert refused.status_code == 400  # the form comes back with what was typed
    assert b"No player sits at table 9" in refused.content and b'value="WROTE"' in refused.content


def test_a_second_entry_that_disagrees_is_flagged_for_the_director(
    client_for, arbiter, director, game: Game
) -> None:
    act(client_for(director), game, "draw")
    act(client_for(director), game, "open")
    client = client_for(arbiter)
    act(client, game, "slip", table=1, word="WROTE", ref="H4", score=24)
    assert (
        "agrees"
        in messages_of(
            act(client, game, "slip", table=1, word="WROTE", ref="H4", score=24, check=1)
        )[0]
    )
    assert (
        "DISAGREES"
        in messages_of(
            act(client, game, "slip", table=1, word="WROTE", ref="H4", score=42, check=1)
        )[0]
    )
    assert Submission.objects.get().announced_score == 24  # the check replaced nothing
    assert (
        b"Double-entry mismatches: 1"
        in client_for(director).get(reverse("console:game", args=[game.event.slug, 1])).content
    )


def test_nothing_is_reachable_without_login_or_without_a_role(
    client_for, outsider, game: Game
) -> None:
    anonymous = Client()
    urls = [
        reverse("console:game", args=[game.event.slug, 1]),
        reverse("console:game_state", args=[game.event.slug, 1]),
        reverse("console:slip_entry", args=[game.event.slug, 1]),
        reverse("screen:screen", args=[game.event.slug]),
        reverse("screen:state", args=[game.event.slug]),
    ]
    for url in urls:
        assert anonymous.get(url).status_code == 302, url
        assert client_for(outsider).get(url).status_code in (403, 404), url
    assert (
        client_for(outsider)
        .post(reverse("console:action", args=[game.event.slug, 1, "draw"]))
        .status_code
        == 404  # no role in the event: as if it did not exist
    )
    assert not Round.objects.exists()


def test_the_screen_follows_the_round(client_for, director, game: Game) -> None:
    client = client_for(director)
    url = reverse("screen:state", args=[game.event.slug])
    assert client.get(reverse("screen:screen", args=[game.event.slug])).status_code == 200
    act(client, game, "draw")
    act(client, game, "open")
    state = json.loads(client.get(url).content)
    assert (state["round"], state["status"], state["rack"], state["top"]) == (
        1,
        "open",
        "ELORTTW",
        None,
    )
    assert 170 < state["remaining"] <= 180 and state["warning_seconds"] == 30
    assert len(state["premiums"]) == 15 and state["premiums"][7][7] == "dw"


def test_every_console_action_is_also_a_staff_api_call(
    client_for, director, outsider, game: Game
) -> None:
    client = client_for(director)
    url = reverse("staff_api:action", args=[game.event.slug, 1, "draw"])
    response = client.post(url, {}, content_type="application/json")
    assert response.status_code == 200 and response.json() == {"detail": "Round 1: rack ELORTTW."}
    again = client.post(url, {}, content_type="application/json")
    assert again.status_code == 400 and "publish or annul it" in again.json()["detail"]
    assert (
        client_for(outsider)
        .post(
            reverse("staff_api:action", args=[game.event.slug, 1, "open"]),
            {},
            content_type="application/json",
        )
        .status_code
        == 404  # no role in the event: as if it did not exist
    )
    assert Client().post(url).status_code in (401, 403)


def test_the_director_sees_every_legal_move_ranked_and_the_whole_audit_log(
    client_for, director, arbiter, game: Game
) -> None:
    client = client_for(director)
    act(client, game, "draw")
    url = reverse("console:round_moves", args=[game.event.slug, 1, 1])
    first = client.get(url)
    assert first.status_code == 200 and b"220 moves" in first.content  # seed 7, rack ELORTTW
    rows = first.context["moves"]
    assert rows[0][0] == 1 and rows[0][1].word == "WROTE" and len(rows) == 200
    assert [rank for rank, _ in rows[1:4]] == [2, 2, 2]  # TROWEL 20, three times: a shared rank
    last = client.get(url + "?page=2")
    assert (
        len(last.context["moves"]) == 20 and client.get(url + "?page=nonsense").status_code == 200
    )
    assert client_for(arbiter).get(url).status_code == 200  # they choose tops and amend rulings
    audit = client.get(reverse("console:audit", args=[game.event.slug, 1]))
    assert audit.status_code == 200 and b"arbiter.round.drawn" in audit.content


def test_the_moves_of_a_published_round_are_those_of_its_own_board(
    client_for, director, game: Game
) -> None:
    client = client_for(director)
    act(client, game, "draw")
    act(client, game, "open")
    r = current(game)
    import datetime as dt

    from arbiter.services import clock, publishing, scoring

    r.refresh_from_db()
    later = r.deadline + dt.timedelta(seconds=game.event.grace_seconds)
    clock.round_close(round_id=r.pk, now=later)
    publishing.round_publish(
        round=scoring.round_score(round_id=r.pk, now=later), actor=None, now=later
    )
    act(
        client, game, "draw"
    )  # round 2 is on the board with WROTE; round 1's moves are still those of the empty board
    page = client.get(reverse("console:round_moves", args=[game.event.slug, 1, 1]))
    assert page.context["total"] == 220 and page.context["moves"][0][1].word == "WROTE"
