"""Double entry of paper slips (two arbiters type the same slips, a third look resolves the
mismatches), the slip entry's look-up of a table, and amendments of any round."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import EventRoleFactory, UserFactory
from tests.web.console.test_console import act, game, messages_of  # noqa: F401 - fixtures
from tests.web.console.test_console_browser import score_now
from tournament.models import AuditEntry, Game, Round, Ruling, Submission

pytestmark = pytest.mark.django_db


@pytest.fixture
def arbiters(event):
    users = [UserFactory(username="arnold"), UserFactory(username="bea")]
    for user in users:
        EventRoleFactory(event=event, user=user, role="arbiter")
    return users


@pytest.fixture
def round_open(client_for, director, game: Game) -> None:  # noqa: F811
    """The director draws round 1 and starts its clock."""
    act(client_for(director), game, "draw")
    act(client_for(director), game, "open")


def entry_page(client, of: Game, **query: str):
    url = reverse("console:slip_entry", args=[of.event.slug, of.number])
    return client.get(url, query)


@pytest.mark.usefixtures("round_open")
def test_a_mismatch_of_two_arbiters_is_listed_and_a_third_look_keeps_the_second(
    client_for,
    arbiters,
    director,
    game: Game,  # noqa: F811
) -> None:
    arnold, bea = (client_for(user) for user in arbiters)
    act(arnold, game, "slip", table=1, word="WROTE", ref="H4", score=24)
    act(arnold, game, "slip", table=2, word="WROTE", ref="H4", score=24)
    second = act(bea, game, "slip", table=1, word="WROTE", ref="H4", score=24, check=1)
    assert "agrees" in messages_of(second)[0]
    assert second.redirect_chain[-1][0].endswith("?entry=second")  # bea stays second
    act(bea, game, "slip", table=2, word="WROTE", ref="H4", score=42, check=1)
    page = entry_page(client_for(director), game)
    mismatches = page.context["mismatches"]
    assert [(m.table, m.first["score"], m.second["score"]) for m in mismatches] == [(2, 24, 42)]
    assert b"Keep the second" in page.content

    resolved = act(client_for(director), game, "resolve", check=mismatches[0].check, kept="second")
    assert "the second entry stands" in messages_of(resolved)[0]
    slip = Submission.objects.get(round__game=game, player__table=2, is_current=True)
    assert slip.announced_score == 42 and slip.entered_by == director
    assert entry_page(client_for(director), game).context["mismatches"] == []
    entry = AuditEntry.objects.get(action="arbiter.slip.check_resolved")
    assert entry.data["kept"] == "second" and entry.data["table"] == 2

    again = act(client_for(director), game, "resolve", check=mismatches[0].check, kept="first")
    assert "No open double-entry mismatch" in messages_of(again)[0]


@pytest.mark.usefixtures("round_open")
def test_keeping_the_first_entry_changes_no_slip(
    client_for,
    arbiters,
    director,
    game: Game,  # noqa: F811
) -> None:
    arnold, bea = (client_for(user) for user in arbiters)
    act(arnold, game, "slip", table=3, word="WROTE", ref="H4", score=24)
    act(bea, game, "slip", table=3, word="WRITE", ref="H4", score=24, check=1)
    (mismatch,) = entry_page(bea, game).context["mismatches"]
    act(bea, game, "resolve", check=mismatch.check, kept="first")
    assert Submission.objects.get(player__table=3, is_current=True).word == "WROTE"
    assert Submission.objects.filter(player__table=3).count() == 1


@pytest.mark.usefixtures("round_open")
def test_a_second_entry_with_no_first_can_only_be_kept_and_publishing_asks_about_it(
    client_for,
    arbiters,
    director,
    game: Game,  # noqa: F811
) -> None:
    bea = client_for(arbiters[1])
    act(bea, game, "slip", table=2, word="WROTE", ref="H4", score=24, check=1)
    (mismatch,) = entry_page(bea, game).context["mismatches"]
    assert mismatch.first is None
    first = act(bea, game, "resolve", check=mismatch.check, kept="first")
    assert "no first entry to keep" in messages_of(first)[0]
    score_now(Round.objects.get(game=game).pk)  # the clock ran out, the slips are ruled
    console = client_for(director).get(reverse("console:game", args=[game.event.slug, 1]))
    assert b"1 double-entry mismatch not resolved. Publish round 1" in console.content
    act(bea, game, "resolve", check=mismatch.check, kept="second")
    assert Submission.objects.get(player__table=2, is_current=True).word == "WROTE"


@pytest.mark.usefixtures("round_open")
def test_a_resolution_refuses_a_bad_choice_or_check_by_name(
    client_for,
    director,
    game: Game,  # noqa: F811
) -> None:
    bad = act(client_for(director), game, "resolve", check=1, kept="both")
    assert "Keep the first entry or the second, not 'both'" in messages_of(bad)[0]
    bad = act(client_for(director), game, "resolve", check="x", kept="first")
    assert "Check" in messages_of(bad)[0] and bad.status_code == 200


@pytest.mark.usefixtures("round_open")
def test_the_entry_page_says_how_to_turn_double_entry_on(
    client_for,
    director,
    game: Game,  # noqa: F811
) -> None:
    console = client_for(director).get(reverse("console:game", args=[game.event.slug, 1]))
    assert b"?entry=second" in console.content
    first = entry_page(client_for(director), game)
    assert b"Second entry (double entry)" in first.content and b'name="check"' not in first.content
    second = entry_page(client_for(director), game, entry="second")
    assert b"Double entry, second arbiter" in second.content
    assert b'<input type="hidden" name="check" value="1">' in second.content


@pytest.mark.usefixtures("round_open")
def test_a_table_typed_shows_the_player_and_the_slips_of_the_round(
    client_for,
    arbiters,
    game: Game,  # noqa: F811
    director,
) -> None:
    client = client_for(arbiters[0])
    act(client, game, "slip", table=1, word="WROTE", ref="H4", score=24)
    url = reverse("console:slip_table", args=[game.event.slug, 1])
    found = client.get(url, {"table": "1"}).json()
    assert found["name"] == "Ann" and found["round"] == 1
    assert [(s["word"], s["source"], s["current"], s["by"]) for s in found["slips"]] == [
        ("WROTE", "entered by an arbiter", True, "arnold")
    ]
    assert client.get(url, {"table": "2"}).json()["slips"] == []
    missing = client.get(url, {"table": "9"})
    assert missing.status_code == 404 and "No player sits at table 9" in missing.json()["detail"]
    bad = client.get(url, {"table": "1x"})
    assert bad.status_code == 400 and "Table" in bad.json()["detail"]


def test_an_earlier_round_is_amended_with_a_warning_and_a_penalty_and_its_reason(
    client_for,
    director,
    game: Game,  # noqa: F811
) -> None:
    from tests.web.night import publish_round

    players = list(game.event.players.order_by("table"))
    first = publish_round(game, {players[0]: ("WROTE", "H4", 24), players[1]: ("WROTE", "", 24)})
    publish_round(game, {players[0]: ("TREMOLOs", "5G", 68)})
    client = client_for(director)
    console = client.get(reverse("console:game", args=[game.event.slug, 1]))
    assert b"Amendments (any round)" in console.content
    url = reverse("console:round_rulings", args=[game.event.slug, 1, first.number])
    page = client.get(url)
    assert page.status_code == 200 and b"Save the amendment" in page.content
    ann = Ruling.objects.get(round=first, player=players[0])
    saved = client.post(
        reverse("console:action", args=[game.event.slug, 1, "amend"]),
        {
            "ruling": ann.pk,
            "warning": "1",
            "penalty": "5",
            "reason": "blank not marked on the slip",
            "rulings": str(first.number),
        },
        follow=True,
    )
    assert saved.redirect_chain[-1][0].endswith(url)  # back on the round's page
    ann.refresh_from_db()
    assert ann.warning and ann.penalty == 5 and ann.amended
    entry = AuditEntry.objects.filter(action__startswith="arbiter.ruling").latest("pk")
    assert entry.data["reason"] == "blank not marked on the slip"

    no_reason = client.post(
        reverse("console:action", args=[game.event.slug, 1, "amend"]),
        {"ruling": ann.pk, "points": "3", "reason": "", "rulings": str(first.number)},
        follow=True,
    )
    assert "reason" in messages_of(no_reason)[0]
    assert Ruling.objects.get(pk=ann.pk).points != 3


@pytest.mark.usefixtures("round_open")
def test_the_amendments_page_of_an_open_round_says_it_is_not_scored_yet(
    client_for,
    director,
    game: Game,  # noqa: F811
) -> None:
    page = client_for(director).get(reverse("console:round_rulings", args=[game.event.slug, 1, 1]))
    assert page.status_code == 200 and b"amended once it is scored" in page.content
    assert Round.objects.get().status == Round.Status.OPEN
    missing = client_for(director).get(
        reverse("console:round_rulings", args=[game.event.slug, 1, 7])
    )
    assert missing.status_code == 404
