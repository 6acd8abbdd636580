"""The pages of a night that follow the round, checked by axe-core (Deque's engine, the field's
reference) in Chromium against the WCAG 2.0, 2.1 and 2.2 A and AA rules: the console, the slip
entry, the projection screen, the audience's page and a player's phone, in English and French,
at a phone's (390x844), a laptop's (1280x800) and a projector's (1920x1080) size, in each state
of a round a night goes through (open, paused, closed, published, the game over). Any violation
fails, each listed with its page, state, size, language, rule and the elements it found. The
projection screen is also checked at 1280x900 and 1024x768, and its text measured at the three
projectors' sizes: none under 1.8 % of the screen's height. With the round open, Tab goes
through the console, the slip entry, the rulings and the event page, every control showing its
focus (a ring of at least 2 px, WCAG 2.4.7). The slip entry's own keyboard flow (table, Enter,
word, Enter...): tests/web/console/test_walkthrough_browser.py. The other pages:
test_accessibility_pages_browser.py and test_accessibility_more_browser.py.

One night, taken from state to state through the arbiter's services (no clock waited on); one
browser, one page per language, each page loaded once per state and language and checked at
each size by resizing it (tests/web/accessibility.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from arbiter.services import clock, publishing, scoring
from arbiter.services.common import game_finish
from tests.web.accessibility import LAPTOP, PHONE, PROJECTORS, SIZES, Axe, unseen_focus
from tests.web.conftest import club_night
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from tournament.models import Player, Round
from web.public_results import public_cache_clear

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STATES = ["open", "paused", "closed", "published", "over"]
# The URL names this module checks (tests/web/test_accessibility_coverage.py counts them).
VIEWS = {"console:game", "console:slip_entry", "screen:screen", "public:results", "play:play_join"}

# Pages whose content follows the round's state, with what each waits for before it is
# checked (its script has drawn the state).
ROUND_PAGES = {
    "console": ("/events/club-night/games/1/console/", None),
    "slip entry": ("/events/club-night/games/1/slips/", None),
    "public results": (
        "/results/club-night/",
        "document.querySelectorAll('#board td').length === 225 "
        "&& document.getElementById('public').dataset.version",
    ),
}
SCREEN = "/events/club-night/screen/"
SCREEN_READY = "document.querySelectorAll('#board td').length === 225"
PHONE_READY = "document.getElementById('play').dataset.live === 'live'"
# The screen at every size a page is checked at, and at each projector's.
SCREEN_SIZES = {"phone": PHONE, "laptop": SIZES["laptop"], **PROJECTORS}

# Every text on the screen, with its size: the tiles' point values (<sub>) aside, which the rack
# shows larger, and the public results' QR card, which is read up close.
SCREEN_TEXTS = """() => {
  const out = [], walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const e = walker.currentNode.parentElement, text = walker.currentNode.textContent.trim();
    const box = e.getBoundingClientRect();
    if (!text || !box.width || e.closest('sub, .public-qr')) continue;
    out.push({text: text.slice(0, 30), size: parseFloat(getComputedStyle(e).fontSize)});
  }
  return out;
}"""
# The smallest text the back of a room reads: 1.8 % of the screen's height (19.4 px at 1080,
# 16.2 px at 900, 13.8 px at 768), the board's coordinates included.
SMALLEST = 0.018


def night_in(state: str) -> tuple[Any, Any, list[Player], Any]:
    """The club night (game 1: two rounds published, the third open), taken to ``state``."""
    event, game, players, director = club_night()
    event.public_results = True
    event.save(update_fields=["public_results"])
    for n, player in enumerate(players[:2], start=1):
        Player.objects.filter(pk=player.pk).update(licence=f"L{n:03d}")
    # An hour more for the open round: its deadline does not pass while its pages are checked
    # (the pages would show it overdue, and it could no longer be paused).
    clock.round_extend(round=Round.objects.get(game=game, number=3), seconds=3600, actor=None)
    public_cache_clear()
    if state != "open":
        round_to(game, state)
    return event, game, players, director


def round_to(game: Any, state: str) -> None:
    """Game 1's open round taken on to ``state``, from the state before it in ``STATES``,
    through the services a night's clock and director call (the times they are given, not
    waited for)."""
    current = Round.objects.select_related("game__event").get(game=game, number=3)
    now = timezone.now()
    if state == "paused":
        clock.round_pause(round=current, actor=None, now=now)
    elif state == "closed":
        if current.paused_remaining is not None:
            current = clock.round_resume(round=current, actor=None, now=now)
        assert current.deadline is not None
        closing = current.deadline + timezone.timedelta(seconds=game.event.grace_seconds)
        assert clock.round_close(round_id=current.pk, now=closing, score_task=False)
    elif state == "published":
        assert current.closed_at is not None
        scored = scoring.round_score(round_id=current.pk, now=current.closed_at)
        assert scored is not None
        publishing.round_publish(round=scored, actor=None, now=current.closed_at)
    elif state == "over":
        game.refresh_from_db()
        game_finish(game, f"no move is possible with the rack {current.rack}", None)
    public_cache_clear()


def screen_text_sizes(page: Any, viewport: dict[str, int], where: str) -> list[str]:
    """At a projector's size, every text of the screen at least ``SMALLEST`` of its height."""
    if viewport not in PROJECTORS.values():
        return []
    smallest = SMALLEST * viewport["height"]
    return [
        f"{where}: {t['text']!r} is {t['size']:.1f}px, under {smallest:.1f}px"
        for t in page.evaluate(SCREEN_TEXTS)
        if t["size"] < smallest - 0.05
    ]


def test_the_pages_of_a_round_pass_axe_in_each_state_in_both_languages_at_every_size(
    browser,  # noqa: F811
    live_server,
) -> None:
    event, game, players, director = night_in("open")
    axe = Axe(browser, live_server.url, director)
    for state in STATES:
        if state != "open":
            round_to(game, state)
        for name, (path, ready) in ROUND_PAGES.items():
            axe.check(name, path, ready=ready, state=state)
        axe.check(
            "screen",
            SCREEN,
            ready=SCREEN_READY,
            state=state,
            sizes=SCREEN_SIZES,
            measure=screen_text_sizes,
        )
        axe.check("phone", f"/play/{players[0].token}/", ready=PHONE_READY, state=state)
        if state == "open":
            # The staff's pages with the keyboard alone: Tab reaches every control of the
            # console, the slip entry, the rulings and the event page, its focus in sight.
            page = axe.pages["en"]
            page.set_viewport_size(LAPTOP)
            axe.problems += unseen_focus(page, live_server.url)
    axe.close()
    assert not axe.problems, "\n".join(axe.problems)
    assert axe.views == VIEWS, axe.views ^ VIEWS
