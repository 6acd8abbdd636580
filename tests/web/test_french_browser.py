"""The main pages in French, in real headless Chromium: a French browser walks the console (the
events, an event, a game with a round open, slip entry, the rulings of a published round, the
standings), the login page, the projection screen and a player's phone (a phone set to English:
the French event's language wins), reading every visible word, and finds no English left.

English is recognised by its words: every word of the catalogues' English source strings and a
list of common English words, less every word the French translations use (so "top", "solo",
"score", "total", "table", "club" pass) and the names of the night (players, event, account).
The event is French from the start, so its rulings' reasons are written in French when the
slips are ruled. Two things are left out, on purpose and by name: the audit log's action codes
(``code``: identifiers such as ``arbiter.round.opened``), and what a page marks as English
(``lang="en"``: the import page's English headers, which the importer reads in any language).
Screenshots: /tmp/fr-*.png.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.web.conftest import club_night
from tests.web.layout import assert_no_horizontal_scroll
from tests.web.play.test_play_browser import browser  # noqa: F401 - the shared Chromium fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOCALE = Path(settings.BASE_DIR) / "locale"
_COMMON = """
the of and to in is are for with on by from at this that these your you yes no not none
all any each every one two three first second next previous back new game games round
rounds player players slip slips rack racks board standings ruling rulings rank gap
warning warnings penalty penalties blank blanks word words reference late open closed
published paused scored drawn annulled valid invalid missing waiting event events
director arbiter arbiters score send sent received replace replaced keep kept enter
entry save saved close now extend pause resume publish draw start clock seconds
log out password admin language english french sign in up there here has have was
will be been being it its they their them his her he she we our us an or but if so
than then when where who what which how why after before over under more most less
"""
COMMON_ENGLISH = frozenset(_COMMON.split())
# Words of the night's data, not of the interface: names, the event, the account; and the
# switch's "English", which names the other language in that language.
ALLOWED = {"player", "longname", "club", "night", "dora", "duplicate", "scrabble", "english"}
ALLOWED |= {"room"}  # the factories' venue, "Club room": data, not the interface
ALLOWED |= {"québec"}  # a place (the rooms test names a room after it), in both languages
PROBE = """() => {
  const skip = (el) => el.closest('code, script, style, [hidden], [lang=en]');
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode, el = node.parentElement;
    const shown = el && (el.offsetParent !== null || getComputedStyle(el).position === 'fixed');
    if (!shown || skip(el)) continue;
    out.push(node.textContent);
  }
  document.querySelectorAll('input[placeholder], [title], [aria-label]').forEach((el) => {
    if (skip(el)) return;
    for (const a of ['placeholder', 'title', 'aria-label']) {
      if (el.getAttribute(a)) out.push(el.getAttribute(a));
    }
  });
  out.push(document.title);
  return out.join(' \\n ');
}"""


def catalogue_strings(kind: str) -> list[str]:
    """Every source string (``kind="msgid"``: msgid, msgid_plural) or every translation
    (``kind="msgstr"``) of the French catalogues, continuation lines joined."""
    found: list[str] = []
    keep = False
    for po in (LOCALE / "fr" / "LC_MESSAGES").glob("*.po"):
        for line in po.read_text(encoding="utf-8").splitlines():
            m = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) "(.*)"$', line)
            if m:
                keep = m.group(1).startswith(kind)
                if keep:
                    found.append(m.group(2))
            elif line.startswith('"') and keep:
                found[-1] += line[1:-1]
            else:
                keep = False
    return found


def words(text: str) -> set[str]:
    text = re.sub(r"%\(\w+\)[sd]|%[sd]|<[^>]+>", " ", text)
    return {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ’']+", text) if len(w) > 1}


def english_words() -> set[str]:
    english = COMMON_ENGLISH.union(*(words(s) for s in catalogue_strings("msgid")))
    french = set().union(*(words(s) for s in catalogue_strings("msgstr")))
    return english - french - ALLOWED


def english_left(page) -> set[str]:
    seen = {w.strip("’'") for w in words(page.evaluate(PROBE))}
    return seen & english_words()


LAPTOP = {"width": 1366, "height": 900}
PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 360, "height": 740}


def context_page(browser, live_server, *, locale: str, viewport: dict, user=None):  # noqa: F811
    context = browser.new_context(locale=locale, viewport=viewport)
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
        )
    return context.new_page()


def walk(page, url: str, shot: str, ready: str = "main") -> set[str]:
    page.goto(url)
    page.wait_for_selector(ready)
    page.screenshot(path=f"/tmp/fr-{shot}.png", full_page=True)
    return english_left(page)


def test_the_catalogue_words_make_a_usable_detector() -> None:
    """The detector knows English from French: it would catch the pages' old English."""
    english = english_words()
    assert {"the", "standings", "slip", "round", "send", "withdrawn"} <= english
    assert not {"top", "solo", "score", "total", "table", "joker", "tirage"} & english


