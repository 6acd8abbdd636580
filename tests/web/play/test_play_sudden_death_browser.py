"""A mort subite game (FISF 2023 3.8.3) on the phones, in headless Chromium: after round 1 the
player out reads it beside the round and hears it, the one still in reads how many are, and
the phone of the player out shows the refusal of their next slip with its reason."""

from __future__ import annotations

import pytest
from django.utils import timezone

from arbiter.services import clock, racks, slips
from tests.factories import EventFactory, GameFactory, PlayerFactory
from tests.web.play.test_play_browser import PHONE, browser, fill_slip, finish  # noqa: F401
from tournament.models import Game, Player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def sudden(db) -> tuple[Game, list[Player]]:
    room = EventFactory(name="Grand Chelem", slug="grand-chelem")
    players = [
        PlayerFactory(event=room, name=name, table=i + 1)
        for i, name in enumerate(["Ann", "Bob", "Cleo"])
    ]
    return GameFactory(event=room, number=1, seed=7, formula="mortsubite"), players


def _open(game: Game):
    drawn = racks.round_draw(game=game, actor=None)
    assert drawn is not None
    return clock.round_open(round=drawn, actor=None, now=timezone.now())


def test_the_phones_say_who_is_out_and_refuse_the_slip_of_a_player_out(
    browser,  # noqa: F811
    live_server,
    sudden,
) -> None:
    game, (ann, bob, cleo) = sudden
    r1 = _open(game)  # seed 7: ELORTTW, top WROTE H4 24
    for player, word, ref, score in ((ann, "WROTE", "H4", 24), (cleo, "WROTE", "H4", 24)):
        slips.slip_submit(player=player, round=r1, word=word, ref=ref, score=score)
    slips.slip_submit(player=bob, round=r1, word="TROWEL", ref="H3", score=20)
    finish(r1)
    _open(game)

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    errors: list[str] = []
    phones = {}
    for player in (ann, bob):
        page = (
            context.new_page()
            if player is ann
            else browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        )
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{live_server.url}/play/{player.token}/")
        page.wait_for_selector("#rack .tile")
        phones[player.name] = page
    ann_page, bob_page = phones["Ann"], phones["Bob"]
    ann_page.wait_for_function(
        "document.getElementById('round-label').textContent.includes('still in')"
    )
    assert ann_page.inner_text("#round-label") == "Round 2 · Mort subite · still in (2 players)"
    bob_page.wait_for_function(
        "document.getElementById('round-label').textContent.includes('out since')"
    )
    assert bob_page.inner_text("#round-label") == (
        "Round 2 · Mort subite · you are out since round 1"
    )
    fill_slip(bob_page, "MOTEL", "5G", "10")  # on Bob's rack, ELMOOT?
    bob_page.wait_for_selector("#receipt .refusal")
    assert "Bob was eliminated at round 1" in bob_page.inner_text("#receipt .refusal")
    assert not bob.slips.filter(round__number=2).exists()
    bob_page.screenshot(path="/tmp/play-sudden-death-out.png", full_page=True)
    assert errors == []
