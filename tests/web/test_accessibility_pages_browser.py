"""The pages of a club night that do not follow the round, checked by axe-core against the WCAG
2.0, 2.1 and 2.2 A and AA rules in English and French (tests/web/accessibility.py): the events,
a new event, the event page, set-up, staff, the players' and a game's imports (empty and with a
refused file), rulings, audit, moves, files, an export's page, the QR sheet and one player's QR
card, the four prints, a game's own screen, training, the phone's page signed out and for an
unknown code; the accounts (login, with a wrong password too, the password form and its done
page), an invitation (signed out, with a refused form, signed in, and a refused link), the
403, 404 and 500 pages, and the admin (its login, index, events' list and an event's form).
The screens a person reads at several sizes are checked at a phone's, a laptop's and a
projector's; the prints and the QR sheets at a laptop's and printed on A4. One browser, one
page per language and user, resized from size to size (tests/web/accessibility.py)."""

from __future__ import annotations

import pytest

from tests.factories import EventRoleFactory, UserFactory
from tests.web.accessibility import PRINTED, Axe
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from tests.web.test_accessibility_browser import night_in
from tournament.services.invitations import invitation_create, invitation_token
from web.exports.jobs import export_job_request, export_job_run
from web.outage import server_error_view

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The URL names this module checks (tests/web/test_accessibility_coverage.py counts them).
VIEWS = {
    "console:event_list",
    "console:event_new",
    "console:event_detail",
    "console:setup",
    "console:staff",
    "console:players_import",
    "console:round_rulings",
    "console:round_moves",
    "console:audit",
    "console:invitation",
    "exports:event_files",
    "exports:export_job",
    "exports:game_import",
    "play:qr_sheet",
    "play:qr_player",
    "play:play",
    "play:play_join",
    "printing:event_results",
    "printing:game_results",
    "printing:game_sheet",
    "printing:score_cards",
    "screen:game_screen",
    "training:home",
    "training:event",
    "login",
    "password_change",
    "password_change_done",
    "admin:login",
    "admin:index",
    "admin:tournament_event_changelist",
    "admin:tournament_event_change",
}

# Pages a night uses whatever the round does: checked with the round open.
NIGHT_PAGES = {
    "events": "/",
    "new event": "/events/new/",
    "event": "/events/club-night/",
    "setup": "/events/club-night/setup/",
    "staff": "/events/club-night/staff/",
    "players import": "/events/club-night/players/import/",
    "game import": "/events/club-night/games/import/",
    "rulings": "/events/club-night/games/1/rounds/2/rulings/",
    "audit": "/events/club-night/games/1/audit/",
    "moves": "/events/club-night/games/1/rounds/2/moves/",
    "files": "/events/club-night/files/",
    "training": "/training/",
    "event training": "/events/club-night/training/",
    "password": "/accounts/password/",
}
# The prints (A4) and the QR sheet: read on a laptop, then printed.
PRINTS = {
    "printed results": "/events/club-night/print/results/",
    "printed game results": "/events/club-night/games/1/print/results/",
    "printed game sheet": "/events/club-night/games/1/print/sheet/",
    "printed score cards": "/events/club-night/games/1/print/cards/",
    "QR sheet": "/events/club-night/qr/",
}
GAME_SCREEN_READY = "document.querySelectorAll('#board td').length === 225"
# A refused upload: a file whose first row names no column the import knows.
BAD_FILE = {"name": "players.csv", "mimeType": "text/csv", "buffer": b"nobody\n1\n"}


def upload_refused(page) -> None:
    page.set_input_files("input[type=file]", BAD_FILE)
    with page.expect_navigation():
        page.locator("form[enctype] button[type=submit]").first.click()
    assert page.locator(".errors li, .error, [role=alert]").count() >= 1


