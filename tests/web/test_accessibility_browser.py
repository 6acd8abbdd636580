"""Every page people use on a night, checked by axe-core (Deque's engine, the field's reference)
in Chromium against the WCAG 2.0, 2.1 and 2.2 A and AA rules: in English and in French, at a
phone's (390x844), a laptop's (1280x800) and a projector's (1920x1080) size, in each state of a
round a night goes through (open, paused, closed, published, the game over). Any violation
fails, each listed with its page, state, size, language, rule and the elements it found.

axe-core comes from the ``axe-playwright-python`` wheel (pyproject.toml), which carries the npm
release's ``axe.min.js``; Playwright injects it into each page. One browser for the module, one
context per size and language, each page visited once in it."""

from __future__ import annotations

from collections.abc import Callable
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
    "event": "/events/club-night/",
}
# Pages a night uses whatever the round does: visited once, with the round open.
OTHER_PAGES = {
    "events": "/",
    "setup": "/events/club-night/setup/",
    "rulings": "/events/club-night/games/1/rounds/2/rulings/",
    "audit": "/events/club-night/games/1/audit/",
    "moves": "/events/club-night/games/1/rounds/2/moves/",
    "files": "/events/club-night/files/",
    "training": "/training/",
    "event training": "/events/club-night/training/",
    "history": "/players/L001/history/",
    "seasons": "/seasons/",
    "password": "/accounts/password/",
}

# What a page waits for before it is checked: its script has drawn the state.
READY: dict[str, str] = {
    "screen": "document.querySelectorAll('#board td').length === 225",
    "public results": "document.querySelectorAll('#board td').length === 225 "
    "&& document.querySelectorAll('#standings tbody tr').length > 0",
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


def axe_violations(page: Any, where: str) -> list[str]:
    """axe-core's violations of the WCAG A and AA rules on ``page``, one line each."""
    from axe_playwright_python.sync_playwright import Axe

    options = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
    found = Axe().run(page, options=options).response["violations"]
    lines = []
    for violation in found:
        nodes = violation["nodes"]
        targets = "; ".join(
            f"{' '.join(map(str, n['target']))} ({n.get('failureSummary', '').strip()})"
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
            page.context.add_cookies(
                [{"name": "django_language", "value": language, "url": live_server.url}]
            )
            visits: list[tuple[str, str, Callable[[], None] | None]] = [
                (name, path, None) for name, path in pages.items()
            ]
            if phone:
                visits.append(("phone", f"/play/{player.token}/", None))
            for name, path, _ in visits:
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
    assert not problems, "\n".join(problems)


def test_the_other_pages_of_a_night_pass_axe_in_both_languages_at_every_size(
    browser,  # noqa: F811
    live_server,
) -> None:
    event, game, players, director = night_in("open")
    problems = check_pages(
        browser, live_server, director, players[0], OTHER_PAGES, "open", phone=False
    )
    # The login page, signed out.
    for size, viewport in SIZES.items():
        for language in LANGUAGES:
            context = browser.new_context(viewport=viewport)
            context.add_cookies(
                [{"name": "django_language", "value": language, "url": live_server.url}]
            )
            page = context.new_page()
            page.goto(f"{live_server.url}/accounts/login/")
            problems += axe_violations(page, f"login [{size}, {language}]")
            context.close()
    assert not problems, "\n".join(problems)
