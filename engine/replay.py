"""Games played again from what was written down: a document (``replay``: how a room loads a
federation's pre-drawn game) or the rounds stored so far (``replay_rounds``: how the database's
rounds become the engine's state). Every rack, leftover, move and score is checked, and a
mismatch raises an ``EngineError`` naming the round."""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine import movegen
from engine.board import Layout
from engine.draw import meets_minimum
from engine.errors import EngineError, NotationError, PlacementError, RackError, RackRejected
from engine.formula import Formula
from engine.game import NO_MOVE, DuplicateGame
from engine.lexicon import Lexicon
from engine.record import SEED_LIMIT, GameDocument, RoundRecord, whole_number
from engine.tiles import TileSet, sort_tiles, subtract

_NO_MOVE_END = re.compile(re.escape(NO_MOVE) + r"([A-Z?]+)")


def replay_rounds(
    rounds: Sequence[RoundRecord],
    *,
    tiles: TileSet,
    lexicon: Lexicon,
    layout: Layout | None = None,
    seed: int | None = None,
    formula: Formula | None = None,
) -> DuplicateGame:
    """Rebuild a game from rounds already played (for instance read from a database), each
    checked as ``replay`` does. The game is left waiting for the next round's rack."""
    game = DuplicateGame(tiles=tiles, lexicon=lexicon, layout=layout, seed=seed, formula=formula)
    for record in rounds:
        _replay_round(game, record)
    return game


def draw_planned(game: DuplicateGame, *, rack: str, leftover: str, rejected: Sequence[str]) -> str:
    """Draw a planned round's rack (a pre-drawn game's, or a round stored): the racks refused
    first (``-`` a refused rack not recorded, the leftover put back), then the rack. A rack that
    is the leftover alone is the leftover kept with nothing drawn, whatever the bag holds (how
    Eliot plays on when its draw does not fill the rack): the racks are the game."""
    for refused in rejected:
        try:
            game.offer_rack(refused)
        except RackRejected:
            continue
        raise RackError(f"the rejected rack {refused} meets the minimum: it should have been kept")
    if leftover and sort_tiles(rack) == sort_tiles(leftover) == game.leftover:
        return game.keep_leftover()
    return game.offer_rack(rack)


def _replay_round(game: DuplicateGame, record: RoundRecord) -> None:
    n = game.round_number
    if record.number != n:
        raise EngineError(f"round {n}: the document numbers it {record.number}")
    try:
        rack = draw_planned(
            game, rack=record.rack, leftover=record.leftover, rejected=record.rejected
        )
        if sort_tiles(record.leftover) != game.leftover:
            raise RackError(
                f"the leftover is {game.leftover or '(none)'}, "
                f"the document says {record.leftover or '(none)'}"
            )
        if rack != sort_tiles(record.rack):
            raise RackError(f"the rack reads {rack}, the document says {record.rack}")
        played = game.play(record.move)
        if played.score != record.score:
            raise PlacementError(
                f"{record.move} scores {played.score}, the document says {record.score}"
            )
        if record.joker_replaced is not None and played.joker_replaced != record.joker_replaced:
            raise PlacementError(
                f"{record.move}: the joker is {_joker_said(played.joker_replaced)}, "
                f"the document says it is {_joker_said(record.joker_replaced)}"
            )
    except EngineError as exc:
        if str(exc).startswith(f"round {n}:"):
            raise type(exc)(str(exc)) from None
        raise type(exc)(f"round {n}: {exc}") from None


def _joker_said(replaced: bool | None) -> str:
    if replaced is None:
        return "not played"
    return "replaced by its letter" if replaced else "left on the board"


def replay(
    document: GameDocument, *, lexicon: Lexicon, layout: Layout | None = None
) -> DuplicateGame:
    """Play a game document again round by round through ``offer_rack`` (rejected racks first)
    and ``play``, checking every rack, leftover, move and score, and then the end. Any mismatch
    raises an ``EngineError`` naming the round. Draws are seeded per round (``round_rng``), so
    drawing after a replay with the document's seed gives the racks the original would have."""
    try:
        tiles = TileSet.load(str(document["tiles"]))
        rounds = [RoundRecord.from_document(r) for r in document["rounds"]]
        seed = document.get("seed")
        if seed is not None and whole_number(seed, "the seed", minimum=0) >= SEED_LIMIT:
            raise NotationError(f"the seed must be below {SEED_LIMIT}, not {seed}")
        if "total" in document:
            whole_number(document["total"], "the total")
        formula = Formula.parse(document.get("formula"))
    except (KeyError, TypeError, AttributeError) as exc:
        raise NotationError(f"game document: {exc!s} is missing or not of the right type") from None
    game = DuplicateGame(tiles=tiles, lexicon=lexicon, layout=layout, seed=seed, formula=formula)
    for record in rounds:
        _replay_round(game, record)
    if "total" in document and document["total"] != game.total:
        raise EngineError(
            f"the rounds add up to {game.total}, the document's total is {document['total']}"
        )
    end = str(document.get("end") or "")
    if end:
        _replay_end(game, end)
    return game


def _replay_end(game: DuplicateGame, end: str) -> None:
    """Check the document's end against the position and end the game with it."""
    n = game.round_number
    reason = game.exhausted()
    if m := _NO_MOVE_END.fullmatch(end):
        rack = game.tiles.parse_rack(m.group(1))
        pool = game.leftover + game.bag.contents + "?" * game.jokers
        if (
            reason is not None
            or subtract(pool, rack) is None
            or not meets_minimum(game.tiles, rack, n)
        ):
            raise RackError(
                f"round {n}: the final rack {rack} cannot be drawn from {sort_tiles(pool)}"
            )
        if movegen.top(game.board, rack, game.lexicon, n=1, tiles=game.tiles, formula=game.formula):
            raise EngineError(f"round {n}: the document ends with {end!r} but a move is possible")
        game._end(end)
        return
    if reason is None:
        raise EngineError(
            f"round {n}: the document ends with {end!r} but a rack can still be drawn"
        )
    game._end(reason)


__all__ = ["draw_planned", "replay", "replay_rounds"]
