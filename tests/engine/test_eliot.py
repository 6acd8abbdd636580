"""Eliot's save game read and written (engine.eliot), and the top sequence as GCG (engine.gcg):
the hand-written file of tests/data/eliot (from docs/interchange.md), round trips, and every
kind of bad file refused with its line."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.eliot.model import (
    Dictionary,
    EliotEvent,
    EliotGame,
    EliotMove,
    EliotPlayer,
    EliotTurn,
    Rack,
    formula_of,
    variants_of,
)
from engine.eliot.reader import MAX_BYTES, eliot_read
from engine.eliot.writer import eliot_write
from engine.errors import NotationError, RackError
from engine.formula import Formula, FormulaError
from engine.gcg import gcg_write
from engine.interchange import InterchangeError
from engine.record import RoundRecord, placements

HAND = Path(__file__).resolve().parent.parent / "data" / "eliot" / "hand_arbitration.xml"
EN = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def hand() -> bytes:
    return HAND.read_bytes()


def problems_of(content: bytes, tiles: str | None = EN) -> list[str]:
    with pytest.raises(InterchangeError) as caught:
        eliot_read(content, tiles=tiles)
    return [str(p) for p in caught.value.problems]


def test_the_hand_written_file_reads_with_its_racks_tops_and_totals() -> None:
    game = eliot_read(hand(), tiles=EN)
    assert game.mode == "arbitration"
    assert [(p.name, p.table) for p in game.players] == [("Alice & Co", 1), ("Bob", 3)]
    assert [str(t.rack) for t in game.played] == ["DEILMOU", "I+?AENRS", "AEGNRTT"]
    assert [(t.top.coord, t.top.word, t.top.points) for t in game.played if t.top] == [
        ("H4", "MODULE", 24),
        ("5D", "ANEROIdS", 78),
        ("4A", "NATTER", 22),
    ]
    assert [t.kept for t in game.turns] == [None, "I", "", "G"]
    assert game.turns[-1].rack is None and game.turns[-1].top is None
    assert game.top_total == 124
    alice, bob = game.stats()
    assert (alice.raw, alice.solos, alice.penalties, alice.total) == (124, 10, 0, 134)
    assert (alice.diff, alice.percent, alice.rank) == (10, "108%", 1)
    assert (bob.raw, bob.warnings, bob.penalties, bob.total) == (44, 2, -5, 39)
    assert (bob.diff, bob.percent, bob.rank) == (-85, "31%", 2)
    assert game.played[1].events == (EliotEvent("Warning", 1), EliotEvent("Penalty", 1, -5))
    assert game.played[1].moves[1] == EliotMove.invalid("NAIES", "I5")


def test_a_fourth_warning_costs_the_penalty_in_the_totals() -> None:
    game = eliot_read(hand(), tiles=EN)
    _, bob = game.stats(warnings_free=1, warning_penalty=5)
    assert (bob.penalties, bob.total) == (-10, 34)


def test_writing_what_was_read_gives_the_same_file_again() -> None:
    written = eliot_write(eliot_read(hand(), tiles=EN))
    again = eliot_write(eliot_read(written, tiles=EN))
    assert again == written
    assert eliot_read(written) == eliot_read(hand())
    text = written.decode("utf-8")
    assert "<Name>Alice &amp; Co</Name>" in text
    assert '<PlayerStats playerId="1" rawScore="44" warningsNb="2" penaltiesPoints="-5"' in text
    assert '<GameStats totalScore="124" />' in text


def test_an_unescaped_ampersand_as_eliot_writes_it_is_read_as_itself() -> None:
    content = hand().replace(b"Alice &amp; Co", b"Alice & Co")
    assert eliot_read(content, tiles=EN).players[0].name == "Alice & Co"


names = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1
).filter(lambda s: s.strip() == s and s.strip())


@settings(max_examples=40, deadline=None)
@given(
    name=names,
    word=st.text(alphabet="AEIRSTxyz\"'<>&", min_size=0, max_size=9),
    table=st.integers(1, 999),
    penalty=st.integers(-50, 0),
    solo=st.integers(0, 50),
)
def test_any_name_and_typed_slip_survive_a_round_trip(
    name: str, word: str, table: int, penalty: int, solo: int
) -> None:
    game = EliotGame(
        Dictionary("ENABLE", "dawg", " ".join([*EN, "?"]), 172820),
        "arbitration",
        (EliotPlayer(name, table), EliotPlayer("B", table + 1)),
        (
            EliotTurn(
                rack=Rack("", "DEILMOU"),
                moves=(EliotMove.valid("MODULE", "H4", 24), EliotMove.invalid(word, "h 4")),
                events=(EliotEvent("Penalty", 1, penalty), EliotEvent("Solo", 0, solo)),
                top=EliotMove.valid("MODULE", "H4", 24),
                masters=(EliotMove.valid("MODULE", "H4", 24),),
            ),
        ),
    )
    written = eliot_write(game)
    assert eliot_read(written, tiles=EN) == game
    assert eliot_write(eliot_read(written)) == written


@pytest.mark.parametrize(
    ("text", "kept", "drawn", "reset"),
    [
        ("DEILMOU", "", "DEILMOU", False),
        ("EIS+ANRTU", "EIS", "ANRTU", False),
        ("ER", "", "ER", False),
        ("-AEIMRST", "", "AEIMRST", True),
        ("-EI+AMRST", "EI", "AMRST", True),
    ],
)
def test_racks_read_as_eliot_writes_them(text: str, kept: str, drawn: str, reset: bool) -> None:
    rack = Rack.parse(text)
    assert (rack.kept, rack.drawn, rack.reset) == (kept, drawn, reset)
    assert str(rack) == text


@pytest.mark.parametrize("text", ["eis+ANRTU", "AB C", "+ABC", "A++B", "AB1", "A-B"])
def test_a_rack_that_is_not_one_is_refused(text: str) -> None:
    with pytest.raises(NotationError, match="is not a rack"):
        Rack.parse(text)


# --- bad files ---------------------------------------------------------------------------------


def test_a_file_that_is_not_xml_is_refused_with_its_line() -> None:
    (problem,) = problems_of(b"<EliotGame>\n<Game>\n</EliotGame>\n")
    assert problem.startswith("line 3")
    assert "not an XML file (mismatched tag" in problem


def test_text_that_is_not_xml_at_all_is_refused() -> None:
    (problem,) = problems_of(b"name,club\nAnn,Lyon\n")
    assert "not an XML file" in problem


def test_an_empty_file_is_refused() -> None:
    assert problems_of(b"  \n") == ["the file is empty"]


def test_the_wrong_root_is_refused() -> None:
    (problem,) = problems_of(b'<?xml version="1.0"?>\n<Workbook><Sheet/></Workbook>\n')
    assert problem == (
        "line 2, <Workbook>: the root element must be <EliotGame>: this is not an Eliot save game"
    )


def test_a_doctype_is_refused_so_no_entity_can_expand() -> None:
    bomb = (
        b'<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
        b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>\n<EliotGame>&lol2;</EliotGame>\n'
    )
    (problem,) = problems_of(bomb)
    assert "a DOCTYPE is not allowed" in problem


def test_a_huge_file_is_refused_before_it_is_parsed() -> None:
    content = hand() + b" " * MAX_BYTES
    assert problems_of(content) == [
        f"the file is over 2 MB ({len(content):,} bytes): at most 2 MB are read"
    ]


def test_a_rack_with_a_tile_not_in_the_set_is_refused_with_its_line() -> None:
    content = hand().replace(b"<GameRack>AEGNRTT</GameRack>", b"<GameRack>AEGNRTTW</GameRack>")
    problems = problems_of(content, tiles="ABCDEFGHIJKLMNOPQRSTUV")
    assert any(
        p.startswith("line 56, <GameRack>: rack 'AEGNRTTW': 'W' at position 8") for p in problems
    )
    assert any("the dictionary's letters" in p for p in problems)


def test_a_rack_in_lower_case_is_refused() -> None:
    content = hand().replace(b"<GameRack>DEILMOU</GameRack>", b"<GameRack>deilmou</GameRack>")
    assert any("<GameRack>: rack 'deilmou' is not a rack" in p for p in problems_of(content))


def test_a_round_count_that_is_not_the_history_s_is_refused() -> None:
    content = hand().replace(b"<Turns>4</Turns>", b"<Turns>6</Turns>")
    assert problems_of(content) == [
        "line 26, <History>: <Turns> says 6 turns but the history holds 4"
    ]


def test_statistics_that_disagree_with_the_turns_are_refused() -> None:
    content = hand().replace(b'<GameStats totalScore="124" />', b'<GameStats totalScore="125" />')
    content = content.replace(b'rawScore="44"', b'rawScore="45"')
    assert problems_of(content) == [
        "line 72, <GameStats>: totalScore 125, but the tops add up to 124",
        "line 75, <PlayerStats>: player 1's rawScore is 45, but the turns add up to 44",
    ]


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            b"<Mode>arbitration</Mode>",
            b"<Mode>freegame</Mode>",
            "this is a freegame game of Eliot, with no rounds of a duplicate game",
        ),
        (
            b"<Mode>arbitration</Mode>",
            b"<Mode>training</Mode>",
            "save a duplicate or arbitration game in Eliot to import it",
        ),
        (b"<Mode>arbitration</Mode>", b"<Mode>chess</Mode>", "mode 'chess' is not one of"),
        (
            b"<Mode>arbitration</Mode>",
            b"<Mode>arbitration</Mode><Variant>fireworks</Variant>",
            "variant 'fireworks' is not one of bingo, explosive, 7among8",
        ),
        (
            b"<Mode>arbitration</Mode>",
            b"<Mode>arbitration</Mode><Variant>explosive</Variant><Variant>7among8</Variant>",
            "the variants explosive, 7among8 together are no formula of the regulation",
        ),
        (b'format="2"', b'format="3"', "only format 2 is read"),
        (b'<Player id="1">', b'<Player id="5">', "player id 5 out of order"),
        (b"<TableNb>3</TableNb>", b"<TableNb>three</TableNb>", "TableNb 'three' is not a whole"),
        (
            b'coord="4A" />\n            <PlayerMove',
            b'coord="04A" />\n            <PlayerMove',
            "'04A' is written 4A in Eliot",
        ),
        (
            b'<Warning playerId="1" />\n            <GameMove',
            b"<Banana />\n            <GameMove",
            "<Banana>: unknown element",
        ),
        (
            b'<Penalty playerId="1" points="-5" />',
            b'<Penalty playerId="1" points="5" />',
            "penalties are written negative",
        ),
        (
            b'<Solo playerId="0" points="10" />',
            b'<Solo playerId="0" points="ten" />',
            "points 'ten' is not a whole number",
        ),
        (
            b'<Solo playerId="0" points="10" />',
            b'<Solo playerId="7" points="10" />',
            "playerId 7 names no player",
        ),
        (
            b'points="22" type="valid" word="MODEL"',
            b'points="22" type="swap" word="MODEL"',
            "type 'swap' is not one of",
        ),
        (
            b'points="0" type="invalid" word="NAIES"',
            b'points="3" type="invalid" word="NAIES"',
            "an invalid move scores 0, not 3",
        ),
        (
            b'<GameMove points="24" type="valid" word="MODULE" coord="H4" />',
            b"",
            "turn 1 has no <GameMove>",
        ),
        (b'<PlayerMove playerId="1"', b'<PlayerMove playerId="1" playerId="1"', "duplicate"),
    ],
)
def test_each_bad_element_is_named_with_its_line(old: bytes, new: bytes, expected: str) -> None:
    content = hand()
    assert old in content
    problems = problems_of(content.replace(old, new, 1))
    assert any(expected in p and p.startswith("line ") for p in problems), problems


def test_events_before_the_player_s_move_are_refused() -> None:
    content = hand().replace(
        b'<PlayerRack playerId="1">DEILMOU</PlayerRack>',
        b'<PlayerRack playerId="1">DEILMOU</PlayerRack>\n<Warning playerId="1" />',
    )
    assert any("player 1 has no move yet in the game" in p for p in problems_of(content))


def test_every_problem_of_a_file_is_listed_not_only_the_first() -> None:
    content = hand().replace(b"<TableNb>3</TableNb>", b"<TableNb>0</TableNb>")
    content = content.replace(b'points="-5"', b'points="x"')
    assert len(problems_of(content)) == 2


# --- GCG -------------------------------------------------------------------------------------

ROUNDS = [
    RoundRecord(1, "DEILMOU", "", (), "H4", "MODULE", 24),
    RoundRecord(2, "AEINRS?", "I", (), "5D", "ANEROIdS", 78),
    RoundRecord(3, "AEGNRTT", "", (), "4A", "NATTER", 22),
]


def test_the_top_sequence_is_written_as_gcg_with_dots_for_the_board_s_tiles() -> None:
    text = gcg_write(ROUNDS, title="Club night, game 1", lexicon="enable", notes={2: "Alice\n78"})
    assert text.splitlines() == [
        "#character-encoding UTF-8",
        "#player1 top Top",
        "#player2 room Room",
        "#title Club night, game 1",
        "#lexicon enable",
        ">top: DEILMOU 8D MODULE +24 24",
        ">room: DEILMOU - +0 0",
        ">top: AEINRS? E4 ANER.IdS +78 102",
        "#note Alice 78",
        ">room: AEINRS? - +0 0",
        ">top: AEGNRTT D1 NATTER +22 124",
        ">room: AEGNRTT - +0 0",
    ]


def test_a_game_not_played_with_english_tiles_names_its_letter_distribution() -> None:
    lines = gcg_write(ROUNDS, tiles="fr").splitlines()
    assert "#tile-distribution french" in lines
    assert lines.index("#tile-distribution french") < lines.index(">top: DEILMOU 8D MODULE +24 24")
    assert not any(line.startswith("#tile-distribution") for line in gcg_write(ROUNDS).splitlines())


def test_placements_say_what_each_top_left_on_the_rack() -> None:
    assert [p.leave for p in placements(ROUNDS)] == ["I", "", "G"]


def test_a_top_whose_tiles_are_not_on_its_rack_is_refused() -> None:
    bad = [RoundRecord(1, "DEILMOU", "", (), "H4", "MODULES", 26)]
    with pytest.raises(RackError, match="round 1: H4 MODULES places"):
        placements(bad)


@pytest.mark.parametrize(
    ("formula", "variants"),
    [
        ("standard", ()),
        ("joker", ("bingo",)),
        ("detonante", ("explosive",)),
        ("7sur8", ("7among8",)),
        ("joker+7sur8", ("bingo", "7among8")),
    ],
)
def test_the_formulas_eliot_plays_are_its_variants_both_ways(
    formula: str, variants: tuple[str, ...]
) -> None:
    assert variants_of(Formula.parse(formula)) == variants
    assert formula_of(variants) == Formula.parse(formula)


@pytest.mark.parametrize("formula", ["7et8", "789", "joker+7et8", "joker+789"])
def test_a_formula_eliot_does_not_play_has_no_variants(formula: str) -> None:
    with pytest.raises(FormulaError) as refused:
        variants_of(Formula.parse(formula))
    assert refused.value.code == "formula_not_in_eliot"


def test_the_variants_are_written_after_the_mode_as_eliot_does_and_read_back() -> None:
    game = eliot_read(hand(), tiles=EN)
    joker = EliotGame(game.dictionary, game.mode, game.players, game.turns, ("bingo", "7among8"))
    written = eliot_write(joker).decode("utf-8")
    assert (
        "<Mode>arbitration</Mode>\n        <Variant>bingo</Variant>\n"
        "        <Variant>7among8</Variant>\n        <Player" in written
    )
    again = eliot_read(written.encode("utf-8"), tiles=EN)
    assert again.variants == ("bingo", "7among8") and again.formula.name == "joker+7sur8"
    assert again == joker
