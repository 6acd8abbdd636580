"""How a language writes what the catalogues cannot: a percentage, and French elision before a
name. One definition each, used by every face (pages, prints, phone and audience frames, the
workbook, the CSV files).

- ``percent_text(17.2, "fr")`` is ``17,20 %`` (a no-break space before the sign, as French
  typography wants), ``percent_text(17.2, "en")`` is ``17.20%``: two decimals everywhere, as the
  standings round them. ``percent_number`` is the number alone (a CSV cell, under a ``Top %``
  header), ``percent_excel_format`` the workbook's number format that shows the same text.
- ``elided("Historique de Élodie")`` is ``Historique d’Élodie`` in French: a catalogue's
  ``de %(name)s`` cannot know the name; this elides ``de`` and ``que`` before a capital vowel
  (``d’Yves`` but ``de Yann``: a Y before a vowel is a consonant; ``de Hugo`` is left alone).
"""

from __future__ import annotations

import re

from django.utils import translation

# A language is a line: (decimal mark, what follows the number). English is the default.
PERCENT_STYLES: dict[str, tuple[str, str]] = {"en": (".", "%"), "fr": (",", "\u00a0%")}
NBSP = "\u00a0"


def _language(language: str | None) -> str:
    code = (language or translation.get_language() or "en").split("-")[0].lower()
    return code if code in PERCENT_STYLES else "en"


def percent_number(value: float, language: str | None = None) -> str:
    """``value`` (a percentage, 17.2 for 17.2 %) with two decimals and ``language``'s decimal
    mark (the language in force when None)."""
    mark, _sign = PERCENT_STYLES[_language(language)]
    return f"{value:.2f}".replace(".", mark)


def percent_text(value: float, language: str | None = None) -> str:
    """``value`` as ``language`` writes a percentage: ``17,20 %`` in French, ``17.20%``."""
    _mark, sign = PERCENT_STYLES[_language(language)]
    return percent_number(value, language) + sign


def percent_excel_format(language: str | None = None) -> str:
    """The workbook's number format showing a cell of 17.2 as ``percent_text`` writes it (the
    decimal mark is the spreadsheet's own: French Excel shows a comma)."""
    _mark, sign = PERCENT_STYLES[_language(language)]
    return f'0.00"{sign}"'


_VOWELS = "AEIOUÀÂÄÆÉÈÊËÎÏÔÖŒÙÛÜ"
_ELIDED = re.compile(rf"\b([Dd]e|[Qq]ue) (?=[{_VOWELS}]|Y(?![aeiouyéèêàâîôû]))")


def elided(text: str, language: str | None = None) -> str:
    """``text`` with French's elision before a capitalised name (``de Élodie`` -> ``d’Élodie``,
    ``que Anne`` -> ``qu’Anne``); other languages' text is returned as it is."""
    if _language_code(language) != "fr":
        return text
    return _ELIDED.sub(lambda m: m[1][:-1] + "’", text)


def _language_code(language: str | None) -> str:
    return (language or translation.get_language() or "en").split("-")[0].lower()


def colon(language: str | None = None) -> str:
    """A colon as ``language`` writes it after a word: `` :`` with a no-break space in French
    (where a page joins a translated label and what follows it), ``:`` otherwise."""
    return NBSP + ":" if _language_code(language) == "fr" else ":"
