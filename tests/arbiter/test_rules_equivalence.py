"""The judge that reads a word's placements from the legal moves (``search="moves"``) rules
exactly as the judge that tries the word at every square (``search="squares"``, the reference):
every field of every ruling, and every reading of every word, on random positions.

The positions are the engine tests' (tests/engine/positions.py: random games, both layouts, 0-2
blanks on the rack, the English and French tile sets) and those of duplicate games as the
engine plays them (its top each round), with the full ENABLE list; the slips are
drawn around the position's legal moves: right words at right and wrong squares, blanks marked
wrong or not at all, wrong and missing scores, missing and unreadable references, words that are
not in the lexicon and words that fit nowhere. With ``DUPLICATE_ENGINE=pure`` the moves come
from the pure generator.
"""

from __future__ import annotations

import gzip
from functools import cache
from importlib import resources

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from arbiter.rules import Policy, RoundJudge, Search, Slip, score_counts
from engine.board import Board
from engine.errors import EngineError
from engine.game import autoplay
from engine.lexicon import Lexicon
from engine.move import Move
from engine.movegen import ScoredMove, generate
from engine.notation import SIZE, Direction, format_ref, parse_word
from engine.tiles import TileSet
from tests.engine.positions import random_positions

ENABLE = Lexicon.load()
_LISTED = resources.files("engine").joinpath("data", "lexicons", "enable.txt.gz").read_bytes()
_WORDS = gzip.decompress(_LISTED).decode().upper().split()
SOME_WORDS = _WORDS[::173]  # words to write anywhere: most fit nowhere, some fit somewhere
LONG_WORDS = [w for w in _WORDS if len(w) >= 11][::41]  # these mostly fit nowhere
TILES = {code: TileSet.load(code) for code in ("en", "fr")}
POSITIONS = 24  # per tile set: games of a few rounds each, the first on an empty board
GAMES = (1, 2)  # duplicate games autoplayed from these seeds, every round
# Short words in the lexicon, often playable with a rack or two.
OTHER_WORDS = ["QI", "ZA", "JO", "XU", "OX", "AXE", "QUIZ", "JINX", "ZEBRA", "RETAINS", "OE"]
OTHER_WORDS += ["CAT", "DOG", "TOE", "EAT", "TEA", "ATE", "ETA", "ZAX", "AA", "ERE", "INERT"]
JUNK_REFS = ["", "H", "8", "Z9", "H0", "H16", "16H", "P1", "1P", "h8", " 8h ", "H8H", "88"]


@cache
def positions(source: str) -> list[tuple[Board, str, tuple[ScoredMove, ...]]]:
    """The positions of random games ("en", "fr"), or of duplicate games as played ("games":
    the top each round, English)."""
    tiles = TILES[source if source in TILES else "en"]
    if source in TILES:
        drawn = list(random_positions(11, POSITIONS, ENABLE, tiles))
    else:
        drawn = []
        for seed in GAMES:
            board = Board()
            for played in autoplay(seed=seed, tiles=tiles, lexicon=ENABLE).rounds:
                drawn.append((board.copy(), played.rack))
                board.play(Move.from_ref(played.ref, played.word))
    return [(board, rack, tuple(generate(board, rack, ENABLE, tiles))) for board, rack in drawn]


def judge(
    board: Board,
    rack: str,
    code: str,
    moves: tuple[ScoredMove, ...],
    number: int,
    policy: Policy,
    search: Search,
) -> RoundJudge:
    return RoundJudge(
        board=board,
        rack=rack,
        lexicon=ENABLE,
        tiles=TILES[code],
        round_number=number,
        top_score=moves[0].score if moves else 0,
        score_counts=score_counts(m.score for m in moves),
        policy=policy,
        search=search,
    )


