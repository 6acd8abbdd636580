"""From stored rows to the engine: the event's lexicon, tile set and layout, the game's state.

The engine owns the rules; the database owns the history. A game's engine state is rebuilt
from its published rounds (``engine.replay.replay_rounds`` checks each of them), never kept in
memory between requests or tasks.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from django.conf import settings
from django.utils.translation import gettext

from arbiter.rules import Policy
from engine.board import Board, Layout
from engine.errors import EngineError
from engine.game import DuplicateGame
from engine.lexicon import DEFAULT, Lexicon
from engine.move import Move
from engine.record import GameDocument, RoundRecord
from engine.replay import replay, replay_rounds
from engine.tiles import TileSet
from tournament.errors import ApplicationError
from tournament.models import Event, Game, Round


def lexicon_for(name: str) -> Lexicon:
    """The lexicon an event names: ``enable`` (shipped) or one configured in settings.LEXICONS."""
    path = settings.LEXICONS.get(name)
    if path is None:
        raise ApplicationError(
            gettext("Lexicon '%(name)s' is not configured: known lexicons are %(known)s.")
            % {"name": name, "known": ", ".join(sorted(settings.LEXICONS))}
        )
    try:
        return Lexicon.load(path or DEFAULT)
    except EngineError as exc:
        raise ApplicationError(
            gettext("Lexicon '%(name)s' cannot be loaded: %(exc)s") % {"name": name, "exc": exc}
        ) from None


def policy_for(event: Event) -> Policy:
    return Policy(
        warnings_free=event.warnings_free,
        warning_penalty=event.warning_penalty,
        reference_rule_2016=event.reference_rule_2016,
        reference_penalty=event.reference_penalty,
        solo_bonus=event.solo_bonus,
        solo_min_players=event.solo_min_players,
    )


def board_of(game: Game) -> Board:
    """The board after the game's last published round."""
    return Board.from_lines(list(game.board), Layout.load(game.board_layout))


def board_before(round: Round) -> Board:
    """The board a round was played on: the moves of the published rounds before it."""
    game = round.game
    board = Board(Layout.load(game.board_layout))
    for earlier in game.rounds.filter(
        status=Round.Status.PUBLISHED, number__lt=round.number
    ).order_by("number"):
        if earlier.played_word:
            board.play(Move.from_ref(earlier.played_ref, earlier.played_word))
    return board


def round_record(round: Round) -> RoundRecord:
    return RoundRecord(
        number=round.number,
        rack=round.rack,
        leftover=round.leftover,
        rejected=tuple(round.rejected),
        ref=round.played_ref,
        word=round.played_word,
        score=round.played_score or 0,
    )


def engine_game(game: Game, rounds: Iterable[Round] | None = None) -> DuplicateGame:
    """The engine's state after the game's published rounds, waiting for the next rack."""
    published = (
        rounds
        if rounds is not None
        else game.rounds.filter(status=Round.Status.PUBLISHED).order_by("number")
    )
    try:
        return replay_rounds(
            [round_record(r) for r in published],
            tiles=TileSet.load(game.tile_set),
            lexicon=lexicon_for(game.lexicon),
            layout=Layout.load(game.board_layout),
            seed=game.seed if game.seed is not None else 0,
        )
    except EngineError as exc:
        raise ApplicationError(
            gettext("Game %(number)s: the stored rounds do not replay: %(exc)s")
            % {"number": game.number, "exc": exc}
        ) from None


def predrawn_check(document: Any, event: Event) -> dict[str, Any]:
    """A pre-drawn game (the engine's ``game --json``) must replay under this event's lexicon
    and board, round by round, before rooms play it. Returns the document; says which round
    is wrong otherwise."""
    if not isinstance(document, dict) or "rounds" not in document:
        raise ApplicationError(
            gettext(
                'A pre-drawn game is the JSON document of "python -m engine game --json" '
                '(with "tiles" and "rounds").'
            )
        )
    if document.get("tiles") != event.tile_set:
        raise ApplicationError(
            gettext(
                "The pre-drawn game uses the '%(tiles)s' tiles; this event plays '%(tile_set)s'."
            )
            % {"tiles": document.get("tiles"), "tile_set": event.tile_set}
        )
    # An uploaded JSON object, not yet a GameDocument: replaying it is the check of its shape
    # (a missing key or a wrong type raises one of the errors caught below).
    game_document = cast(GameDocument, document)
    try:
        replay(
            game_document,
            lexicon=lexicon_for(event.lexicon),
            layout=Layout.load(event.board_layout),
        )
    except (EngineError, KeyError, TypeError, ValueError) as exc:
        raise ApplicationError(
            gettext("The pre-drawn game does not replay: %(exc)s") % {"exc": exc}
        ) from None
    return document
