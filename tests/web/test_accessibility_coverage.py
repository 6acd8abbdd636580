"""Every page of the product is checked by axe-core (issue 37), or listed here with the reason it
is not a page: a new URL fails this test until one of the accessibility modules visits it (and
names it in its ``VIEWS``: each of them asserts that what it visited is exactly its ``VIEWS``)
or it is listed below with its reason. The URLs are read from the resolver, as Django serves
them, the admin's included."""

from __future__ import annotations

from collections.abc import Iterator

from django.urls import URLPattern, URLResolver, get_resolver

from tests.web import (
    test_accessibility_browser,
    test_accessibility_more_browser,
    test_accessibility_pages_browser,
)

CHECKED = (
    test_accessibility_browser.VIEWS
    | test_accessibility_pages_browser.VIEWS
    | test_accessibility_more_browser.VIEWS
)

JSON = "JSON for a script or a program, no page"
DOWNLOAD = "a file to download (a workbook, a CSV, a zip, an XML, a text), no page"
POSTED = "a form's POST: it answers by a redirect to a checked page (with its message)"
# The URL names that are not pages, with the reason. A namespace ends with ":".
NOT_PAGES = {
    "play_api:": "the phone's JSON API",
    "staff_api:": "the staff's JSON API",
    "exports:api_game_import": "the staff's JSON API",
    "exports:api_event_export": "the staff's JSON API",
    "exports:api_export_job": "the staff's JSON API",
    "api-schema": "the API's OpenAPI schema (JSON)",
    "healthz": "the health check (JSON)",
    "favicon": "the site's icon",
    "javascript_catalog": "the scripts' translations (a script)",
    "set_language": POSTED,
    "logout": POSTED,
    "console:word_list_state": JSON,
    "console:game_state": JSON,
    "console:slip_table": JSON,
    "screen:state": JSON,
    "screen:game_state": JSON,
    "public:state": JSON,
    "console:setup_post": POSTED,
    "console:setup_post_one": POSTED,
    "console:action": POSTED,
    "console:room_add": POSTED,
    "console:room_results_upload": POSTED,
    "console:staff_post": POSTED,
    "console:staff_post_one": POSTED,
    "play:player_token_revoke": POSTED,
    "play:player_token_reissue": POSTED,
    "exports:export_job_create": POSTED,
    "console:room_results": DOWNLOAD,
    "exports:event_export_xlsx": DOWNLOAD,
    "exports:game_export_xlsx": DOWNLOAD,
    "exports:event_export_csv_zip": DOWNLOAD,
    "exports:game_export_csv_zip": DOWNLOAD,
    "exports:standings_csv": DOWNLOAD,
    "exports:categories_csv": DOWNLOAD,
    "exports:ranking_csv": DOWNLOAD,
    "exports:ranking_xlsx": DOWNLOAD,
    "exports:export_job_download": DOWNLOAD,
    "exports:game_eliot": DOWNLOAD,
    "exports:game_gcg": DOWNLOAD,
    "exports:game_predrawn": DOWNLOAD,
    "exports:game_sigles": DOWNLOAD,
    "exports:event_sigles": DOWNLOAD,
    "history:player_csv": DOWNLOAD,
    "history:player_xlsx": DOWNLOAD,
    "history:season_xlsx": DOWNLOAD,
    "admin:logout": POSTED,
    "admin:jsi18n": "the admin's scripts' translations (a script)",
    "admin:autocomplete": "the admin's autocompletion (JSON)",
    "admin:view_on_site": "a redirect to the object's own page",
}
# The admin is Django's, for superusers only (web/admin.py): its login, index, the events' list
# and an event's form are checked; its other pages (the other models' lists, forms, histories,
# deletions, an app's index) are the same templates and style sheets with other fields.
ADMIN_SAME_TEMPLATES = "admin:"


def routes(resolver: URLResolver | None = None, prefix: str = "", space: str = "") -> Iterator:
    """Every URL pattern: its route and its name (with its namespaces), or its route alone."""
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{space}{pattern.namespace}:" if pattern.namespace else space
            yield from routes(pattern, prefix + str(pattern.pattern), inner)
        else:
            assert isinstance(pattern, URLPattern)
            name = f"{space}{pattern.name}" if pattern.name else None
            yield prefix + str(pattern.pattern), name


def reason(name: str | None) -> str | None:
    """Why ``name`` is not checked by axe-core, or None when it should be."""
    if name is None:
        return None
    if name in NOT_PAGES:
        return NOT_PAGES[name]
    space = name.rsplit(":", 1)[0] + ":" if ":" in name else ""
    if space in NOT_PAGES:
        return NOT_PAGES[space]
    if space == ADMIN_SAME_TEMPLATES:
        return "the admin's other pages (the same templates as the checked ones)"
    return None


def test_every_page_is_checked_by_axe_or_listed_with_the_reason_it_is_not() -> None:
    forgotten = [
        f"{route} ({name or 'no name'})"
        for route, name in routes()
        if name not in CHECKED
        and reason(name) is None
        and not (name is None and route.startswith("admin/"))  # the admin's own redirects
    ]
    assert forgotten == [], "pages that no axe-core test visits:\n" + "\n".join(forgotten)


def test_the_lists_name_only_urls_that_exist() -> None:
    names = {name for _, name in routes() if name}
    spaces = {name.rsplit(":", 1)[0] + ":" for name in names if ":" in name}
    assert CHECKED - names == set()
    assert set(NOT_PAGES) - names - spaces == set()
    assert CHECKED.isdisjoint(NOT_PAGES)
