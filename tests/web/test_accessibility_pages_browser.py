"""The pages of a night that do not follow the round (the events, the event page, set-up,
staff, rulings, audit, moves, files, training, history, seasons, password, login, the phone's
page signed out and for an unknown code), checked by axe-core against the WCAG 2.0, 2.1 and 2.2
A and AA rules in English and French at a phone's, a laptop's and a projector's size, as
tests/web/test_accessibility_browser.py checks the pages of each round's state (a module of
their own: the suite's workers run the two side by side)."""

from __future__ import annotations

import pytest

from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from tests.web.test_accessibility_browser import (
    LANGUAGES,
    SIZES,
    axe_violations,
    check_pages,
    night_in,
    with_axe,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Pages a night uses whatever the round does: checked once, with the round open.
OTHER_PAGES = {
    "events": "/",
    "event": "/events/club-night/",
    "setup": "/events/club-night/setup/",
    "staff": "/events/club-night/staff/",
    "rulings": "/events/club-night/games/1/rounds/2/rulings/",
    "audit": "/events/club-night/games/1/audit/",
    "moves": "/events/club-night/games/1/rounds/2/moves/",
    "files": "/events/club-night/files/",
    "training": "/training/",
    "event training": "/events/club-night/training/",
    "history": "/players/L001/history/",
    "seasons": "/seasons/",
    "password": "/accounts/password/",
    "phone signed out": "/play/",  # this context holds no player's cookie
    "unknown QR code": "/play/not-a-players-code/",
}


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
            context = with_axe(browser.new_context(viewport=viewport))
            context.add_cookies(
                [{"name": "django_language", "value": language, "url": live_server.url}]
            )
            page = context.new_page()
            page.goto(f"{live_server.url}/accounts/login/")
            problems += axe_violations(page, f"login [{size}, {language}]")
            context.close()
    assert not problems, "\n".join(problems)
