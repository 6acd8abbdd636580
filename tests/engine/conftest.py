"""Fixtures for the engine tests: no Django, no database."""

from __future__ import annotations

import pytest

from engine.board import Board, Layout
from engine.lexicon import Lexicon
from engine.tiles import TileSet


@pytest.fixture(scope="session")
def enable() -> Lexicon:
    return Lexicon.load()


@pytest.fixture(scope="session")
def tiny() -> Lexicon:
    """A handful of words, enough for the rulebook examples and small positions."""
    return Lexicon.from_words(
        [
            "TRAIN",
            "TRAINER",
            "STRAINER",
            "STRAINERS",
            "THROB",
            "THROBS",
            "HOB",
            "HI",
            "ON",
            "BE",
            "HORN",
            "FARM",
            "FARMS",
            "PASTE",
            "CONQUEST",
            "CAT",
            "CATS",
            "AT",
            "TA",
            "ACT",
        ],
        name="tiny",
    )


@pytest.fixture(scope="session")
def en() -> TileSet:
    return TileSet.load("en")


@pytest.fixture(scope="session")
def fr() -> TileSet:
    return TileSet.load("fr")


@pytest.fixture
def board() -> Board:
    return Board(Layout.load("standard"))
