"""The phone helps before it sends, and sends what the player confirms (rules.md, rule 3: a
blank not marked is ruled valid with a warning, as on paper): a word that needs a blank the
slip does not mark, a missing score or reference are said in the player's language, the button
becomes "send anyway", and the slip sent is the one ruled. Real headless Chromium on a phone
screen; the event is French."""

from __future__ import annotations

import pytest
from django.utils import timezone

from arbiter.services import clock, publishing, racks, scoring
from tests.factories import EventFactory, GameFactory, PlayerFactory
from tests.web.play.test_play_browser import PHONE, SHOTS, browser  # noqa: F401
from tournament.models import Game, Player, Submission

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def horn_played(player_count: int = 2) -> tuple[Game, list[Player]]:
    """A French event; round 1 HORN at H6 published, round 2 open with the rack AFMEIO?."""
    room = EventFactory(name="Soirée du club", slug="soiree", language="fr", solo_min_players=9)
    players = [PlayerFactory(event=room, table=i + 1) for i in range(player_count)]
    game = GameFactory(event=room, source=Game.Source.MANUAL, seed=None)
    now = timezone.now()
    first = clock.round_open(
        round=racks.round_rack_enter(game=game, rack="HORNAEI", actor=None), actor=None, now=now
    )
    closing = first.deadline + timezone.timedelta(seconds=10)
    assert clock.round_close(round_id=first.pk, now=closing)
    scored = scoring.round_score(round_id=first.pk, now=closing)
    assert scored is not None
    publishing.round_top_choose(round=scored, ref="H6", word="HORN", actor=None)
    publishing.round_publish(round=scored, actor=None, now=closing)
    second = racks.round_rack_enter(game=game, rack="AFMEIO?", actor=None)
    clock.round_open(round=second, actor=None, now=timezone.now())
    return game, players


def test_the_phone_warns_of_an_unmarked_blank_in_french_and_sends_when_asked(
    browser,  # noqa: F811
    live_server,
) -> None:
    game, players = horn_played()
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="fr-FR")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live_server.url}/play/{players[0].token}/")
    page.wait_for_selector("#rack .tile")
    letters = page.locator("#rack .tile").evaluate_all("ts => ts.map(t => t.firstChild.data)")
    points = page.locator("#rack .tile sub").all_inner_texts()
    assert sorted(zip(letters, points, strict=True)) == sorted(
        zip("AFMEIO?", ["1", "4", "3", "1", "1", "1", "0"], strict=True)
    )

    page.fill("#word", "FARMS")
    page.fill("#ref", "8F")
    page.fill("#score", "11")
    page.click("#submit")
    page.wait_for_selector("#slip-warnings:not([hidden])")
    said = page.inner_text("#slip-warnings")
    assert "Pas sur votre tirage : S" in said.replace("\u00a0", " ")
    assert "joker" in said
    assert page.inner_text("#submit") == "Envoyer quand même"
    assert not Submission.objects.exists()  # nothing sent before the player says so
    box = page.locator("#slip-warnings").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    page.screenshot(path=f"{SHOTS}/play-390-blank-warning.png", full_page=True)

    page.click("#submit")  # send anyway: the arbiter rules it as paper would
    page.wait_for_selector("#receipt[data-state=sent]")
    slip = Submission.objects.get(player=players[0])
    assert (slip.word, slip.ref, slip.announced_score) == ("FARMS", "8F", 11)

    # Marking the blank: the warning goes, the slip is sent at once.
    page.fill("#word", "FARMS")
    page.click("#word-letters button:nth-child(5)")
    assert page.input_value("#word") == "FARMs"
    page.fill("#score", "")
    page.click("#submit")
    page.wait_for_selector("#slip-warnings:not([hidden])")
    said = page.inner_text("#slip-warnings")
    assert "Aucun score annoncé" in said and "tirage" not in said
    page.click("#submit")
    page.wait_for_function(
        "document.querySelector('#receipt').innerText.includes('FARMs')", timeout=10_000
    )
    slip = Submission.objects.get(player=players[0], is_current=True)
    assert (slip.word, slip.announced_score) == ("FARMs", None)
    assert errors == []
    context.close()
