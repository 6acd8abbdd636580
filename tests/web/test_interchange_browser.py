"""The pages added for issue 16 (the Eliot import, the category downloads, the players'
series and age categories) in Chromium at a laptop's size: inside the site's layout (the
card, no sideways scroll), the refusals listed inside the card. Screenshots go to
/tmp/interchange-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.web.console.test_console_browser import logged_in
from tests.web.layout import assert_no_horizontal_scroll
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 800}
SHOTS = "/tmp/interchange"
HAND = Path(__file__).resolve().parents[1] / "data" / "eliot" / "hand_arbitration.xml"

_INSIDE = """([inner, outer]) => {
  const i = document.querySelector(inner).getBoundingClientRect();
  const o = document.querySelector(outer).getBoundingClientRect();
  return i.left >= o.left - 1 && i.right <= o.right + 1 && i.top >= o.top - 1
    && i.bottom <= o.bottom + 1 && i.width > 0 && i.height > 0;
}"""


def test_the_import_page_lists_a_refused_file_inside_its_card(
    browser,  # noqa: F811
    live_server,
    night,
    tmp_path: Path,
) -> None:
    event, game, players, director = night
    page = logged_in(browser, live_server, director, LAPTOP)
    page.goto(f"{live_server.url}/events/{event.slug}/games/import/")
    assert page.evaluate(_INSIDE, ["form input[type=file]", "section.card"])
    bad = tmp_path / "bad.xml"
    bad.write_bytes(HAND.read_bytes().replace(b"<Turns>4</Turns>", b"<Turns>6</Turns>"))
    page.set_input_files("section.card input[type=file]", str(bad))
    page.click("section.card button[type=submit]")
    page.wait_for_selector("#import-errors")
    page.screenshot(path=f"{SHOTS}-import-refused.png", full_page=True)
    assert page.evaluate(_INSIDE, ["#import-errors", "section.card"])
    assert "says 6 turns but the history holds 4" in page.inner_text("#import-errors")
    assert_no_horizontal_scroll(page)
    page.context.close()


def test_the_event_page_and_the_set_up_show_the_categories_in_the_layout(
    browser,  # noqa: F811
    live_server,
    night,
) -> None:
    event, game, players, director = night
    page = logged_in(browser, live_server, director, LAPTOP)
    page.goto(f"{live_server.url}/events/{event.slug}/")
    page.screenshot(path=f"{SHOTS}-event.png", full_page=True)
    page.locator("section:has(#standings-filter)").screenshot(path=f"{SHOTS}-results.png")
    assert page.evaluate(_INSIDE, ["#standings-filter", "section:has(#standings-filter)"])
    assert page.evaluate(_INSIDE, ["#interchange", "main"])
    assert_no_horizontal_scroll(page)
    page.goto(f"{live_server.url}/events/{event.slug}/setup/")
    page.screenshot(path=f"{SHOTS}-setup.png", full_page=True)
    assert page.evaluate(_INSIDE, ["#player-add", "main"])
    first_save = "table.rulings tr:nth-child(2) button"
    assert page.evaluate(_INSIDE, [first_save, "table.rulings"])
    players_card = "section:has(table.rulings)"
    assert page.evaluate(_INSIDE, ["table.rulings", players_card]), "the players' table overflows"
    assert_no_horizontal_scroll(page)
    page.goto(f"{live_server.url}/events/{event.slug}/games/{game.number}/console/")
    page.screenshot(path=f"{SHOTS}-console.png")
    assert page.evaluate(_INSIDE, ["#downloads", ".console-head"])
    page.context.close()


def test_the_files_page_says_what_each_file_is_inside_the_layout(
    browser,  # noqa: F811
    live_server,
    night,
) -> None:
    """The files for other programs (issue 23): SIGLES said and how to send it, and a game's
    players that Eliot counts otherwise in a table inside its card."""
    from arbiter.services.corrections import ruling_amend
    from tournament.models import Ruling

    event, game, players, director = night
    # an average for a round missed is before-2023's (rules.md rule 10; the regulation in force
    # averages only a word not admitted played again, 5.9)
    type(event).objects.filter(pk=event.pk).update(rulebook="before-2023")
    zero = Ruling.objects.filter(round__game=game, round__number=2, points=0).first()
    assert zero is not None
    assert ruling_amend(ruling=zero, reason="second zero", actor=None, averaged=True).points > 0
    page = logged_in(browser, live_server, director, LAPTOP)
    page.goto(f"{live_server.url}/events/{event.slug}/")
    page.click("#interchange a[href$='/files/']")
    page.wait_for_selector("#sigles")
    page.screenshot(path=f"{SHOTS}-files.png", full_page=True)
    assert "attach it as it is" in page.inner_text("#sigles")
    assert page.evaluate(_INSIDE, ["#game-1 table.gaps", "#game-1"])
    assert "average" in page.inner_text("#game-1 table.gaps")
    assert "as this game does" in page.inner_text("#game-2")
    assert_no_horizontal_scroll(page)
    page.context.close()
