"""Games in the original formulas that the real Eliot wrote (tests/data/eliot/formulas; how:
bench/eliot_formulas.py, docs/formulas.md): its own games in each variant read and replayed
here, and games played here that Eliot loaded and saved with our tops and totals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from arbiter.services.interchange import eliot_document
from engine.board import Layout
from engine.eliot.reader import eliot_read
from engine.formula import Formula
from engine.game import autoplay
from engine.lexicon import Lexicon
from engine.replay import replay
from engine.tiles import TileSet

DATA = Path(__file__).resolve().parent.parent / "data" / "eliot" / "formulas"
EN = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_TOTAL = re.compile(r'<PlayerStats playerId="(\d+)"\s+rawScore="(-?\d+)"[^/]*totalScore="(-?\d+)"')


@pytest.mark.parametrize(
    ("name", "variants", "formula"),
    [
        ("eliot_joker_3.xml", ("bingo",), "joker"),
        ("eliot_detonante_1.xml", ("explosive",), "detonante"),
        ("eliot_7sur8_2.xml", ("7among8",), "7sur8"),
        ("eliot_joker_7sur8_1.xml", ("bingo", "7among8"), "joker+7sur8"),
    ],
)
def test_a_game_eliot_played_in_a_variant_replays_here_in_its_formula(
    name: str, variants: tuple[str, ...], formula: str
) -> None:
    content = (DATA / name).read_bytes()
    eliot = eliot_read(content, tiles=EN)
    assert eliot.variants == variants and eliot.formula == Formula.parse(formula)
    document = eliot_document(eliot, tile_set="en", layout=Layout.load("standard"))
    assert document["formula"] == formula
    game = replay(document, lexicon=Lexicon.load())
    assert [(r.ref, r.word.upper(), r.score) for r in game.rounds] == [
        (t.top.coord, t.top.word.upper(), t.top.points) for t in eliot.played if t.top
    ]
    assert game.total == eliot.top_total == int(_TOTAL.findall(content.decode())[0][2])
    size = Formula.parse(formula).rack_size
    assert max(len(r.rack) for r in game.rounds) == size
    if Formula.parse(formula).joker:
        replaced = [r.joker_replaced for r in game.rounds if r.joker_replaced is not None]
        assert True in replaced  # Eliot put the real letter in place of the joker
        # every rack held the joker while one was aside
        assert all("?" in r.rack for r in game.rounds[:5])


@pytest.mark.parametrize(
    ("name", "formula", "seed"),
    [
        ("saved_joker_1.xml", "joker", 1),
        ("saved_detonante_1.xml", "detonante", 1),
        ("saved_7sur8_1.xml", "7sur8", 1),
    ],
)
def test_eliot_loaded_our_game_and_counted_our_tops_and_totals(
    name: str, formula: str, seed: int
) -> None:
    """The engine's game of this seed and formula was written here as an Eliot arbitration game
    (``Top`` plays the top, ``Second`` the second best) and saved again by Eliot: Eliot's own
    statistics are our totals, and its save replays here round for round."""
    content = (DATA / name).read_bytes()
    ours = autoplay(
        seed=seed, tiles=TileSet.load("en"), lexicon=Lexicon.load(), formula=Formula.parse(formula)
    )
    eliot = eliot_read(content, tiles=EN)
    assert eliot.formula == Formula.parse(formula)
    top_total = int(_TOTAL.findall(content.decode())[0][2])
    assert top_total == ours.total == eliot.top_total
    document = eliot_document(eliot, tile_set="en", layout=Layout.load("standard"))
    again = replay(document, lexicon=Lexicon.load())
    assert [(r.rack, r.ref, r.score) for r in again.rounds] == [
        (r.rack, r.ref, r.score) for r in ours.rounds
    ]
    assert again.board == ours.board
