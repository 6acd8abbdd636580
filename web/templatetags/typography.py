"""``{{ row.top_pct|percent }}`` and ``{{ said|elided }}``: a percentage and French elision as
``tournament.typography`` writes them, in the language in force."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from tournament.typography import colon as _colon
from tournament.typography import elided as _elided
from tournament.typography import percent_text

register = template.Library()


@register.filter
def percent(value: float | None) -> str:
    """``17,20 %`` in French, ``17.20%`` in English; nothing for no value."""
    return "" if value is None else percent_text(float(value))


@register.filter(is_safe=True)
def elided(text: str) -> str:
    """``text`` (often a ``blocktranslate ... asvar``) with French's elision before a name; an
    escaped text stays safe (the elision adds an apostrophe, no markup)."""
    said = _elided(str(text))
    return mark_safe(said) if isinstance(text, SafeString) else said


@register.simple_tag
def colon() -> str:
    """``{% colon %}``: between a translated label and markup that follows it (``Top :`` with a
    no-break space in French, ``Top:`` in English)."""
    return _colon()