def test_the_main_pages_in_french_have_no_english_left(
    browser,  # noqa: F811
    live_server,
    db,
) -> None:
    event, game, players, director = club_night("fr")
    base = live_server.url
    console = context_page(browser, live_server, locale="fr-FR", viewport=LAPTOP, user=director)
    left: dict[str, set[str]] = {}
    pages = {
        "events": (reverse("console:event_list"), "main"),
        "event": (reverse("console:event_detail", args=[event.slug]), "main"),
        "game": (reverse("console:game", args=[event.slug, 1]), "#console"),
        "slips": (reverse("console:slip_entry", args=[event.slug, 1]), "#slip-entry"),
        "rulings": (reverse("console:round_rulings", args=[event.slug, 1, 2]), "#rulings"),
        "staff": (reverse("console:staff", args=[event.slug]), "main"),
        "setup": (reverse("console:setup", args=[event.slug]), "main"),
    }
    for name, (path, ready) in pages.items():
        left[name] = walk(console, base + path, name, ready)
    # The console's header offers English back, in the header, beside the account's links.
    switch = console.locator("header form.language button")
    assert switch.inner_text() == "English"
    header = console.locator("header.topbar").bounding_box()
    button = switch.bounding_box()
    assert header and button and header["y"] <= button["y"] <= header["y"] + header["height"]
    # The standings: the game page's panel, in French.
    console.goto(base + reverse("console:game", args=[event.slug, 1]))
    assert "Classement" in console.locator(".two h2").first.inner_text()

    # The projection screen (its script's strings come from the French catalogue).
    screen = context_page(
        browser,
        live_server,
        locale="fr-FR",
        viewport=PROJECTOR,
        user=director,
    )
    screen.goto(base + reverse("screen:game_screen", args=[event.slug, 1]))
    screen.wait_for_function("document.getElementById('standings').children.length > 0")
    screen.screenshot(path="/tmp/fr-screen.png")
    assert screen.locator("#standings-title").inner_text().startswith("Classement après 2 coups")
    left["screen"] = english_left(screen)

    # The login page, for a French browser with nobody signed in.
    visitor = context_page(browser, live_server, locale="fr-FR", viewport=LAPTOP)
    left["login"] = walk(visitor, base + reverse("login"), "login", "form")

    # A player's phone set to English: the French event's language wins.
    phone = context_page(browser, live_server, locale="en-US", viewport=PHONE)
    phone.goto(base + reverse("play:play_join", args=[players[0].token]))
    phone.wait_for_selector("#net[data-net=ok]")
    phone.wait_for_selector("#history:not([hidden])")
    phone.screenshot(path="/tmp/fr-phone.png", full_page=True)
    # (the live server of this test has no stream: the page polls, and says how often)
    assert phone.locator("#net").inner_text() == "Connecté · en direct (demande toutes les 2 s)"
    assert phone.locator("#submit").inner_text() == "Envoyer mon bulletin"
    assert_no_horizontal_scroll(phone)  # the longer French words still fit a small phone
    left["phone"] = english_left(phone)

    assert {name: found for name, found in left.items() if found} == {}
