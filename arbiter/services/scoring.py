"""Scoring a closed round: every legal move for the rack (the tops, and how many moves score
what, for ranks), one ruling per registered player (``arbiter.services.rulings``), and the top
to play.

``round_score`` claims the round (closed -> scored) with a conditional UPDATE in the same
transaction as the rulings: a crash leaves it closed for the sweep, a second run does nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from arbiter.rules import score_counts
from arbiter.services.rulings import round_rule
from arbiter.state import board_of, engine_game, formula_of, lexicon_for
from engine.choice import choose_top
from engine.move import Move
from engine.movegen import ScoredMove, generate
from engine.replay import draw_planned
from engine.tiles import TileSet
from tournament.changes import TOPS, change_announce
from tournament.models import Round
from tournament.selectors import unique_or_none
from tournament.services.audit import audit_record

TOPS_KEPT = 20  # moves kept on the round for the console, beyond every move of the top score


def _move_json(m: ScoredMove) -> dict[str, Any]:
    return {"ref": m.ref, "word": m.word, "score": m.score, "used": m.used}


def round_tops_compute(*, round_id: int, now: datetime | None = None) -> bool:
    """Every legal move for the round's rack: the tops (every move of the top score, and the
    next best for the console) and how many moves score what (for ranks). Idempotent."""
    round = unique_or_none(Round.objects.select_related("game").filter(pk=round_id))
    if round is None or round.tops_ready_at is not None:
        return False
    game = round.game
    moves = generate(
        board_of(game),
        round.rack,
        lexicon_for(game.lexicon),
        TileSet.load(game.tile_set),
        formula=formula_of(game),
    )
    best = moves[0].score if moves else 0
    kept = [m for i, m in enumerate(moves) if m.score == best or i < TOPS_KEPT]
    counts = score_counts(m.score for m in moves)
    computed = Round.objects.filter(pk=round_id, tops_ready_at__isnull=True).update(
        tops=[_move_json(m) for m in kept],
        score_counts={str(score): n for score, n in counts.items()},
        moves_total=len(moves),
        tops_ready_at=now or timezone.now(),
    )
    if computed:
        change_announce(event_id=game.event_id, what=TOPS)
    return bool(computed)


def _tops(round: Round) -> list[ScoredMove]:
    return [
        ScoredMove(Move.from_ref(t["ref"], t["word"]), t["score"], t["used"]) for t in round.tops
    ]


def _chosen(round: Round) -> ScoredMove:
    """The top to play among the round's tops (``choose_top``); in a joker game, the engine's
    choice, which keeps the joker's coming back in mind (docs/formulas.md)."""
    game = round.game
    if not formula_of(game).joker:
        return choose_top(_tops(round), round.rack, TileSet.load(game.tile_set))
    state = engine_game(game)
    draw_planned(state, rack=round.rack, leftover=round.leftover, rejected=round.rejected)
    return state.choose_top(_tops(round))


def _planned(round: Round) -> tuple[str, str, int] | None:
    """A pre-drawn game's move for the round (the game's next racks follow from it, and every
    room of a simultaneous event plays it): None for a game drawn here, or a round the
    document has no move for."""
    game = round.game
    if game.source != game.Source.PREDRAWN:
        return None
    rounds = (game.predrawn or {}).get("rounds", [])
    planned = rounds[round.number - 1] if round.number <= len(rounds) else {}
    if not planned.get("word"):
        return None
    return str(planned["ref"]), str(planned["word"]), int(planned["score"])


def round_score(*, round_id: int, now: datetime | None = None) -> Round | None:
    """Rule every registered player's slip (or its absence), derive the solos, found-tops and
    warnings' penalties, choose the top to play. Claimed by a conditional UPDATE (closed ->
    scored) in the same transaction as the rulings, so a crash leaves the round closed for the
    sweep, and a second run does nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        claimed = Round.objects.filter(pk=round_id, status=Round.Status.CLOSED).update(
            status=Round.Status.SCORED, scored_at=now
        )
        if not claimed:
            return None
        round = Round.objects.select_related("game__event").get(pk=round_id)
        if round.tops_ready_at is None:
            round_tops_compute(round_id=round_id, now=now)
            round.refresh_from_db()
        game = round.game
        event = game.event
        rulings = round_rule(round=round, now=now)
        planned = _planned(round)
        if not round.played_word and planned is not None:
            round.played_ref, round.played_word, round.played_score = planned
            round.played_by = Round.PlayedBy.PREDRAWN
            round.save(update_fields=["played_ref", "played_word", "played_score", "played_by"])
        elif not round.played_word and round.tops:
            top = _chosen(round)
            round.played_ref, round.played_word, round.played_score = top.ref, top.word, top.score
            round.played_by = Round.PlayedBy.ENGINE
            round.save(update_fields=["played_ref", "played_word", "played_score", "played_by"])
        codes: dict[str, int] = {}
        for r in rulings:
            codes[r.code] = codes.get(r.code, 0) + 1
        audit_record(
            event=event,
            game=game,
            round=round,
            action="arbiter.round.scored",
            data={"rulings": codes, "top": round.played_word},
        )
    return round
