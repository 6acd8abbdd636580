"""axe-core over the product's pages (issue 37): the sizes, the languages, the WCAG tags, and
``Axe``, which keeps one page per language open in one browser and checks a path at each size
by resizing that page (the path loaded once per language, not once per size).

axe-core comes from the ``axe-playwright-python`` wheel (pyproject.toml), which carries the npm
release's ``axe.min.js``; Playwright loads it into each page before the page's own scripts.
Which pages are checked, and why the others are not: tests/web/test_accessibility_coverage.py.
"""

from __future__ import annotations

import sys
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.test import Client
from django.urls import resolve
from playwright.sync_api import TimeoutError as PlaywrightTimeout

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
PROJECTOR = {"width": 1920, "height": 1080}
SIZES = {"phone": PHONE, "laptop": LAPTOP, "projector": PROJECTOR}
# A sheet of A4 at 96 dpi (210 x 297 mm), printed: the prints and the QR sheets.
A4 = {"width": 794, "height": 1123}
PRINTED = {"laptop": LAPTOP, "A4 print": A4}
# The projectors a club meets: the screen is checked at each.
PROJECTORS = {
    "1920x1080": PROJECTOR,
    "1280x900": {"width": 1280, "height": 900},
    "1024x768": {"width": 1024, "height": 768},
}
LANGUAGES = ["en", "fr"]
# The WCAG success criteria axe-core can check, levels A and AA, of the three versions.
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]
# Two frames: the page has laid itself out again after a resize (and its resize handlers ran).
SETTLED = "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


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


def session_cookie(user: Any, url: str) -> dict[str, str]:
    """The cookie of a session signed in as ``user``."""
    client = Client()
    client.force_login(user)
    return {
        "name": settings.SESSION_COOKIE_NAME,
        "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
        "url": url,
    }


class Axe:
    """One browser context per language (its ``django_language`` cookie, and ``user``'s
    session when given), one page in each, reused from path to path; ``problems`` gathers
    the violations, ``views`` the URL names of the paths checked."""

    def __init__(self, browser: Any, base_url: str, user: Any = None) -> None:
        self.base_url = base_url
        self.problems: list[str] = []
        self.views: set[str] = set()
        self.pages: dict[str, Any] = {}
        for language in LANGUAGES:
            context = with_axe(browser.new_context(viewport=LAPTOP))
            cookies = [{"name": "django_language", "value": language, "url": base_url}]
            if user is not None:
                cookies.append(session_cookie(user, base_url))
            context.add_cookies(cookies)
            self.pages[language] = context.new_page()

    def visit(self, language: str, path: str, *, status: int = 200) -> Any:
        """``path`` opened in ``language``'s page (its answer's status checked)."""
        page = self.pages[language]
        self.views.add(resolve(urlsplit(path).path).view_name)
        response = page.goto(f"{self.base_url}{path}")
        assert response is not None and response.status == status, (path, language)
        return page

    def check(
        self,
        name: str,
        path: str | None,
        *,
        sizes: dict[str, dict[str, int]] = SIZES,
        ready: str | None = None,
        status: int = 200,
        state: str = "",
        act: Any = None,
        measure: Any = None,
    ) -> None:
        """The page at ``path`` (or, with ``path`` None, the page as it is) in each language,
        checked at each of ``sizes`` after ``ready`` (a script's condition) holds and ``act``
        (a function of the page) has run; ``measure(page, viewport, where)``, when given, adds
        its own problems at each size."""
        for language, page in self.pages.items():
            if path is not None:
                self.visit(language, path, status=status)
            where = f"{name} [{', '.join(filter(None, [state, '{}', language]))}]"
            if act is not None:
                act(page)
            if ready is not None:
                try:
                    page.wait_for_function(ready, timeout=15000)
                except PlaywrightTimeout:
                    self.problems.append(f"{where.format('-')}: never got ready ({ready})")
                    continue
            assert page.evaluate("document.documentElement.lang") == language, where
            for size, viewport in sizes.items():
                page.emulate_media(media="print" if viewport is A4 else "screen")
                page.set_viewport_size(viewport)
                page.evaluate(SETTLED)
                found = axe_violations(page, where.format(size))
                if measure is not None:
                    found += measure(page, viewport, where.format(size))
                for line in found:  # seen as they come with pytest -s
                    print(line, file=sys.stderr, flush=True)
                self.problems += found
            page.emulate_media(media="screen")

    def close(self) -> None:
        for page in self.pages.values():
            page.context.close()


# The focus with the keyboard alone (WCAG 2.4.7): the staff's pages Tab goes through, from the
# top of the page, each stop showing a ring of at least 2 px.
FOCUS_PAGES = {
    "console": "/events/club-night/games/1/console/",
    "slip entry": "/events/club-night/games/1/slips/",
    "rulings": "/events/club-night/games/1/rounds/2/rulings/",
    "event": "/events/club-night/",
}
# Tab once: the element that has the focus and whether its ring shows.
STEP = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const s = getComputedStyle(e);
  const ring = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2;
  const r = e.getBoundingClientRect();
  const text = (e.textContent || e.name || '').trim().slice(0, 30);
  return {what: e.tagName + (e.id ? '#' + e.id : '') + ' ' + text,
          visible: e.matches(':focus-visible') && ring, inside: r.width > 0 && r.height > 0};
}"""


def tab_through(page: Any, limit: int = 400) -> list[dict]:
    """Every stop of Tab from the top of the page until the focus leaves it."""
    stops = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        stop = page.evaluate(STEP)
        if stop is None or (stops and stop["what"] == stops[0]["what"]):
            break
        stops.append(stop)
    return stops


def unseen_focus(page: Any, base_url: str) -> list[str]:
    """Each of ``FOCUS_PAGES`` tabbed through on ``page``: where the focus is not seen, or a
    page with fewer than five stops."""
    problems = []
    for name, path in FOCUS_PAGES.items():
        page.goto(f"{base_url}{path}")
        page.evaluate("document.activeElement && document.activeElement.blur()")
        page.mouse.click(1, 1)  # Tab starts from the top of the page (an autofocus aside)
        stops = tab_through(page)
        if len(stops) < 5:
            problems.append(f"{name}: Tab stops at {stops} only")
        unseen = [s["what"] for s in stops if not (s["visible"] and s["inside"])]
        if unseen:
            problems.append(f"{name}: the focus is not seen on {unseen}")
    return problems
