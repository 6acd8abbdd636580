"""The printed sheets in Chromium: each printed to an A4 PDF (``page.pdf``) has the pages its
content needs (the game sheet's summary then four boards a page, the results 24 rows a
page and a category a page, one score card a page, twelve QR codes a page); in print media at
the printable width (A4 less the 12 mm margins) no element passes the right edge, the boards'
squares are square, and no navigation or button shows. PDFs and screenshots go to
/tmp/print-*."""

from __future__ import annotations

import io
import math
import re

import pytest

from tests.factories import EventFactory, EventRoleFactory, GameFactory, PlayerFactory, UserFactory
from tests.web.console.test_console_browser import logged_in
from tests.web.layout import assert_square_board
from tests.web.night import publish_round
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = 30
LONG_NAME = "Marie-Christine de La Tour-Dupin"  # every seventh player's
ROUNDS = 24  # a whole game's worth: the card and the summary still fit on one page
SHOTS = "/tmp/print"
MM = 96 / 25.4  # CSS pixels per millimetre
PRINTABLE = {"width": math.floor(186 * MM), "height": math.floor(273 * MM)}  # A4 less 12 mm

# Every element's right edge, in print media: the widest, and which one it is.
_RIGHTMOST = """() => {
  let worst = {right: 0, what: ''};
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const what = e.tagName + '.' + e.className + ' ' + e.textContent.trim().slice(0, 40);
    if (r.right > worst.right) worst = {right: r.right, what: what};
  }
  return worst;
}"""
_VISIBLE = """(selector) => Array.from(document.querySelectorAll(selector)).filter(
  (e) => e.getClientRects().length > 0).length"""


def pdf_pages(pdf: bytes) -> int:
    """The page count of a PDF: pypdf's where it is installed; else its page objects, checked
    against the page tree's /Count."""
    try:
        from pypdf import PdfReader
    except ImportError:
        pass
    else:
        return len(PdfReader(io.BytesIO(pdf)).pages)
    pages = len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))
    counts = [int(n) for n in re.findall(rb"/Type\s*/Pages\b[^>]*?/Count\s+(\d+)", pdf)]
    counts += [int(n) for n in re.findall(rb"/Count\s+(\d+)[^>]*?/Type\s*/Pages\b", pdf)]
    assert pages and max(counts, default=pages) == pages, (pages, counts)
    return pages


@pytest.fixture
def tournament(db):
    """30 players in three series, four clubs and two age categories; game 1 has 24 rounds
    published (seed 7: WROTE by half of them, then TREMOLOS by a third, then tops that nobody
    found)."""
    event = EventFactory(name="Printed open", slug="printed-open", solo_min_players=99)
    # and one name of 120 letters without a space, another player's club too: they wrap on
    # every sheet, no column pushed off the page (issue 25)
    players = [
        PlayerFactory(
            event=event,
            name=f"Player {n:02d} {'Dupont-Lefebvre' if n % 7 else LONG_NAME}",
            table=n,
            club=f"{'ABCD'[n % 4]} Saint-Germain-en-Laye",
            series=1 + n % 3,
            age_category="Junior" if n % 5 == 0 else "Senior",
            licence=f"L{n:05d}",
        )
        for n in range(1, PLAYERS + 1)
    ]
    players[-1].name = "W" * 120
    players[-1].save(update_fields=["name"])
    players[-2].club = "M" * 120
    players[-2].save(update_fields=["club"])
    game = GameFactory(event=event, number=1, seed=7)
    publish_round(game, {p: ("WROTE", "H4", 24) for p in players[::2]})
    publish_round(game, {p: ("TREMOLOs", "5G", 68) for p in players[::3]})
    for _ in range(ROUNDS - 2):
        publish_round(game, {})
    director = UserFactory(username="dora")
    EventRoleFactory(event=event, user=director, role="director")
    return event, game, players, director


def printed(page, url: str, name: str) -> int:
    """Open ``url``, check it in print media at the printable width, print it to an A4 PDF;
    its page count."""
    page.set_viewport_size(PRINTABLE)
    page.emulate_media(media="screen")
    page.goto(url)
    page.screenshot(path=f"{SHOTS}-{name}-screen.png")
    assert page.locator(".topbar").is_visible()
    page.emulate_media(media="print")
    for hidden in (".topbar", "nav", "button", ".no-print", "a.brand"):
        assert page.evaluate(_VISIBLE, hidden) == 0, f"{name}: {hidden} shows in print"
    worst = page.evaluate(_RIGHTMOST)
    assert worst["right"] <= PRINTABLE["width"] + 0.5, (
        f"{name}: {worst['what']!r} ends at {worst['right']:.1f}px, "
        f"past the printable {PRINTABLE['width']}px"
    )
    page.screenshot(path=f"{SHOTS}-{name}-print.png", full_page=True)
    pdf = page.pdf(format="A4", path=f"{SHOTS}-{name}.pdf")
    return pdf_pages(pdf)


def test_each_sheet_prints_on_the_a4_pages_its_content_needs(
    browser,  # noqa: F811
    live_server,
    tournament,
) -> None:
    event, game, players, director = tournament
    page = logged_in(browser, live_server, director, PRINTABLE)
    base = f"{live_server.url}/events/{event.slug}"

    # the game sheet: the summary, then the boards four to a page, each square
    pages = printed(page, f"{base}/games/1/print/sheet/", "sheet")
    assert page.locator("#sheet-rounds tbody tr").count() == ROUNDS
    assert pages == 1 + math.ceil(ROUNDS / 4)
    assert_square_board(page, "#round-1 td.sq", tiles=5)  # WROTE
    assert_square_board(page, "#round-2 td.sq", tiles=12)  # then TREMOLOS through its R
    assert page.locator("#round-2 td.new").count() == 7

    # one score card a page, by table
    assert printed(page, f"{base}/games/1/print/cards/", "cards") == PLAYERS
    first = page.locator(".score-card").first
    assert "Player 01" in first.locator("h1").inner_text()
    assert first.locator(".card-rounds tbody tr").count() == ROUNDS

    # the results: 24 rows a page; by series, the series flow one after the other, each under
    # its heading (a heading costs 3 rows), on as few pages as they fit
    assert printed(page, f"{base}/print/results/", "results") == math.ceil(PLAYERS / 24)
    by_series = printed(page, f"{base}/print/results/?by=series", "results-series")
    assert by_series == math.ceil(PLAYERS / 24) + math.ceil((PLAYERS + 2 * 3) / 24)
    assert page.locator("h1.results-title").count() >= 4  # the results, then each series
    assert printed(page, f"{base}/games/1/print/results/?series=2", "results-s2") == 1
    assert page.locator(".results tbody tr").count() == len([p for p in players if p.series == 2])

    # the QR codes, twelve a page
    assert printed(page, f"{base}/qr/", "qr") == math.ceil(PLAYERS / 12)

    # in French the score cards' longer words fit too
    page.context.set_extra_http_headers({"Accept-Language": "fr"})
    assert printed(page, f"{base}/games/1/print/cards/", "cards-fr") == PLAYERS
    assert "Feuilles de marque" in page.title()
    page.context.close()
