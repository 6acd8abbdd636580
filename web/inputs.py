"""What the faces accept from outside, before anything reaches a service or the database.

- Numbers stay within the column they end up in (``INT32``: ``IntegerField`` and
  ``PositiveIntegerField``; ``BIGINT``: the ids), read from ASCII digits only: ``int()`` would
  take ``"١٢"`` (Arabic-Indic digits) as 12, and PostgreSQL refuses 2**31 in an integer column.
- Text holds no control character: PostgreSQL refuses NUL in any text and a lone surrogate
  (``"\\ud800"`` in JSON) cannot be encoded; the rest (U+0001, ESC, C1 controls) is never typed
  by a person. Tab, line feed and carriage return are allowed (a reason may span lines). Nor
  a non-character (U+FFFF, U+FDD0...): XML refuses some, and none is text
  (``tournament.vocabulary.NOT_TEXT``, the one definition, which the imports use too).

The JSON parser (``web.api.parsers``), the request checks (``web.middleware``), the staff
actions (``web.actions``) and the serializers and forms use these.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext

from tournament.vocabulary import is_noncharacter, not_text_in

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
BIGINT_MAX = 2**63 - 1

# An extension is minutes, not years: an hour at most (a day's worth overflows no column, but
# 2.5e11 seconds overflows the date itself).
EXTEND_MAX_SECONDS = 3600

_ASCII_INTEGER = re.compile(r"[+-]?[0-9]+")


def control_character(text: str) -> str | None:
    """The first control character (or lone surrogate, or non-character) of ``text``, named
    (``U+0000``), or None if it has none."""
    found = not_text_in(text)
    return None if found is None else f"U+{ord(found):04X}"


def control_character_message(field: str, text: str) -> str | None:
    """``"<field>: control characters are not allowed (U+0000)."`` (``non-characters`` for
    U+FFFF and its kind), or None for clean text."""
    found = not_text_in(text)
    if found is None:
        return None
    if is_noncharacter(found):
        return gettext("%(field)s: non-characters are not allowed (U+%(code)04X).") % {
            "field": field,
            "code": ord(found),
        }
    return gettext("%(field)s: control characters are not allowed (U+%(code)04X).") % {
        "field": field,
        "code": ord(found),
    }


@dataclass(frozen=True)
class Bounds:
    """The whole numbers a field takes, both ends included."""

    minimum: int
    maximum: int

    def problem(self, field: str, number: int) -> str | None:
        """Why ``number`` is refused for ``field`` (a sentence naming it), or None."""
        if self.minimum <= number <= self.maximum:
            return None
        return gettext("%(field)s must be between %(low)s and %(high)s, not %(number)s.") % {
            "field": field,
            "low": self.minimum,
            "high": self.maximum,
            "number": number,
        }


def integer_parse(field: str, text: str, bounds: Bounds) -> int:
    """``text`` as a whole number within ``bounds``; ``ValueError`` with a sentence naming the
    field otherwise (not a number, digits other than 0-9, out of bounds)."""
    value = text.strip()
    if not _ASCII_INTEGER.fullmatch(value):
        if value and all(c.isdigit() or c in "+-" for c in value):
            raise ValueError(
                gettext("%(field)s must be written with the digits 0-9, not %(value)r.")
                % {"field": field, "value": value}
            )
        raise ValueError(
            gettext("%(field)s must be a whole number, not %(value)r.")
            % {"field": field, "value": value}
        )
    if len(value) > 100:  # no need to read 5,000 digits to know they are out of bounds
        raise ValueError(
            gettext("%(field)s must be between %(low)s and %(high)s.")
            % {"field": field, "low": bounds.minimum, "high": bounds.maximum}
        )
    number = int(value)
    problem = bounds.problem(field, number)
    if problem is not None:
        raise ValueError(problem)
    return number