@st.composite
def words(draw: st.DrawFn, moves: tuple[ScoredMove, ...]) -> str:
    """A legal move's word as written, or spoilt; another word; or no word at all."""
    kind = draw(
        st.sampled_from(["legal"] * 14 + ["other"] * 2 + ["some", "long", "letters", "malformed"])
    )
    if kind == "other" or (kind == "legal" and not moves):
        return draw(st.sampled_from(OTHER_WORDS))
    if kind in ("some", "long"):
        return draw(st.sampled_from(SOME_WORDS if kind == "some" else LONG_WORDS))
    if kind == "letters":
        return draw(st.text(alphabet="AEIOURSTLNQZXKaeis", min_size=2, max_size=9))
    if kind == "malformed":
        return draw(st.sampled_from(["", "A", "A-B", "H8", "ÉTÉ", "A" * 16, "  ", "WO RD"]))
    word = draw(st.sampled_from(moves)).word
    spoil = draw(
        st.sampled_from(
            ["none"] * 10 + ["upper"] * 3 + ["marks"] * 3 + ["swap"] * 2 + ["lower", "letter"]
        )
    )
    if spoil == "upper":  # blanks not marked
        return word.upper()
    if spoil == "lower":
        return word.lower()
    if spoil == "marks":  # blanks marked on other letters
        flips = draw(st.lists(st.integers(0, len(word) - 1), min_size=1, max_size=3))
        return "".join(ch.swapcase() if i in flips else ch for i, ch in enumerate(word))
    if spoil == "swap":  # most likely not a word
        i = draw(st.integers(0, len(word) - 2))
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :]
    if spoil == "letter":
        i = draw(st.integers(0, len(word) - 1))
        return word[:i] + draw(st.sampled_from("AEISTZQ")) + word[i + 1 :]
    return word


@st.composite
def slips(draw: st.DrawFn, moves: tuple[ScoredMove, ...]) -> Slip | None:
    if draw(st.integers(0, 29)) == 0:
        return None
    word = draw(words(moves))
    legal = [m for m in moves if m.word.upper() == word.upper()]
    where = draw(
        st.sampled_from(["own"] * 4 + ["shifted"] * 2 + ["swapped", "square", "none", "junk"])
    )
    if where == "own" and legal:
        ref = draw(st.sampled_from(legal)).ref
    elif where == "shifted" and legal:  # the right direction, a square off
        m = draw(st.sampled_from(legal)).move
        row = min(max(m.row + draw(st.sampled_from([-1, 1])), 0), SIZE - 1)
        ref = format_ref(row, m.col, m.direction)
    elif where == "swapped" and legal:  # the classic slip: the direction swapped
        m = draw(st.sampled_from(legal)).move
        ref = format_ref(m.row, m.col, m.direction.other)
    elif where == "none":
        ref = ""
    elif where == "junk":
        ref = draw(st.sampled_from(JUNK_REFS))
    else:
        row, col = draw(st.integers(0, SIZE - 1)), draw(st.integers(0, SIZE - 1))
        ref = format_ref(row, col, draw(st.sampled_from(Direction)))
    score = draw(st.sampled_from([m.score for m in legal] or [0]))
    top = moves[0].score if moves else 0
    announced = draw(st.sampled_from([score] * 5 + [max(0, score - 2), score + 3, None, top]))
    flags = [(False, False)] * 18 + [(True, False), (False, True)]
    late, multiple = draw(st.sampled_from(flags))
    return Slip(word, ref, announced, late=late, multiple=multiple)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    source=st.sampled_from(["en", "fr", "games"]),
    pick=st.integers(0, 10_000),
    number=st.sampled_from([1, 2, 7]),
    rule_2016=st.booleans(),
    data=st.data(),
)
def test_the_judge_on_the_legal_moves_rules_every_slip_as_the_judge_on_every_square(
    source: str, pick: int, number: int, rule_2016: bool, data: st.DataObject
) -> None:
    found = positions(source)
    board, rack, moves = found[pick % len(found)]
    code = "fr" if source == "fr" else "en"
    policy = Policy(reference_rule_2016=rule_2016)
    new = judge(board, rack, code, moves, number, policy, "moves")
    old = judge(board, rack, code, moves, number, policy, "squares")
    for slip in data.draw(st.lists(slips(moves), min_size=1, max_size=6), label="slips"):
        ruled = new.rule(slip)
        assert ruled == old.rule(slip), (board, rack, slip)
        event(f"{ruled.code.value}{' (first move)' if board.is_empty else ''}")
        try:
            word = parse_word(slip.word if slip is not None else "")
        except EngineError:
            continue
        for direction in (Direction.ACROSS, Direction.DOWN, None):
            assert new._readings_of(word, direction) == old._readings_of(word, direction), (
                board,
                rack,
                word,
                direction,
            )
