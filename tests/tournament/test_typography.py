"""``tournament.typography``: a percentage and French elision, one definition each."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournament.typography import colon, elided, percent_excel_format, percent_number, percent_text


@pytest.mark.parametrize(
    ("value", "language", "text"),
    [
        (17.2, "fr", "17,20\u00a0%"),
        (17.2, "en", "17.20%"),
        (100.0, "fr", "100,00\u00a0%"),
        (0.0, "en", "0.00%"),
        (66.666, "fr", "66,67\u00a0%"),
        (17.2, "de", "17.20%"),  # a language without a line writes as English does
    ],
)
def test_a_percentage_as_each_language_writes_it(value, language, text) -> None:
    assert percent_text(value, language) == text
    assert percent_number(value, language) == text.rstrip("%").rstrip("\u00a0")


def test_the_language_in_force_when_none_is_given() -> None:
    with translation.override("fr"):
        assert percent_text(5.5) == "5,50\u00a0%" and colon() == "\u00a0:"
    with translation.override("en"):
        assert percent_text(5.5) == "5.50%" and colon() == ":"


def test_the_workbook_format_shows_the_same_sign() -> None:
    assert percent_excel_format("fr") == '0.00"\u00a0%"'
    assert percent_excel_format("en") == '0.00"%"'


@pytest.mark.parametrize(
    ("french", "said"),
    [
        ("Historique de Élodie Zéro", "Historique d’Élodie Zéro"),
        ("QR code de Anne", "QR code d’Anne"),
        ("L’accès de Yves Abel", "L’accès d’Yves Abel"),
        ("L’accès de Yann Abel", "L’accès de Yann Abel"),  # a Y before a vowel: no elision
        ("Invitation de Hugo", "Invitation de Hugo"),
        ("Invitation de Marc", "Invitation de Marc"),
        (
            "La partie 2 n’est pas une partie de Aix Club.",
            "La partie 2 n’est pas une partie d’Aix Club.",
        ),
        ("plus que Ève", "plus qu’Ève"),
        ("le temps de attente", "le temps de attente"),  # a lower-case word is not a name
    ],
)
def test_french_elides_de_and_que_before_a_capital_vowel(french, said) -> None:
    assert elided(french, "fr") == said
    assert elided(french, "en") == french
