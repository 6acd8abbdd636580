"""The director's and arbiters' actions on a game, by name: parse the input, call one service,
say what happened. The console's forms and the staff API both come through here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from arbiter.services import rounds
from arbiter.services.slips import slip_check, slip_submit
from config.errors import ApplicationError
from tournament.console.selectors import round_current
from tournament.models import Game, Player, Round, Ruling, Submission
from tournament.roles import ARBITER, DIRECTOR

Data = Mapping[str, Any]


def _int(data: Data, key: str, *, required: bool = True) -> int | None:
    value = str(data.get(key, "")).strip()
    if not value:
        if required:
            raise ApplicationError(f"{key.replace('_', ' ').capitalize()} is required.")
        return None
    try:
        return int(value)
    except ValueError:
        raise ApplicationError(f"{key.replace('_', ' ').capitalize()} must be a whole number, not {value!r}.") from None


def _round(game: Game) -> Round:
    current = round_current(game)
    if current is None or current.status == Round.Status.PUBLISHED:
        raise ApplicationError(f"Game {game.number} has no round in play: draw the next rack first.")
    return current


def _player_at(game: Game, data: Data) -> Player:
    table = _int(data, "table")
    player = Player.objects.filter(event_id=game.event_id, table=table).first()
    if player is None:
        raise ApplicationError(f"No player sits at table {table}.")
    return player


def _draw(game: Game, user: AbstractBaseUser, data: Data) -> str:
    drawn = rounds.round_draw(game=game, actor=user)
    if drawn is None:
        game.refresh_from_db()
        return f"Game {game.number} is over: {game.end_reason}."
    return f"Round {drawn.number}: rack {drawn.rack}" + (f" ({len(drawn.rejected)} rejected)" if drawn.rejected else "") + "."


def _rack(game: Game, user: AbstractBaseUser, data: Data) -> str:
    entered = rounds.round_rack_enter(game=game, rack=str(data.get("rack", "")), actor=user)
    return f"Round {entered.number}: rack {entered.rack} accepted."


def _open(game: Game, user: AbstractBaseUser, data: Data) -> str:
    opened = rounds.round_open(round=_round(game), actor=user)
    return f"Round {opened.number} is open until {opened.deadline:%H:%M:%S}."


def _extend(game: Game, user: AbstractBaseUser, data: Data) -> str:
    extended = rounds.round_extend(round=_round(game), seconds=_int(data, "seconds") or 0, actor=user)
    return f"Round {extended.number} extended to {extended.deadline:%H:%M:%S}."


def _pause(game: Game, user: AbstractBaseUser, data: Data) -> str:
    return f"Round {rounds.round_pause(round=_round(game), actor=user).number} paused."


def _resume(game: Game, user: AbstractBaseUser, data: Data) -> str:
    resumed = rounds.round_resume(round=_round(game), actor=user)
    return f"Round {resumed.number} resumed until {resumed.deadline:%H:%M:%S}."


def _close(game: Game, user: AbstractBaseUser, data: Data) -> str:
    closed = rounds.round_close_early(round=_round(game), actor=user)
    return f"Round {closed.number} closes now (slips already sent still count for the grace)."


def _publish(game: Game, user: AbstractBaseUser, data: Data) -> str:
    published = rounds.round_publish(round=_round(game), actor=user)
    return f"Round {published.number} published: {published.played_ref} {published.played_word} {published.played_score}."


def _annul(game: Game, user: AbstractBaseUser, data: Data) -> str:
    annulled = rounds.round_annul(round=_round(game), reason=str(data.get("reason", "")), actor=user)
    return f"Round {annulled.number} annulled: draw it again."


def _choose_top(game: Game, user: AbstractBaseUser, data: Data) -> str:
    chosen = rounds.round_top_choose(round=_round(game), ref=str(data.get("ref", "")), word=str(data.get("word", "")), actor=user)
    return f"The move to play is {chosen.played_ref} {chosen.played_word} ({chosen.played_score})."


def _amend(game: Game, user: AbstractBaseUser, data: Data) -> str:
    ruling = Ruling.objects.filter(pk=_int(data, "ruling"), round__game=game).select_related("player").first()
    if ruling is None:
        raise ApplicationError("No such ruling in this game.")
    code = str(data.get("code", "")).strip() or None
    amended = rounds.ruling_amend(ruling=ruling, points=_int(data, "points") or 0, penalty=_int(data, "penalty", required=False), code=code, reason=str(data.get("reason", "")), actor=user)
    return f"{ruling.player.name}: now {amended.points} points ({amended.get_code_display().lower()})."


def _slip(game: Game, user: AbstractBaseUser, data: Data) -> str:
    current = round_current(game)
    if current is None:
        raise ApplicationError("No round to enter slips for.")
    player = _player_at(game, data)
    word, ref, score = str(data.get("word", "")), str(data.get("ref", "")), _int(data, "score", required=False)
    if str(data.get("check", "")) in {"1", "on", "true"}:
        agree = slip_check(player=player, round=current, word=word, ref=ref, score=score, checked_by=user)
        return f"Table {player.table} ({player.name}): second entry {'agrees' if agree else 'DISAGREES with the first: flagged for the director'}."
    late = str(data.get("late", "")) in {"1", "on", "true"}
    slip = slip_submit(player=player, round=current, word=word, ref=ref, score=score, source=Submission.Source.ARBITER, entered_by=user, late=late)
    return f"Table {player.table} ({player.name}): {slip.ref or '-'} {slip.word} {slip.announced_score if slip.announced_score is not None else '-'}" + (" (late)" if late else "") + " recorded."


Action = Callable[[Game, AbstractBaseUser, Data], str]

# action name -> (the roles allowed, the function)
ACTIONS: dict[str, tuple[tuple[str, ...], Action]] = {
    "draw": ((DIRECTOR,), _draw),
    "rack": ((DIRECTOR,), _rack),
    "open": ((DIRECTOR,), _open),
    "extend": ((DIRECTOR,), _extend),
    "pause": ((DIRECTOR,), _pause),
    "resume": ((DIRECTOR,), _resume),
    "close": ((DIRECTOR,), _close),
    "publish": ((DIRECTOR,), _publish),
    "annul": ((DIRECTOR,), _annul),
    "choose_top": ((DIRECTOR,), _choose_top),
    "amend": ((DIRECTOR,), _amend),
    "slip": ((DIRECTOR, ARBITER), _slip),
}