def test_the_other_pages_of_a_night_pass_axe_in_both_languages_at_every_size(
    browser,  # noqa: F811
    live_server,
) -> None:
    event, game, players, director = night_in("open")
    url = live_server.url
    job = export_job_request(event=event, actor=director)

    staff = Axe(browser, url, director)
    for name, path in NIGHT_PAGES.items():
        staff.check(name, path)
    for name in ("players import", "game import"):
        staff.check(f"{name}, a file refused", NIGHT_PAGES[name], act=upload_refused)
    staff.check("export running", f"/events/club-night/exports/{job.pk}/")
    export_job_run(job_id=job.pk)
    staff.check("export done", f"/events/club-night/exports/{job.pk}/")
    for name, path in PRINTS.items():
        staff.check(name, path, sizes=PRINTED)
    staff.check(
        "player's QR card", f"/events/club-night/players/{players[0].pk}/qr/", sizes=PRINTED
    )
    staff.check("game screen", "/events/club-night/games/1/screen/", ready=GAME_SCREEN_READY)
    staff.check("password changed", "/accounts/password/done/")
    staff.check("404", "/events/no-such-event/", status=404)
    staff.close()
    problems = staff.problems
    views = staff.views

    # Signed out: the login page (and its refusal), the phone's page without a player's cookie
    # or with an unknown code, an invitation and a refused link, and the admin's login.
    invitation = invitation_create(event=event, name="Ivy", role="arbiter", actor=director)
    invited = f"/invitations/{invitation_token(invitation)}/"
    anyone = Axe(browser, url)
    anyone.check("login", "/accounts/login/")
    anyone.check("login refused", None, act=wrong_password)
    anyone.check("phone signed out", "/play/", status=403)
    anyone.check("unknown QR code", "/play/not-a-players-code/", status=404)
    anyone.check("invitation", invited)
    anyone.check("invitation refused form", None, act=passwords_differ)
    anyone.check("invitation bad link", "/invitations/not-a-token/", status=400)
    anyone.check("admin login", "/admin/login/")
    # The 500 page as the site's handler500 answers a page (Django's ``server_error`` with the
    # product's 500.html), served at a path of the site so that its style sheet loads.
    anyone.check("500", None, act=lambda page: served_500(page, url))
    anyone.close()
    problems += anyone.problems
    views |= anyone.views

    # Signed in: the invitation to accept; an arbiter on a director's page (403).
    arbiter = UserFactory(username="archie")
    EventRoleFactory(event=event, user=arbiter, role="arbiter")
    other = Axe(browser, url, arbiter)
    other.check("invitation signed in", invited)
    other.check("403", "/events/club-night/setup/", status=403)
    other.close()
    problems += other.problems
    views |= other.views

    # The admin, for a superuser.
    boss = Axe(browser, url, UserFactory(username="root", is_superuser=True, is_staff=True))
    boss.check("admin index", "/admin/")
    boss.check("admin events", "/admin/tournament/event/")
    boss.check("admin event", f"/admin/tournament/event/{event.pk}/change/")
    boss.close()
    problems += boss.problems
    views |= boss.views

    assert not problems, "\n".join(problems)
    assert views == VIEWS, views ^ VIEWS


def wrong_password(page) -> None:
    page.fill("input[name=username]", "nobody")
    page.fill("input[name=password]", "not the password")
    with page.expect_navigation():
        page.locator("main form button[type=submit]").first.click()
    assert page.locator(".errorlist, .error, [role=alert]").count() >= 1


def passwords_differ(page) -> None:
    page.fill("input[name=username]", "ivy")
    page.fill("input[name=password1]", "a-long-enough-secret-1")
    page.fill("input[name=password2]", "another-secret-2")
    with page.expect_navigation():
        page.locator("main form button[type=submit]").first.click()
    assert page.locator(".errorlist, .error, [role=alert]").count() >= 1


def served_500(page, url: str) -> None:
    """The site's 500 page for a page's request, at ``/broken/`` (rendered by the handler's
    view in the page's language, then served by Playwright from the site's origin)."""
    from django.test import RequestFactory
    from django.utils import translation

    language = page.evaluate("document.cookie").split("django_language=")[1][:2]
    with translation.override(language):
        response = server_error_view(RequestFactory().get("/broken/"))
    assert response.status_code == 500
    page.route(
        f"{url}/broken/",
        lambda route: route.fulfill(
            status=500, body=response.content, content_type=response["Content-Type"]
        ),
    )
    page.goto(f"{url}/broken/")
    page.unroute(f"{url}/broken/")
