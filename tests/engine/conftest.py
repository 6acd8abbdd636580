"""Fixtures for the engine tests: no Django, no database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import movegen, native
from engine.board import Board, Layout
from engine.lexicon import Lexicon
from engine.tiles import TileSet


@pytest.fixture(scope="module", params=native.ENGINES)
def movegen_engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """Runs a module's tests once on each move generator (``pytestmark = pytest.mark.usefixtures
    ("movegen_engine")``), in this process and in the processes it starts."""
    name: str = request.param
    if name == "native" and not native.BUILT:
        pytest.skip("the native engine is not built (no C compiler at install)")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(native.VARIABLE, name)
        movegen.use_engine(name)
        yield name
        movegen.use_engine(None)


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
