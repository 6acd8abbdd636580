"""The pages beyond one club night, checked by axe-core against the WCAG 2.0, 2.1 and 2.2 A and
AA rules in English and French at a phone's, a laptop's and a projector's size
(tests/web/accessibility.py): a player's history over two events, the seasons, a season and its
print (on a laptop and printed on A4), training (a game's start page, then an attempt playing,
with its result and finished, in replay and in topping), and a simultaneous event (the host's
rooms page, a remote room's page with its import, the projection screen's one ranking at each
projector's size, its text measured as the screen's is). One browser, one page per language,
resized from size to size."""

from __future__ import annotations

import pytest
from django.utils import timezone

from arbiter.services.simultaneous import game_draw_whole
from arbiter.services.training import training_next, training_slip_submit, training_start
from arbiter.simulation import simulate_event
from tests.factories import EventFactory, EventRoleFactory, PlayerFactory, UserFactory
from tests.web.accessibility import PRINTED, Axe
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from tests.web.test_accessibility_browser import SCREEN_SIZES, screen_text_sizes
from tournament.models import Event, Game, LicenceConfirmation, Player
from tournament.services.rooms import room_create
from tournament.services.seasons import season_create
from web.training.views import training_key

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The URL names this module checks (tests/web/test_accessibility_coverage.py counts them).
VIEWS = {
    "history:player",
    "history:seasons",
    "history:season",
    "history:season_print",
    "training:game",
    "training:attempt",
    "console:simultaneous",
    "screen:screen",
}
CLOCK_DRAWN = "!document.getElementById('clock') || document.getElementById('clock').textContent"
RANKING_DRAWN = "document.getElementById('standings-title').textContent !== ''"


def two_nights() -> tuple[list[Event], object, object]:
    """Two played events (8 players, one game each) directed by dora, their licences
    confirmed, the first's game open for training; a season of the two."""
    events = []
    for seed in (51, 52):
        summary = simulate_event(players=8, games=1, seed=seed)
        event = Event.objects.get(pk=summary["event"])
        for player in event.players.all():
            player.licence = f"L{player.table:03d}"
            player.save(update_fields=["licence"])
        events.append(event)
    director = UserFactory(username="dora")
    for event in events:
        EventRoleFactory(event=event, user=director, role="director")
    Player.objects.filter(event__in=events).update(
        licence_confirmed=LicenceConfirmation.DIRECTOR, licence_confirmed_by=director
    )
    Game.objects.filter(event=events[0]).update(training_open=True)
    season = season_create(
        name="Winter 2026",
        owner=director,
        event_ids=[e.pk for e in events],
        method="sum",
        best_n=None,
    )
    return events, director, season


def attempts(game: Game) -> dict[str, str]:
    """An attempt at ``game`` in each state, in replay and in topping: their tokens (an hour a
    round, the longest training allows: no round's time runs out while the pages are checked,
    which would send the page on to the round's result)."""
    now = timezone.now()
    rounds = list(game.rounds.filter(status="published").order_by("number"))
    found = {}
    for mode in ("replay", "topping"):
        start = dict(game=game, user=None, name="Zoé", mode=mode, round_seconds=3600, now=now)
        playing = training_start(**start)
        if mode == "topping":  # a wrong try, listed under the slip
            training_slip_submit(attempt=playing, word="ZZZ", ref="H8", score=1, now=now)
        found[f"{mode} playing"] = playing.token
        result = training_start(**start)
        top = rounds[0]
        training_slip_submit(
            attempt=result,
            word=top.played_word,
            ref=top.played_ref,
            score=top.played_score,
            now=now,
        )
        found[f"{mode} result"] = result.token
        done = training_start(**start)
        for r in rounds:
            training_slip_submit(
                attempt=done, word=r.played_word, ref=r.played_ref, score=r.played_score, now=now
            )
            done = training_next(attempt=done, now=now)
        assert done.is_finished
        found[f"{mode} finished"] = done.token
    return found


def simultaneous(director: object) -> tuple[Event, Event]:
    """A host with a whole game drawn, a room here and a room elsewhere, a few players each."""
    host = EventFactory(name="Simul", slug="simul", solo_min_players=2)
    EventRoleFactory(event=host, user=director, role="director")
    game_draw_whole(event=host, actor=director, seed=11)
    here = room_create(host=host, name="Annexe", actor=director, venue="Hall B")
    far = room_create(host=host, name="Far away", actor=director, remote=True)
    for n, event in enumerate((host, here, far)):
        for table in (1, 2):
            PlayerFactory(event=event, name=f"Player {n}{table}", club=f"Club {n}", table=table)
    return host, far


def test_history_seasons_training_and_a_simultaneous_event_pass_axe(
    browser,  # noqa: F811
    live_server,
) -> None:
    events, director, season = two_nights()
    game = Game.objects.get(event=events[0], number=1)
    tokens = attempts(game)
    host, far = simultaneous(director)

    axe = Axe(browser, live_server.url, director)
    axe.check("history", "/players/L001/history/")
    axe.check("seasons", "/seasons/")
    axe.check("season", f"/seasons/{season.slug}/")
    axe.check("season print", f"/seasons/{season.slug}/print/", sizes=PRINTED)
    axe.check("training start", f"/training/g/{training_key(game)}/")
    for name, token in tokens.items():
        axe.check(f"training {name}", f"/training/a/{token}/", ready=CLOCK_DRAWN)
    axe.check("rooms", f"/events/{host.slug}/simultaneous/")
    axe.check("remote room", f"/events/{far.slug}/simultaneous/")
    axe.check(
        "screen, one ranking",
        f"/events/{host.slug}/screen/?ranking=simultaneous",
        ready=RANKING_DRAWN,
        sizes=SCREEN_SIZES,
        measure=screen_text_sizes,
    )
    axe.close()
    assert not axe.problems, "\n".join(axe.problems)
    assert axe.views == VIEWS, axe.views ^ VIEWS
