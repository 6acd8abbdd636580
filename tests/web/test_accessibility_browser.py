"""The pages of a night that follow the round, checked by axe-core (Deque's engine, the field's
reference) in Chromium against the WCAG 2.0, 2.1 and 2.2 A and AA rules: in English and French, at a
phone's (390x844), a laptop's (1280x800) and a projector's (1920x1080) size, in each state of a
round a night goes through (open, paused, closed, published, the game over). Any violation
fails, each listed with its page, state, size, language, rule and the elements it found. The
projection screen is also checked at 1280x900 and 1024x768, and its text measured: none under
1.8 % of the screen's height. The other pages of a night: test_accessibility_pages_browser.py.

axe-core comes from the ``axe-playwright-python`` wheel (pyproject.toml), which carries the npm
release's ``axe.min.js`` (4.12.1); Playwright loads it into each page. One browser for the
module, one context per size and language, each page visited once in it."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from arbiter.services import clock, publishing, scoring
from arbiter.services.common import game_finish
from tests.web.conftest import club_night
from tests.web.console.test_console_browser import logged_in
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from tournament.models import Player, Round
from web.public_results import public_cache_clear

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {
    "phone": {"width": 390, "height": 844},
    "laptop": {"width": 1280, "height": 800},
    "projector": {"width": 1920, "height": 1080},
}
LANGUAGES = ["en", "fr"]
# The WCAG success criteria axe-core can check, levels A and AA, of the three versions.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
STATES = ["open", "paused", "closed", "published", "over"]

# Pages whose content follows the round's state: visited in every state.
ROUND_PAGES = {
    "console": "/events/club-night/games/1/console/",
    "slip entry": "/events/club-night/games/1/slips/",
    "screen": "/events/club-night/screen/",
    "public results": "/results/club-night/",
}
# What a page waits for before it is checked: its script has drawn the state.
READY: dict[str, str] = {
    "screen": "document.querySelectorAll('#board td').length === 225",
    "public results": "document.querySelectorAll('#board td').length === 225 "
    "&& document.getElementById('public').dataset.version",
    "phone": "document.getElementById('play').dataset.live === 'live'",
}


def night_in(state: str) -> tuple[Any, Any, list[Player], Any]:
    """The club night (game 1: two rounds published, the third open), taken to ``state``."""
    event, game, players, director = club_night()
    event.public_results = True
    event.save(update_fields=["public_results"])
    for n, player in enumerate(players[:2], start=1):
        Player.objects.filter(pk=player.pk).update(licence=f"L{n:03d}")
    public_cache_clear()
    current = Round.objects.get(game=game, number=3)
    now = timezone.now()
    if state == "paused":
        clock.round_pause(round=current, actor=None, now=now)
    if state in ("closed", "published", "over"):
        assert current.deadline is not None
        closing = current.deadline + timezone.timedelta(seconds=event.grace_seconds)
        assert clock.round_close(round_id=current.pk, now=closing, score_task=False)
        if state != "closed":
            scored = scoring.round_score(round_id=current.pk, now=closing)
            assert scored is not None
            publishing.round_publish(round=scored, actor=None, now=closing)
    if state == "over":
        game.refresh_from_db()
        game_finish(game, f"no move is possible with the rack {current.rack}", None)
    return event, game, players, director


def with_axe(context: Any) -> Any:
    """``context`` with axe-core loaded in each page it opens (once, before the page's own
    scripts, instead of sending its 570 kB at each check)."""
    from axe_playwright_python.base import AXE_SCRIPT

    context.add_init_script(AXE_SCRIPT)
    return context


def axe_violations(page: Any, where: str) -> list[str]:
    """axe-core's violations of the WCAG A and AA rules on ``page``, one line each."""
    options = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
    found = page.evaluate("(options) => axe.run(document, options)", options)["violations"]
    lines = []
    for violation in found:
        nodes = violation["nodes"]
        targets = "; ".join(
            f"{' '.join(map(str, n['target']))} ({' '.join(n.get('failureSummary', '').split())})"
            for n in nodes[:4]
        )
        more = f" and {len(nodes) - 4} more" if len(nodes) > 4 else ""
        lines.append(f"{where}: {violation['id']} ({violation['impact']}): {targets}{more}")
    return lines


def check_pages(
    browser: Any,  # noqa: F811
    live_server: Any,
    director: Any,
    player: Player,
    pages: dict[str, str],
    state: str,
    *,
    phone: bool,
) -> list[str]:
    """Every page of ``pages`` (and the player's phone when ``phone``) at every size, in both
    languages: the violations axe-core finds."""
    problems: list[str] = []
    for size, viewport in SIZES.items():
        for language in LANGUAGES:
            page = logged_in(browser, live_server, director, viewport)
            with_axe(page.context).add_cookies(
                [{"name": "django_language", "value": language, "url": live_server.url}]
            )
            visits = list(pages.items())
            if phone:
                visits.append(("phone", f"/play/{player.token}/"))
            for name, path in visits:
                where = f"{name} [{state}, {size}, {language}]"
                page.goto(f"{live_server.url}{path}")
                if name in READY:
                    try:
                        page.wait_for_function(READY[name], timeout=15000)
                    except PlaywrightTimeout:
                        problems.append(f"{where}: never drew its state ({READY[name]})")
                        continue
                assert page.evaluate("document.documentElement.lang") == language, where
                problems += axe_violations(page, where)
            page.context.close()
    return problems


# The projectors a club meets: the screen is checked at each, besides the sizes above.
PROJECTORS = {
    "1920x1080": {"width": 1920, "height": 1080},
    "1280x900": {"width": 1280, "height": 900},
    "1024x768": {"width": 1024, "height": 768},
}
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
# The smallest text the back of a room reads: 1.8 % of the screen's height (19 px at 1080,
# 14 px at 768), the board's coordinates included.
SMALLEST = 0.018


def check_screen(browser: Any, live_server: Any, director: Any, state: str) -> list[str]:  # noqa: F811
    """The projection screen at each projector's size: axe-core in both languages (1920x1080 is
    among the sizes of every page), and no text too small to read from the back of the room."""
    problems: list[str] = []
    for size, viewport in PROJECTORS.items():
        for language in LANGUAGES:
            page = logged_in(browser, live_server, director, viewport)
            with_axe(page.context).add_cookies(
                [{"name": "django_language", "value": language, "url": live_server.url}]
            )
            page.goto(f"{live_server.url}{ROUND_PAGES['screen']}")
            page.wait_for_function(READY["screen"])
            where = f"screen [{state}, {size}, {language}]"
            if size != "1920x1080":
                problems += axe_violations(page, where)
            smallest = SMALLEST * viewport["height"]
            problems += [
                f"{where}: {t['text']!r} is {t['size']:.1f}px, under {smallest:.1f}px"
                for t in page.evaluate(SCREEN_TEXTS)
                if t["size"] < smallest - 0.05
            ]
            page.context.close()
    return problems


@pytest.mark.parametrize("state", STATES)
def test_the_pages_of_a_round_pass_axe_in_both_languages_at_every_size(
    browser,  # noqa: F811
    live_server,
    state: str,
) -> None:
    event, game, players, director = night_in(state)
    problems = check_pages(
        browser, live_server, director, players[0], ROUND_PAGES, state, phone=True
    )
    problems += check_screen(browser, live_server, director, state)
    assert not problems, "\n".join(problems)
