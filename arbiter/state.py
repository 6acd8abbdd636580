"""From stored rows to the engine: the event's lexicon, tile set and layout, the game's state.

The engine owns the rules; the database owns the history. A game's engine state is rebuilt
from its published rounds (``engine.replay.replay_rounds`` checks each of them), never kept in
memory between requests or tasks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from django.conf import settings
from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext

from arbiter.rules import Policy, Rulebook
from arbiter.rules.rulebook import BLITZ_SECONDS
from arbiter.rules.sudden_death import sudden_death_seconds
from engine.board import Board, Layout
from engine.errors import EngineError
from engine.formula import STANDARD as STANDARD_FORMULA
from engine.formula import Formula
from engine.game import DuplicateGame
from engine.lexicon import DEFAULT, Lexicon
from engine.move import Move
from engine.record import GameDocument, RoundRecord
from engine.replay import replay, replay_rounds
from engine.tiles import TileSet
from tournament.errors import ApplicationError
from tournament.models import Event, Game, Round, WordList


def _word_list_ready(name: str) -> WordList | None:
    """The uploaded list an event's ``lexicon`` names (``upload:<id>``), once it is compiled;
    None for a list on the server (``settings.LEXICONS``)."""
    if name in settings.LEXICONS:
        return None
    list_id = WordList.id_of(name)
    word_list = None if list_id is None else WordList.objects.filter(pk=list_id).first()
    if word_list is None:
        raise ApplicationError(
            gettext("Lexicon %(name)r is not configured: known lexicons are %(known)s.")
            % {"name": name, "known": ", ".join(sorted(settings.LEXICONS))},
            code="unknown_lexicon",
        )
    if word_list.status == WordList.Status.FAILED:
        raise ApplicationError(
            gettext(
                "The word list %(name)s could not be compiled (%(reason)s): upload it again "
                "or choose another list in the set-up."
            )
            % {"name": word_list.name, "reason": word_list.message},
            code="word_list_failed",
        )
    if not word_list.is_ready:
        raise ApplicationError(
            gettext(
                "The word list %(name)s is not compiled yet (%(progress)s%%): a round can "
                "start once it is ready (the set-up page shows its progress)."
            )
            % {"name": word_list.name, "progress": word_list.progress},
            code="word_list_not_ready",
        )
    return word_list


def lexicon_require_ready(name: str) -> None:
    """Refuse (``ApplicationError``) a lexicon that cannot be played yet: an uploaded list not
    compiled (or failed), or a name that is no list at all."""
    _word_list_ready(name)


def lexicon_for(name: str) -> Lexicon:
    """The lexicon an event names: ``enable`` (shipped), one configured in settings.LEXICONS, or
    a list a director uploaded (``upload:<id>``, compiled by a worker: refused until then)."""
    word_list = _word_list_ready(name)
    source = str(word_list.path) if word_list is not None else settings.LEXICONS[name] or DEFAULT
    try:
        return Lexicon.load(source)
    except EngineError as exc:
        raise ApplicationError(
            gettext("Lexicon '%(name)s' cannot be loaded: %(exc)s") % {"name": name, "exc": exc},
            code="lexicon_unreadable",
        ) from None


@dataclass(frozen=True)
class LexiconInfo:
    """What an event's lexicon is called and holds, for the pages and the exports."""

    name: str
    words: int | None  # None while an uploaded list compiles, or if a server list cannot load
    status: str  # a WordList status; "ready" for a list on the server
    progress: int
    message: str = ""  # an uploaded list's: the compile's step, what it left out, or why it failed
    builtin: bool = False  # a list offered out of the box (the open French list): not the ODS

    @property
    def label(self) -> str:
        """``word list ODS (411,430 words)``, as the pages, the screen and the exports say it;
        a list offered out of the box says it is not the ODS."""
        if self.words is None:
            said = gettext("word list %(name)s") % {"name": self.name}
        else:
            said = ngettext(
                "word list %(name)s (%(words)s word)",
                "word list %(name)s (%(words)s words)",
                self.words,
            ) % {"name": self.name, "words": number_format(self.words, force_grouping=True)}
        return said + (gettext(", not the ODS") if self.builtin else "")


def lexicon_title(name: str) -> str:
    """The list's own name, as rulings, sheets and pages say it: a list on the server by its
    name, an uploaded list by the name it was given (never its file or ``upload:<id>``)."""
    list_id = WordList.id_of(name)
    if name in settings.LEXICONS or list_id is None:
        return name
    title = WordList.objects.filter(pk=list_id).values_list("name", flat=True).first()
    return title or name


def lexicon_info(name: str) -> LexiconInfo:
    """The name and word count of the list an event's (or a game's) ``lexicon`` names. A list
    on the server is loaded for its count (from the disk cache; once per process)."""
    if name in settings.LEXICONS:
        try:
            words: int | None = lexicon_for(name).words
        except ApplicationError:
            words = None
        return LexiconInfo(name, words, WordList.Status.READY, 100)
    list_id = WordList.id_of(name)
    word_list = None if list_id is None else WordList.objects.filter(pk=list_id).first()
    if word_list is None:
        return LexiconInfo(name, None, WordList.Status.FAILED, 0)
    return LexiconInfo(
        word_list.name,
        word_list.words,
        word_list.status,
        word_list.progress,
        # a compile's step is stored as the engine's worker says it, in English (the list is
        # shared by events of any language): said in the reader's language here
        gettext(word_list.message) if word_list.message else "",
        bool(word_list.builtin),
    )


def policy_for(event: Event, game: Game | None = None) -> Policy:
    """The numbers an event's rulings follow, under its rulebook (``Event.rulebook``); for a
    ``game`` in an original formula (FISF 2023 3.8) its warnings cost from the sixth (5.9), as
    in a blitz."""
    original = game is not None and game.formula != STANDARD_FORMULA
    return Policy(
        rulebook=Rulebook(event.rulebook),
        blitz_or_original=event.round_seconds <= BLITZ_SECONDS or original,
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


def formula_of(game: Game) -> Formula:
    """The engine's formula of the game (docs/formulas.md)."""
    return Formula.parse(game.formula)


def round_seconds_for(game: Game, number: int) -> int:
    """The time of the game's round ``number``: the event's, or in mort subite the text's
    falling times (FISF 2023 3.8.3, ``arbiter.rules.sudden_death``)."""
    if formula_of(game).sudden_death:
        return sudden_death_seconds(number)
    return int(game.event.round_seconds)


def board_before(round: Round) -> Board:
    """The board a round was played on: the moves of the published rounds before it (in a
    joker game, replayed by the engine: a joker replaced by its letter is that letter)."""
    game = round.game
    if formula_of(game).joker:
        before = game.rounds.filter(status=Round.Status.PUBLISHED, number__lt=round.number)
        return engine_game(game, before.order_by("number")).board
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
            formula=formula_of(game),
        )
    except EngineError as exc:
        raise ApplicationError(
            gettext("Game %(number)s: the stored rounds do not replay: %(exc)s")
            % {"number": game.number, "exc": exc},
            code="rounds_do_not_replay",
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
            ),
            code="bad_predrawn",
        )
    if document.get("tiles") != event.tile_set:
        raise ApplicationError(
            gettext(
                "The pre-drawn game uses the '%(tiles)s' tiles; this event plays '%(tile_set)s'."
            )
            % {"tiles": document.get("tiles"), "tile_set": event.tile_set},
            code="predrawn_tiles_mismatch",
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
            gettext("The pre-drawn game does not replay: %(exc)s") % {"exc": exc},
            code="predrawn_does_not_replay",
        ) from None
    return document
