"""The standings filter of a page or a download, read from its query string:
``?club=Lyon&series=2&age_category=Junior&category=S1`` (any of them, together).

Shared by the projection screen and the exports, so that each reads it the same way; the
filtering itself is ``arbiter.selectors.standings.PlayerFilter`` (one ranking).
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlencode

from django.utils.translation import gettext

from arbiter.selectors.standings import PlayerFilter
from tournament.categories import age_category_parse, series_parse
from tournament.errors import ApplicationError

PARAMETERS = ("category", "club", "series", "age_category")


def player_filter_parse(query: Mapping[str, str]) -> PlayerFilter:
    """The filter the query asks for; ``ApplicationError`` saying which value is wrong."""
    text = {key: query.get(key, "").strip() for key in PARAMETERS}
    for key, value in text.items():
        if len(value) > 120:
            raise ApplicationError(
                gettext("The %(key)s filter is longer than 120 characters.") % {"key": key},
                code="filter_too_long",
            )
    try:
        series = series_parse(text["series"])
        age_category = age_category_parse(text["age_category"])
    except ValueError as exc:
        raise ApplicationError(
            str(exc)[0].upper() + str(exc)[1:] + ".", code="bad_filter"
        ) from None
    return PlayerFilter(
        category=text["category"] or None,
        club=text["club"] or None,
        series=series,
        age_category=age_category or None,
    )


def common_rounds_asked(query: Mapping[str, str]) -> bool:
    """``?common=1`` (or on, true, yes): a simultaneous's ranking on the rounds every room has
    published (the rooms page, its downloads and the API read it so)."""
    return query.get("common", "") in {"1", "on", "true", "yes"}


def player_filter_query(only: PlayerFilter) -> str:
    """The query string of a filter (``""`` for none), to carry it from a page to its data."""
    pairs = [
        (key, str(value))
        for key, value in (
            ("category", only.category),
            ("club", only.club),
            ("series", only.series),
            ("age_category", only.age_category),
        )
        if value is not None
    ]
    return f"?{urlencode(pairs)}" if pairs else ""


def player_filter_label(only: PlayerFilter) -> str:
    """The filter in words, for a title: ``series 2, Junior``."""
    parts = []
    if only.series is not None:
        parts.append(gettext("series %(n)d") % {"n": only.series})
    for value in (only.age_category, only.category, only.club):
        if value:
            parts.append(value)
    return ", ".join(parts)
