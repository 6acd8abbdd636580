"""The director's and arbiters' actions on a game, by name: parse the input, call one service,
say what happened. The console's forms and the staff API both come through here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, overload

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext

from arbiter.services import clock, corrections, discipline, publishing, racks
from arbiter.services.double_entry import slip_check_resolve
from arbiter.services.slips import Existing, slip_check, slip_submit
from tournament.errors import ApplicationError
from tournament.models import Discipline, Game, Player, Round, Ruling, Submission
from tournament.selectors import round_current, unique_or_none
from tournament.vocabulary import TABLE_MAX, TABLE_MIN
from web.inputs import (
    BIGINT_MAX,
    EXTEND_MAX_SECONDS,
    INT32_MAX,
    INT32_MIN,
    Bounds,
    control_character_message,
    integer_parse,
)
from web.permissions import ARBITER, DIRECTOR, STAFF, role_require

Data = Mapping[str, Any]


# The numbers an action reads, each within its column (``web.inputs``): a table number, a
# ruling's id, an extension in seconds, points and a penalty, an announced score.
INT_BOUNDS = {
    "table": Bounds(TABLE_MIN, TABLE_MAX),
    "ruling": Bounds(1, BIGINT_MAX),
    "seconds": Bounds(1, EXTEND_MAX_SECONDS),
    "points": Bounds(INT32_MIN, INT32_MAX),
    "penalty": Bounds(INT32_MIN, INT32_MAX),
    "score": Bounds(INT32_MIN, INT32_MAX),
    "round": Bounds(1, INT32_MAX),
    "check": Bounds(1, BIGINT_MAX),
    "discipline": Bounds(1, BIGINT_MAX),
}
INT_DEFAULT_BOUNDS = Bounds(INT32_MIN, INT32_MAX)  # any other number: an integer column's
# The longest text each field may hold (the column's, or a generous line for a reason).
TEXT_MAX_LENGTH = {
    "rack": 16,
    "reason": 1000,
    "ref": 8,
    "word": 32,
    "code": 24,
    "existing": 16,
    "warning": 16,
    "averaged": 16,
    "late": 16,
    "fallacious": 16,
    "kept": 16,
}
TEXT_DEFAULT_MAX_LENGTH = 200


@dataclass(frozen=True)
class Done:
    """What an action did: its sentence for people and, for programs, the ids of what it made
    or changed (``ruling``, ``slip``, ``discipline``...), which the API answers beside it."""

    message: str
    data: dict[str, Any] = field(default_factory=dict)


def _label(key: str) -> str:
    return key.replace("_", " ").capitalize()


@overload
def _int(data: Data, key: str, *, required: Literal[True] = ...) -> int: ...
@overload
def _int(data: Data, key: str, *, required: bool) -> int | None: ...


def _int(data: Data, key: str, *, required: bool = True) -> int | None:
    """A whole number within ``INT_BOUNDS[key]``, written with the digits 0-9."""
    raw = data.get(key, "")
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        raise ApplicationError(
            gettext("%(field)s must be a whole number.") % {"field": _label(key)},
            code="not_a_number",
            data={"field": key},
        )
    value = str(raw).strip()
    if not value:
        if required:
            raise ApplicationError(
                gettext("%(field)s is required.") % {"field": _label(key)},
                code="required",
                data={"field": key},
            )
        return None
    try:
        return integer_parse(_label(key), value, INT_BOUNDS.get(key, INT_DEFAULT_BOUNDS))
    except ValueError as exc:
        raise ApplicationError(str(exc), code="bad_number", data={"field": key}) from None


def _text(data: Data, key: str) -> str:
    """A short text field: a string (a number is taken as written), at most
    ``TEXT_MAX_LENGTH[key]`` characters (``TEXT_DEFAULT_MAX_LENGTH`` for the others); the
    services check what it says."""
    raw = data.get(key, "")
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        raise ApplicationError(
            gettext("%(field)s must be text.") % {"field": _label(key)},
            code="not_text",
            data={"field": key},
        )
    value = str(raw)
    limit = TEXT_MAX_LENGTH.get(key, TEXT_DEFAULT_MAX_LENGTH)
    if len(value) > limit:
        raise ApplicationError(
            gettext("%(field)s is longer than %(limit)s characters.")
            % {"field": _label(key), "limit": limit},
            code="too_long",
            data={"field": key},
        )
    message = control_character_message(_label(key), value)
    if message is not None:
        raise ApplicationError(message, code="control_character", data={"field": key})
    return value


def _ref(data: Data) -> str:
    """A grid reference as typed: ASCII letters and digits only (``H8``, ``8H``); the engine
    says whether it is on the board."""
    ref = _text(data, "ref")
    if not (ref.strip().isascii() and ref.strip().isalnum()) and ref.strip():
        raise ApplicationError(
            gettext(
                "Ref '%(ref)s' is not a grid reference: a row letter A-O and a column number "
                "1-15 written with the digits 0-9 (H8 across, 8H down)."
            )
            % {"ref": ref},
            code="bad_reference",
            data={"field": "ref"},
        )
    return ref


def _flag(data: Data, key: str) -> bool:
    """A yes/no field: a JSON boolean, or as a form sends it ("1"/"on"/"true"; anything else,
    or absent: no)."""
    raw = data.get(key, "")
    if isinstance(raw, bool):
        return raw
    return str(raw) in {"1", "on", "true", "True"}


def _round(game: Game) -> Round:
    current = round_current(game_id=game.pk)
    if current is None or current.status == Round.Status.PUBLISHED:
        raise ApplicationError(
            gettext("Game %(number)s has no round in play: draw the next rack first.")
            % {"number": game.number},
            code="no_round_in_play",
        )
    return current


def _player_at(game: Game, data: Data) -> Player:
    table = _int(data, "table")
    player = unique_or_none(Player.objects.filter(event_id=game.event_id, table=table))
    if player is None:
        raise ApplicationError(
            gettext("No player sits at table %(table)s.") % {"table": table}, code="no_such_table"
        )
    return player


def _clock(at: datetime | None) -> str:
    """A time of the server clock as the room reads it: in the event's time zone (the event's
    pages and API run in it, ``web.permissions.event_access``), not UTC."""
    return "-" if at is None else f"{timezone.localtime(at):%H:%M:%S}"


def _draw(game: Game, user: User, data: Data) -> str:
    drawn = racks.round_draw(game=game, actor=user)
    if drawn is None:
        game.refresh_from_db()
        return gettext("Game %(number)s is over: %(reason)s.") % {
            "number": game.number,
            "reason": game.end_reason,
        }
    if drawn.rejected:
        return gettext("Round %(number)s: rack %(rack)s (%(rejected)s rejected).") % {
            "number": drawn.number,
            "rack": drawn.rack,
            "rejected": len(drawn.rejected),
        }
    return gettext("Round %(number)s: rack %(rack)s.") % {
        "number": drawn.number,
        "rack": drawn.rack,
    }


def _rack(game: Game, user: User, data: Data) -> str:
    entered = racks.round_rack_enter(game=game, rack=_text(data, "rack"), actor=user)
    return gettext("Round %(number)s: rack %(rack)s accepted.") % {
        "number": entered.number,
        "rack": entered.rack,
    }


def _open(game: Game, user: User, data: Data) -> str:
    opened = clock.round_open(round=_round(game), actor=user)
    return gettext("Round %(number)s is open until %(time)s.") % {
        "number": opened.number,
        "time": _clock(opened.deadline),
    }


def _extend(game: Game, user: User, data: Data) -> str:
    extended = clock.round_extend(
        round=_round(game), seconds=_int(data, "seconds") or 0, actor=user
    )
    return gettext("Round %(number)s extended to %(time)s.") % {
        "number": extended.number,
        "time": _clock(extended.deadline),
    }


def _pause(game: Game, user: User, data: Data) -> str:
    paused = clock.round_pause(round=_round(game), actor=user)
    return gettext("Round %(number)s paused.") % {"number": paused.number}


def _resume(game: Game, user: User, data: Data) -> str:
    resumed = clock.round_resume(round=_round(game), actor=user)
    return gettext("Round %(number)s resumed until %(time)s.") % {
        "number": resumed.number,
        "time": _clock(resumed.deadline),
    }


def _close(game: Game, user: User, data: Data) -> str:
    closed = clock.round_close_early(round=_round(game), actor=user)
    return gettext(
        "Round %(number)s closes now (slips already sent still count for the grace)."
    ) % {"number": closed.number}


def _publish(game: Game, user: User, data: Data) -> str:
    published = publishing.round_publish(round=_round(game), actor=user)
    return gettext("Round %(number)s published: %(ref)s %(word)s %(score)s.") % {
        "number": published.number,
        "ref": published.played_ref,
        "word": published.played_word,
        "score": published.played_score,
    }


def _annul(game: Game, user: User, data: Data) -> str:
    annulled = corrections.round_annul(round=_round(game), reason=_text(data, "reason"), actor=user)
    return gettext("Round %(number)s annulled: draw it again.") % {"number": annulled.number}


def _choose_top(game: Game, user: User, data: Data) -> str:
    chosen = publishing.round_top_choose(
        round=_round(game), ref=_ref(data), word=_text(data, "word"), actor=user
    )
    return gettext("The move to play is %(ref)s %(word)s (%(score)s).") % {
        "ref": chosen.played_ref,
        "word": chosen.played_word,
        "score": chosen.played_score,
    }


def _choice(data: Data, key: str) -> bool | None:
    """A yes/no field an amendment may leave alone: a JSON boolean (as ``late`` takes), or as a
    form sends it: "1"/"on"/"true" yes, "0"/"off"/"false" no; null, empty or absent: unchanged."""
    raw = data.get(key)
    if raw is None or isinstance(raw, bool):
        return raw
    value = _text(data, key).strip().lower()
    if value in {"", "unchanged"}:
        return None
    if value in {"1", "on", "true", "yes"}:
        return True
    if value in {"0", "off", "false", "no"}:
        return False
    raise ApplicationError(
        gettext("%(field)s is yes (1) or no (0), not '%(value)s'.")
        % {"field": key.capitalize(), "value": value},
        code="not_yes_or_no",
    )


def _amend(game: Game, user: User, data: Data) -> Done:
    ruling = (
        Ruling.objects.filter(pk=_int(data, "ruling"), round__game=game)
        .select_related("player")
        .first()
    )
    if ruling is None:
        raise ApplicationError(gettext("No such ruling in this game."), code="no_such_ruling")
    amended = corrections.ruling_amend(
        ruling=ruling,
        points=_int(data, "points", required=False),
        penalty=_int(data, "penalty", required=False),
        code=_text(data, "code").strip() or None,
        warning=_choice(data, "warning"),
        averaged=_choice(data, "averaged"),
        late=_choice(data, "late"),
        fallacious=_choice(data, "fallacious"),
        reason=_text(data, "reason"),
        actor=user,
    )
    message = gettext("%(name)s: now %(total)s points (%(ruling)s).") % {
        "name": ruling.player.name,
        "total": amended.total,
        "ruling": str(amended.get_code_display()).lower(),
    }
    return Done(message, {"ruling": amended.pk})


def _amend_slip(game: Game, user: User, data: Data) -> Done:
    """The slip of a player entered after its round was published (an amendment)."""
    number = _int(data, "round")
    published = game.rounds.filter(number=number, status=Round.Status.PUBLISHED).first()
    if published is None:
        raise ApplicationError(
            gettext("Round %(number)s of game %(game)s is not published.")
            % {"number": number, "game": game.number},
            code="round_not_published",
        )
    player = _player_at(game, data)
    ruling = corrections.ruling_slip_enter(
        round=published,
        player=player,
        word=_text(data, "word"),
        ref=_text(data, "ref"),  # as the paper has it: an unreadable one counts as none
        score=_int(data, "score", required=False),
        late=_flag(data, "late"),
        reason=_text(data, "reason"),
        actor=user,
    )
    message = gettext(
        "Table %(table)s (%(name)s), round %(number)s: %(ruling)s, %(total)s points."
    ) % {
        "table": player.table,
        "name": player.name,
        "number": number,
        "ruling": str(ruling.get_code_display()).lower(),
        "total": ruling.total,
    }
    return Done(message, {"ruling": ruling.pk, "slip": ruling.submission_id})


def _discipline(game: Game, user: User, data: Data) -> Done:
    """A disciplinary warning for the player at a table, for a round of the game (rules.md,
    case 21)."""
    number = _int(data, "round")
    round = game.rounds.exclude(status=Round.Status.ANNULLED).filter(number=number).first()
    if round is None:
        raise ApplicationError(
            gettext("Game %(game)s has no round %(number)s.")
            % {"game": game.number, "number": number},
            code="no_such_round",
        )
    player = _player_at(game, data)
    given = discipline.discipline_warn(
        round=round, player=player, reason=_text(data, "reason"), actor=user
    )
    message = gettext("Table %(table)s (%(name)s): a disciplinary warning in round %(number)s.") % {
        "table": player.table,
        "name": player.name,
        "number": number,
    }
    return Done(message, {"discipline": given.pk})


def _discipline_withdraw(game: Game, user: User, data: Data) -> str:
    given = (
        Discipline.objects.filter(pk=_int(data, "discipline"), round__game=game)
        .select_related("player", "round")
        .first()
    )
    if given is None:
        raise ApplicationError(
            gettext("No such disciplinary warning in this game."), code="no_such_discipline"
        )
    discipline.discipline_withdraw(discipline=given, reason=_text(data, "reason"), actor=user)
    return gettext("%(name)s: the disciplinary warning of round %(number)s is withdrawn.") % {
        "name": given.player.name,
        "number": given.round.number,
    }


def _slip(game: Game, user: User, data: Data) -> str | Done:
    current = round_current(game_id=game.pk)
    if current is None:
        raise ApplicationError(gettext("No round to enter slips for."), code="no_round_in_play")
    player = _player_at(game, data)
    # The reference as the paper has it, even unreadable: the ruling counts it as none
    # (rules.md, rule 4), as for the same slip from a phone.
    word, ref, score = (
        _text(data, "word"),
        _text(data, "ref"),
        _int(data, "score", required=False),
    )
    if _flag(data, "check"):
        agree = slip_check(
            player=player, round=current, word=word, ref=ref, score=score, checked_by=user
        )
        if agree:
            message = gettext("Table %(table)s (%(name)s): second entry agrees.")
        else:
            message = gettext(
                "Table %(table)s (%(name)s): second entry DISAGREES with the first: "
                "flagged for the director."
            )
        return message % {"table": player.table, "name": player.name}
    late = _flag(data, "late")
    existing = _text(data, "existing").strip()
    if existing and existing not in set(Existing):
        raise ApplicationError(
            gettext("An entry over a slip is a correction or multiple, not '%(existing)s'.")
            % {"existing": existing},
            code="bad_existing",
        )
    slip = slip_submit(
        player=player,
        round=current,
        word=word,
        ref=ref,
        score=score,
        source=Submission.Source.ARBITER,
        entered_by=user,
        late=late,
        existing=Existing(existing) if existing else None,
        fallacious=_flag(data, "fallacious"),
    )
    message = (
        gettext("Table %(table)s (%(name)s): %(ref)s %(word)s %(score)s (late) recorded.")
        if late
        else gettext("Table %(table)s (%(name)s): %(ref)s %(word)s %(score)s recorded.")
    )
    said = message % {
        "table": player.table,
        "name": player.name,
        "ref": slip.ref or "-",
        "word": slip.word,
        "score": slip.announced_score if slip.announced_score is not None else "-",
    }
    return Done(said, {"slip": slip.pk})


def _resolve(game: Game, user: User, data: Data) -> str:
    """A third look at a double-entry mismatch: keep the first entry or the second."""
    kept = _text(data, "kept").strip()
    if kept not in ("first", "second"):
        raise ApplicationError(
            gettext("Keep the first entry or the second, not '%(kept)s'.") % {"kept": kept},
            code="bad_kept",
            data={"field": "kept"},
        )
    current = _round(game)
    slip_check_resolve(
        round=current,
        check=_int(data, "check"),
        kept="first" if kept == "first" else "second",
        actor=user,
    )
    if kept == "first":
        return gettext("Mismatch resolved: the first entry stands.")
    return gettext("Mismatch resolved: the second entry stands.")


Action = Callable[[Game, User, Data], str | Done]

# action name -> (the roles allowed, the function): docs/design.md's roles table. Arbiters
# run rounds (draw, open, pause, extend, close, publish), enter slips and amend rulings;
# annulling a round (a draw to throw away) is the director's.
ACTIONS: dict[str, tuple[tuple[str, ...], Action]] = {
    "draw": (STAFF, _draw),
    "rack": (STAFF, _rack),
    "open": (STAFF, _open),
    "extend": (STAFF, _extend),
    "pause": (STAFF, _pause),
    "resume": (STAFF, _resume),
    "close": (STAFF, _close),
    "publish": (STAFF, _publish),
    "annul": ((DIRECTOR,), _annul),
    "choose_top": (STAFF, _choose_top),
    "amend": (STAFF, _amend),
    "amend_slip": ((DIRECTOR, ARBITER), _amend_slip),
    "discipline": (STAFF, _discipline),
    "discipline_withdraw": (STAFF, _discipline_withdraw),
    "slip": ((DIRECTOR, ARBITER), _slip),
    "resolve": ((DIRECTOR, ARBITER), _resolve),
}


@dataclass(frozen=True)
class Field:
    """A field of an action's body: its kind (how the helpers above read it: ``int``, ``text``,
    ``ref``, ``flag`` a yes/no, ``choice`` a yes/no/unchanged, ``one_of`` one of ``CHOICES``),
    and whether the action needs it."""

    kind: Literal["int", "text", "ref", "flag", "choice", "one_of"]
    required: bool = False


_INT, _INT_NEEDED = Field("int"), Field("int", required=True)
_TEXT, _FLAG, _CHOICE, _ONE_OF = Field("text"), Field("flag"), Field("choice"), Field("one_of")

# The values a ``one_of`` field takes.
CHOICES: dict[str, tuple[str, ...]] = {
    "existing": tuple(e.value for e in Existing),
    "kept": ("first", "second"),
    "code": tuple(c.value for c in Ruling.Code),
}

# The body each action reads, field by field: the API's schema of the game actions is made from
# it (``web.api.staff``), and tests/web/api/test_action_schema.py checks that every field an
# action's function reads is declared here with its kind, and nothing more.
ACTION_FIELDS: dict[str, dict[str, Field]] = {
    "draw": {},
    "rack": {"rack": _TEXT},
    "open": {},
    "extend": {"seconds": _INT_NEEDED},
    "pause": {},
    "resume": {},
    "close": {},
    "publish": {},
    "annul": {"reason": _TEXT},
    "choose_top": {"ref": Field("ref"), "word": _TEXT},
    "amend": {
        "ruling": _INT_NEEDED,
        "points": _INT,
        "penalty": _INT,
        "code": _ONE_OF,
        "warning": _CHOICE,
        "averaged": _CHOICE,
        "late": _CHOICE,
        "fallacious": _CHOICE,
        "reason": _TEXT,
    },
    "amend_slip": {
        "round": _INT_NEEDED,
        "table": _INT_NEEDED,
        "word": _TEXT,
        "ref": _TEXT,
        "score": _INT,
        "late": _FLAG,
        "reason": _TEXT,
    },
    "discipline": {"round": _INT_NEEDED, "table": _INT_NEEDED, "reason": _TEXT},
    "discipline_withdraw": {"discipline": _INT_NEEDED, "reason": _TEXT},
    "slip": {
        "table": _INT_NEEDED,
        "word": _TEXT,
        "ref": _TEXT,
        "score": _INT,
        "check": _FLAG,
        "late": _FLAG,
        "fallacious": _FLAG,
        "existing": _ONE_OF,
    },
    "resolve": {"kept": _ONE_OF, "check": _INT_NEEDED},
}


def game_or_404(slug: str, number: int) -> Game:
    """Game ``number`` of the event ``slug``, with its event; a 404 when there is none."""
    return get_object_or_404(Game.objects.select_related("event"), event__slug=slug, number=number)


def perform(game: Game, user: User, action: str, data: Data) -> Done:
    """Run one named action for ``user`` on ``game`` (role checked); returns what happened."""
    if action not in ACTIONS:
        raise ApplicationError(
            gettext("Unknown action '%(action)s'.") % {"action": action[:40]}, code="unknown_action"
        )
    if not isinstance(data, Mapping):
        raise ApplicationError(
            gettext("The body must be an object of named fields."), code="invalid"
        )
    roles, run = ACTIONS[action]
    role_require(user, game.event, *roles)
    done = run(game, user, data)
    return done if isinstance(done, Done) else Done(done)
