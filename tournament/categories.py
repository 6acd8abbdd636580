"""What the federation ranks players by, besides their club: the series (1 to 7, 1 the
strongest) and the age category. No Django here.

The age categories are the FISF's, youngest first. No document of this repository lists them
(not docs/, not ../shared/seeds); the names are those of the FISF's youth and senior
categories as the federation's news use them (fisf.net: Poussin, Benjamin, Cadet, Junior;
Espoir, Senior, Vermeil, Diamant, Émeraude).
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext

SERIES_MIN, SERIES_MAX = 1, 7
AGE_CATEGORIES = (
    "Poussin",
    "Benjamin",
    "Cadet",
    "Junior",
    "Espoir",
    "Senior",
    "Vermeil",
    "Diamant",
    "Émeraude",
)


def _folded(text: str) -> str:
    return "".join(
        c
        for c in unicodedata.normalize("NFKD", text.strip().lower())
        if not unicodedata.combining(c)
    )


_BY_FOLDED = {_folded(name): name for name in AGE_CATEGORIES}


def age_category_parse(text: str) -> str:
    """An age category as typed (any case, accents or not) -> its name; "" for none.
    Raises ``ValueError`` naming the categories otherwise."""
    if not text.strip():
        return ""
    name = _BY_FOLDED.get(_folded(text))
    if name is None:
        raise ValueError(
            gettext("age category %(value)r is not one of %(known)s")
            % {"value": text.strip(), "known": ", ".join(AGE_CATEGORIES)}
        )
    return name


def series_parse(value: object) -> int | None:
    """A series as typed (``3``, ``S3``, ``3.0`` from a spreadsheet) -> 1..7; None for none.
    Raises ``ValueError`` saying why otherwise."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise ValueError(gettext("series %(value)r is not a series (1 to 7)") % {"value": value})
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    digits = text[1:] if text[:1] in ("S", "s") else text
    if not digits.isdigit() or not SERIES_MIN <= int(digits) <= SERIES_MAX:
        raise ValueError(
            gettext("series %(value)r is not a series (%(low)s to %(high)s)")
            % {"value": text, "low": SERIES_MIN, "high": SERIES_MAX}
        )
    return int(digits)
