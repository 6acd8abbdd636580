"""Save games that the real Eliot wrote (tests/data/eliot/real, tests/data/eliot/roundtrip; how
they were made: docs/interchange.md, "Checked against Eliot"), read by engine.eliot: every
player, rack, move, event and total as Eliot wrote them, and a game exported here as Eliot
loaded it (its totals as Eliot printed them)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.board import Board
from engine.eliot.model import EliotEvent, EliotMove, Rack
from engine.eliot.reader import eliot_read
from engine.eliot.writer import eliot_word, eliot_write
from engine.move import Move

DATA = Path(__file__).resolve().parent.parent / "data" / "eliot"
REAL = sorted((DATA / "real").glob("*.xml"))
EN = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_STATS = (
    r'<PlayerStats playerId="(\d+)"\s+rawScore="(-?\d+)" warningsNb="(\d+)" '
    r'penaltiesPoints="(-?\d+)" solosPoints="(-?\d+)"\s+totalScore="(-?\d+)"'
)


def real(name: str) -> bytes:
    return (DATA / "real" / name).read_bytes()


def eliot_totals(content: bytes) -> list[int]:
    """Each player's total as Eliot itself wrote it in the file's statistics."""
    import re

    return [int(m[5]) for m in re.findall(_STATS, content.decode("utf-8"))]


@pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
def test_every_file_real_eliot_wrote_is_read_with_eliots_own_totals(path: Path) -> None:
    content = path.read_bytes()
    game = eliot_read(content, tiles=EN)
    assert game.mode in ("duplicate", "arbitration")
    assert [s.total for s in game.stats()] == eliot_totals(content)
    assert game.top_total == sum(t.top.points for t in game.played if t.top)


def test_players_eliot_wrote_with_no_name_are_read_with_an_empty_name() -> None:
    game = eliot_read(real("arbitration_1019.xml"), tiles=EN)
    assert [(p.name, p.table, p.type) for p in game.players] == [
        ("", 1, "human"),
        ("", 2, "human"),
    ]


def test_names_eliot_wrote_with_an_ampersand_and_a_less_than_sign_are_read_as_they_are() -> None:
    content = real("arbitration_named_1019.xml")
    assert b"<Name>Dupont & Fils</Name>" in content and b"<Name>A<B</Name>" in content
    game = eliot_read(content, tiles=EN)
    assert [p.name for p in game.players] == ["Dupont & Fils", "A<B"]
    again = eliot_write(game)
    assert b"<Name>Dupont &amp; Fils</Name>" in again and b"<Name>A&lt;B</Name>" in again
    assert eliot_read(again) == game


def test_a_leftover_put_back_is_a_rack_starting_with_a_dash() -> None:
    game = eliot_read(real("duplicate_2018.xml"), tiles=EN)
    reset = [t for t in game.played if t.rack is not None and t.rack.reset]
    assert [str(t.rack) for t in reset] == ["-SEECFNC"]
    assert reset[0].kept and not reset[0].rejected  # Eliot records no rack refused


def test_a_turn_eliot_drew_nothing_for_plays_the_leftover_its_players_hold() -> None:
    """Eliot writes no <GameRack> when it draws nothing (the bag empty, or a draw that could
    not fill the rack): the rack is the leftover the players' <PlayerRack> hold."""
    game = eliot_read(real("arbitration_1026.xml"), tiles=EN)
    alone = [(n, t) for n, t in enumerate(game.played, 1) if t.rack and not t.rack.drawn]
    assert [(n, t.rack, t.kept) for n, t in alone] == [
        (21, Rack(kept="IIO", drawn=""), "IIO"),
        (22, Rack(kept="II", drawn=""), "II"),
        (23, Rack(kept="I", drawn=""), "I"),
    ]


def test_a_player_with_no_move_where_eliot_drew_nothing_handed_in_nothing() -> None:
    """When Eliot draws nothing it makes no "none" move for everyone (as it does when it sets a
    rack): a player with no slip has no <PlayerMove> (real Eliot, a 17-player arbitration), and
    may still get a warning or a solo there, which Eliot counts."""
    content = real("arbitration_1026.xml")
    move = (
        b'            <PlayerMove playerId="1" points="10" type="valid" word="WO" coord="2A" />\n'
    )
    assert content.count(move) == 1
    content = content.replace(move, b"").replace(b'rawScore="459"', b'rawScore="449"')
    game = eliot_read(content, tiles=EN)
    turn = game.played[20]
    assert turn.moves[1] == EliotMove.none()
    assert EliotEvent("Warning", 1) in turn.events


def test_a_game_saved_with_the_whole_enable_list_reads_with_its_word_count() -> None:
    game = eliot_read(real("duplicate_enable_full_2500.xml"), tiles=EN)
    assert (game.dictionary.name, game.dictionary.words) == ("ENABLE", 172820)
    assert eliot_read(real("duplicate_2018.xml")).dictionary.words == 168548


def test_a_game_exported_here_has_the_totals_eliot_printed_with_both_enable_builds() -> None:
    printed = json.loads((DATA / "roundtrip" / "printed.json").read_text())
    exported = (DATA / "roundtrip" / "exported.xml").read_bytes()
    ours = [s.total for s in eliot_read(exported, tiles=EN).stats()]
    assert printed["eliot_totals"]["enable.dawg"] == ours
    assert printed["eliot_totals"]["enable-full.dawg"] == ours
    assert b"<WordNb>" not in exported  # so that both builds load it


def test_eliot_saves_a_game_exported_here_with_the_same_racks_tops_and_totals() -> None:
    exported = eliot_read((DATA / "roundtrip" / "exported.xml").read_bytes(), tiles=EN)
    saved = eliot_read((DATA / "roundtrip" / "saved_by_eliot.xml").read_bytes(), tiles=EN)
    assert [t.rack for t in saved.played] == [t.rack for t in exported.played]
    assert [t.top for t in saved.played] == [t.top for t in exported.played]
    assert [s.total for s in saved.stats()] == [s.total for s in exported.stats()]
    assert [p.name for p in saved.players] == [p.name for p in exported.players]


def test_the_tops_gcg_quackle_read_gives_every_top_to_the_top_player() -> None:
    """What Quackle's own GCG reader printed for exported.gcg (printed.json): the top player
    has the top total, the room 0; the file alternates a top and the room's pass, which is how
    Quackle gives the lines to the players (it ignores the name on a move line)."""
    printed = json.loads((DATA / "roundtrip" / "printed.json").read_text())
    lines = (DATA / "roundtrip" / "exported.gcg").read_text("utf-8").splitlines()
    moves = [line for line in lines if line.startswith(">")]
    assert all(m.startswith(">top: ") for m in moves[0::2])
    assert all(m.startswith(">room: ") and m.endswith(" - +0 0") for m in moves[1::2])
    assert printed["quackle_totals"] == {"top": int(moves[-2].split()[-1]), "room": 0}


def test_a_word_through_a_blank_on_the_board_is_written_in_upper_case_as_eliot_does() -> None:
    board = Board()
    board.play(Move.parse("H8 AZLOn"))
    assert eliot_word(board, Move.parse("12F KIn")) == "KIN"  # n: the blank on the board
    assert eliot_word(board, Move.parse("12F KIn")) != Move.parse("12F KIn").word
    assert eliot_word(board, Move.parse("I7 tA")) == "tA"  # a blank of the move stays lower
