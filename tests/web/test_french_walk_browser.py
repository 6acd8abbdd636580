"""A French club's night walked end to end in headless Chromium (issue 35): the players imported
from a French spreadsheet on the import page, two games, a phone's slip and a paper slip typed
at the console, the projection screen at 1920x1080, 1280x900 and 1024x768, the audience's page
and a player's history on a 390 px phone, the prints and the workbook. Every page is read for
English (``test_french_browser``'s detector), French typography (``test_french_night``'s), and
measured for sideways overflow. Screenshots: /tmp/fr-walk-<page>-<size>.png."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from arbiter.services import clock, racks
from tests.factories import EventFactory, EventRoleFactory, GameFactory, UserFactory
from tests.web.layout import assert_no_horizontal_scroll
from tests.web.night import publish_round
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture
from tests.web.test_french_browser import context_page, english_left
from tests.web.test_french_night import typography_faults
from tournament.models import Player
from tournament.typography import percent_text

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A French club's sheet, as Excel in French saves it: ';' between cells, Windows-1252.
SHEET = """Nom;Prénom;Club;Licence;Table;Série;Catégorie
Zéro;Élodie;Liège;100001;1;1;Senior
Abel;Yves;Québec;100002;2;2;Vermeil
Lebœuf;Anne;Genève;100003;3;3;Junior
Cœurdevey;Ève;Montréal;100004;4;4;Senior
Dupré;Bruno;Liège;100005;5;5;Diamant
Lefèvre;Chloé;Québec;100006;6;6;Senior
Brûlé;Denis;Genève;100007;7;7;Vermeil
Noël;Émile;Montréal;100008;8;1;Senior
Giraud;François;Liège;100009;9;2;Espoir
Hébert;Gaëlle;Québec;100010;10;3;Senior
Joly;Hélène;Genève;100011;11;4;Émeraude
Kléber;Inès;Montréal;100012;12;5;Senior
Lamy;Jérôme;Liège;100013;13;6;Cadet
Orsini;Maëlys;Québec;100014;14;7;Senior
"""
# Whether a field's placeholder fits inside it (measured in the field's own font).
PLACEHOLDER_FITS = """(selector) => {
  const field = document.querySelector(selector), style = getComputedStyle(field);
  const pen = document.createElement('canvas').getContext('2d');
  pen.font = style.font;
  const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return pen.measureText(field.placeholder).width <= room + 1;
}"""
SIZES = {"1920": (1920, 1080), "1280": (1280, 900), "1024": (1024, 768)}
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 900}


def _read(page, name: str, left: dict[str, object], *, full: bool = True) -> None:
    """Screenshot ``page``, then note its English words, typography faults and overflow."""
    size = page.viewport_size
    page.screenshot(path=f"/tmp/fr-walk-{name}-{size['width']}.png", full_page=full)
    english = english_left(page)
    if english:
        left[f"{name} {size['width']}: English"] = english
    text = page.evaluate("() => document.body.innerText")
    faults = typography_faults(re.sub(r"\b[A-Z]{2,}\?", " ", text))
    if faults:
        left[f"{name} {size['width']}: typography"] = faults
    try:
        assert_no_horizontal_scroll(page)
    except AssertionError as exc:
        left[f"{name} {size['width']}: overflow"] = str(exc)


def test_a_french_night_walked_in_chromium(browser, live_server, tmp_path: Path) -> None:  # noqa: F811
    director = UserFactory(username="dora")
    event = EventFactory(
        name="Soirée du club",
        slug="soiree",
        language="fr",
        solo_min_players=99,
        public_results=True,
    )
    EventRoleFactory(event=event, user=director, role="director")
    one = GameFactory(event=event, number=1, seed=7)
    GameFactory(event=event, number=2, seed=8)
    base = live_server.url
    left: dict[str, object] = {}

    # The players, from the French sheet, on the import page (which names its headers).
    console = context_page(browser, live_server, locale="fr-FR", viewport=LAPTOP, user=director)
    console.goto(base + reverse("console:players_import", args=[event.slug]))
    assert "Prénom" in console.locator("#import-headers").inner_text()
    _read(console, "import", left)
    sheet = tmp_path / "joueurs.csv"
    sheet.write_bytes(SHEET.encode("cp1252"))
    console.set_input_files("input[name=file]", str(sheet))
    with console.expect_navigation():
        console.click("main button[type=submit]")
    assert "14 joueurs importés" in console.inner_text(".messages")
    players = list(Player.objects.filter(event=event).order_by("table"))
    assert [p.name for p in players[2:4]] == ["Anne Lebœuf", "Ève Cœurdevey"]

    # Game 1: two rounds published, a third open.
    publish_round(one, {p: ("WROTE", "H4", 24) for p in players[::2]})
    publish_round(one, {p: ("TREMOLOs", "5G", 68) for p in players[::3]})
    drawn = racks.round_draw(game=one, actor=None)
    assert drawn is not None
    clock.round_open(round=drawn, actor=None, now=timezone.now())

    # A phone (Élodie's), 390 px: it follows game 1, the one in play.
    phone = context_page(browser, live_server, locale="fr-FR", viewport=PHONE)
    phone.goto(base + reverse("play:play_join", args=[players[0].token]))
    phone.wait_for_selector("#net[data-net=ok]")
    phone.wait_for_selector("#history:not([hidden])")
    _read(phone, "phone", left)

    # A paper slip typed at the console.
    console.goto(base + reverse("console:slip_entry", args=[event.slug, 1]))
    console.fill("input[name=table]", "2")
    console.fill("input[name=word]", "OXO")
    console.fill("input[name=ref]", "H8")
    console.fill("input[name=score]", "10")
    with console.expect_navigation():
        console.press("input[name=score]", "Enter")
    _read(console, "slips", left)
    # The reference's placeholder (H8 / 8H / HOR) is in sight, not cut by its field.
    assert console.evaluate(PLACEHOLDER_FITS, "input[name=ref]"), "the reference's hint is cut"
    for name, path in {
        "events": reverse("console:event_list"),
        "event": reverse("console:event_detail", args=[event.slug]),
        "game": reverse("console:game", args=[event.slug, 1]),
        "rulings": reverse("console:round_rulings", args=[event.slug, 1, 2]),
        "print-results": reverse("printing:event_results", args=[event.slug]),
        "print-cards": reverse("printing:score_cards", args=[event.slug, 1]),
        "print-sheet": reverse("printing:game_sheet", args=[event.slug, 1]),
    }.items():
        console.goto(base + path)
        _read(console, name, left)

    # The projection screen at three sizes.
    for width, height in SIZES.values():
        screen = context_page(
            browser,
            live_server,
            locale="fr-FR",
            viewport={"width": width, "height": height},
            user=director,
        )
        screen.goto(base + reverse("screen:game_screen", args=[event.slug, 1]))
        screen.wait_for_function("document.getElementById('standings').children.length > 0")
        _read(screen, "screen", left, full=False)
        screen.context.close()

    # The audience's page and a player's history, on a phone.
    audience = context_page(browser, live_server, locale="fr-FR", viewport=PHONE)
    audience.goto(base + reverse("public:results", args=[event.slug]))
    audience.wait_for_function("document.querySelectorAll('#standings tbody tr').length > 0")
    _read(audience, "public", left)
    row = audience.locator("#standings tbody tr", has_text="Élodie Zéro")
    assert "\u00a0%" in row.inner_text()
    audience.goto(base + reverse("history:player", args=[players[0].licence]))
    _read(audience, "history", left)
    assert "Historique d’Élodie Zéro" in audience.inner_text("h1")

    # Game 2 starts: the phone follows it.
    second = racks.round_draw(game=event.games.get(number=2), actor=None)
    assert second is not None
    clock.round_open(round=second, actor=None, now=timezone.now())
    console.goto(base + reverse("console:game", args=[event.slug, 2]))
    _read(console, "game2", left)
    assert "Partie 2\u00a0: en cours" in console.inner_text("h1")
    phone.reload()
    phone.wait_for_selector("#net[data-net=ok]")
    _read(phone, "phone-game2", left)

    # The workbook: French sheets and properties, the percentages shown as French writes them.
    client = Client()
    client.force_login(director)
    response = client.get(reverse("exports:event_export_xlsx", args=[event.slug]))
    body = b"".join(response.streaming_content) if response.streaming else response.content
    book = load_workbook(io.BytesIO(body))
    assert {p.name for p in book.custom_doc_props.props} == {"Liste de mots", "Mots"}
    assert "Classement" in book.sheetnames
    standings = book["Classement"]
    header = [c.value for c in standings[1]]
    column = next(i for i, h in enumerate(header) if "%" in str(h))
    cell = standings.cell(row=2, column=column + 1)
    assert cell.number_format == '0.00"\u00a0%"' and percent_text(cell.value, "fr").endswith(
        "\u00a0%"
    )

    assert left == {}, left
