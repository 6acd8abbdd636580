"""The history, the season and the director's training pages in Chromium at a phone's and a
laptop's size: nothing scrolls sideways (wide tables scroll in their own box), the trend line is
drawn; the player reaches their history from the phone page. Screenshots: /tmp/history-*.png."""

from __future__ import annotations

import pytest

from arbiter.simulation import simulate_event
from tests.factories import EventRoleFactory, UserFactory
from tests.web.console.test_console_browser import logged_in
from tests.web.layout import assert_no_horizontal_scroll
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from tournament.models import Event, Game, LicenceConfirmation, Player
from tournament.services.seasons import season_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 768}}


@pytest.fixture
def nights():
    events = []
    for seed in (51, 52):
        summary = simulate_event(players=8, games=1, seed=seed)
        event = Event.objects.get(pk=summary["event"])
        for player in event.players.all():
            player.licence = f"L{player.table:03d}"
            player.name = f"{player.name} Quite-Long-Family-Name"
            player.save(update_fields=["licence", "name"])
        events.append(event)
    director = UserFactory(username="dora")
    for event in events:
        EventRoleFactory(event=event, user=director, role="director")
    # The licences as her imported lists confirm them (a typed one shows its own event only).
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


@pytest.mark.parametrize("size", list(SIZES), ids=list(SIZES))
def test_the_history_season_and_training_pages_fit_the_screen(
    browser,  # noqa: F811
    live_server,
    nights,
    size,
) -> None:
    events, director, season = nights
    page = logged_in(browser, live_server, director, SIZES[size])
    for name, path in [
        ("history", "/players/L001/history/"),
        ("season", f"/seasons/{season.slug}/"),
        ("seasons", "/seasons/"),
        ("training", f"/events/{events[0].slug}/training/"),
        ("training-home", "/training/"),
    ]:
        page.goto(f"{live_server.url}{path}")
        assert_no_horizontal_scroll(page)
        page.screenshot(path=f"/tmp/history-{name}-{size}.png", full_page=True)
        if name == "history":
            assert page.locator("#history tbody tr").count() == 2
            box = page.locator("#trend").bounding_box()
            assert box and box["width"] > 200 and box["x"] + box["width"] <= SIZES[size]["width"]
            # the table fits its card: nothing to scroll sideways inside it either
            holder = page.locator("#history").evaluate(
                "t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]"
            )
            assert holder[0] <= holder[1], f"the history table is {holder[0]}px in {holder[1]}px"
        if name == "season":
            assert page.locator("#season-ranking tbody tr").count() == 8
    page.context.close()


def test_the_player_finds_their_history_on_the_phone(browser, live_server, nights) -> None:  # noqa: F811
    events, *_ = nights
    player = Player.objects.get(event=events[1], licence="L002")
    context = browser.new_context(viewport=SIZES["phone"])
    page = context.new_page()
    page.goto(f"{live_server.url}/play/{player.token}/")
    page.click("#my-history")
    page.wait_for_selector("#history")
    assert page.locator("#history tbody tr").count() == 2
    assert_no_horizontal_scroll(page)
    context.close()
