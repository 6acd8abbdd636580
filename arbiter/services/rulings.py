"""Rulings: every slip of a round judged by ``arbiter.rules``, and what a game's rulings derive.

A ruling stores what the slip itself earned (its code, the move's score, the points, a warning,
a reference penalty, the director's amendments). What depends on the other rulings of the
game is derived, never set by hand: whether the move found the top, its rank, the solo, the
points of a ruling the director averaged (rule 10), and the warning's penalty (every warning
of a game beyond the free ones). ``rulings_derive`` recomputes them from a round on, in the
same transaction as whatever changed a ruling, so standings, phones and sheets follow.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import datetime
from operator import attrgetter

from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext

from arbiter.rules import (
    PLACED_CODES,
    Code,
    Policy,
    RoundJudge,
    Slip,
    round_average,
    solo_winner,
    warning_penalties,
)
from arbiter.state import board_before, formula_of, lexicon_for, lexicon_title, policy_for
from engine.tiles import TileSet
from tournament.bulk import rows_insert
from tournament.changes import RULED, change_announce
from tournament.models import Discipline, Game, Player, Round, Ruling, Submission
from tournament.selectors import unique_or_none
from tournament.vocabulary import ruling_total

DERIVED = ("found_top", "rank", "solo", "warning_penalty", "points", "discipline_warnings")


def judge_for(round: Round) -> RoundJudge:
    """The judge of a round: its rack on the board it was played on, its tops (computed)."""
    game = round.game
    return RoundJudge(
        board=board_before(round),
        rack=round.rack,
        lexicon=lexicon_for(game.lexicon),
        tiles=TileSet.load(game.tile_set),
        round_number=round.number,
        top_score=round.tops[0]["score"] if round.tops else 0,
        score_counts={int(s): n for s, n in round.score_counts.items()},
        policy=policy_for(game.event, game),
        say=_speaking(game.event.language),
        lexicon_name=lexicon_title(game.lexicon),
        formula=formula_of(game),
    )


def _speaking(language: str) -> Callable[[str], str]:
    """The reasons' words in ``language`` (the event's), whichever request or worker rules."""

    def say(message: str) -> str:
        with translation.override(language):
            return gettext(message)

    return say


# A slip as stored: the fields of a Submission that make a ``Slip``, in its order.
SLIP_FIELDS = ("word", "ref", "announced_score", "late", "multiple", "fallacious")


def slip_of(submission: Submission | None) -> Slip | None:
    if submission is None:
        return None
    return Slip(*(getattr(submission, name) for name in SLIP_FIELDS))


def ruling_new(
    round: Round,
    player_id: int,
    slip: Slip | None,
    submission_id: int | None,
    judge: RoundJudge,
    *,
    now: datetime,
) -> Ruling:
    """The ruling of one slip (or of its absence), its derived fields left to derive."""
    ruled = judge.rule(slip)
    return Ruling(
        round=round,
        player_id=player_id,
        submission_id=submission_id,
        code=ruled.code.value,
        reason=ruled.reason,
        article=ruled.article,
        move_score=ruled.move_score,
        points=ruled.points,
        warning=ruled.warning,
        penalty=ruled.penalty,
        rank=ruled.rank,
        found_top=ruled.found_top,
        ruled_at=now,
    )


def round_rule(*, round: Round, now: datetime) -> list[Ruling]:
    """One ruling per registered player of the event (their current slip, or "missing"),
    replacing any the round had; then what they derive. The rulings are written in one
    statement (``rows_insert``: 10,000 of them in a tenth of ``bulk_create``'s time) and are
    returned unsaved (no primary key)."""
    judge = judge_for(round)
    players = Player.objects.filter(event_id=round.game.event_id).values_list("pk", flat=True)
    current = Submission.objects.filter(round=round, is_current=True).order_by()
    slips = {
        player_id: (pk, Slip(*fields))
        for pk, player_id, *fields in current.values_list("pk", "player_id", *SLIP_FIELDS)
    }
    rulings = []
    for player_id in players:
        submission_id, slip = slips.get(player_id, (None, None))
        rulings.append(ruling_new(round, player_id, slip, submission_id, judge, now=now))
    Ruling.objects.filter(round=round).delete()
    rows_insert(Ruling, rulings)
    rulings_derive(game=round.game, from_round=round.number)
    return rulings


def player_rule(*, round: Round, player: Player, now: datetime) -> Ruling:
    """Rule one player's current slip again (a slip entered after the round was scored, a
    correction, a late mark): the new ruling replaces the old; then what it derives."""
    slip = unique_or_none(Submission.objects.filter(round=round, player=player, is_current=True))
    slip_id = slip.pk if slip is not None else None
    fresh = ruling_new(round, player.pk, slip_of(slip), slip_id, judge_for(round), now=now)
    Ruling.objects.filter(round=round, player=player).delete()
    fresh.save()
    rulings_derive(game=round.game, from_round=round.number)
    change_announce(event_id=round.game.event_id, what=RULED, player_id=player.pk)
    return fresh


def rulings_derive(*, game: Game, from_round: int = 1) -> int:
    """Recompute what the rulings of the game's ruled rounds, from ``from_round`` on, derive:
    found-top and rank (from the move's score and the round's tops), the solo (the one player
    who found the top, when enough players play the game), the average given for a second
    zero, and each warning's penalty. Writes only what changed; returns how many rulings."""
    policy = policy_for(game.event, game)
    ruled = Round.objects.filter(
        game=game, status__in=(Round.Status.SCORED, Round.Status.PUBLISHED)
    )
    rounds = {r.pk: r for r in ruled.filter(number__gte=from_round).order_by("number")}
    rulings = list(Ruling.objects.filter(round_id__in=rounds).order_by("round__number", "pk"))
    active = set(
        Submission.objects.filter(round__game=game)
        .exclude(round__status=Round.Status.ANNULLED)
        .values_list("player", flat=True)
        .order_by()
        .distinct()
    )
    by_round: dict[int, list[Ruling]] = defaultdict(list)
    for ruling in rulings:
        by_round[ruling.round_id].append(ruling)
    derived = attrgetter(*DERIVED)
    before = [derived(r) for r in rulings]
    for round_id, round_rulings in by_round.items():
        _round_derive(rounds[round_id], round_rulings, active, policy)
    _warnings_derive(game, from_round, rulings, policy)
    changed = [r for i, r in enumerate(rulings) if derived(r) != before[i]]
    Ruling.objects.bulk_update(changed, DERIVED, batch_size=500)
    return len(changed) + _earlier_solos_derive(game, from_round, active, policy)


def _earlier_solos_derive(game: Game, from_round: int, active: set[int], policy: Policy) -> int:
    """The solos of the rounds before ``from_round``: they depend on how many players play the
    game, which a slip in a later round can change. Only what decides a solo is read: the
    finders (before-2023) or the moves on the board (fisf-2023, 3.5), and the solos given."""
    earlier = Ruling.objects.filter(
        round__game=game,
        round__number__lt=from_round,
        round__status__in=(Round.Status.SCORED, Round.Status.PUBLISHED),
    )
    decides = Q(code__in=PLACED_CODES) if policy.fisf_2023 else Q(found_top=True)
    by_round: dict[int, list[Ruling]] = defaultdict(list)
    fields = ("pk", "round_id", "player_id", "found_top", "solo", "code", "points", "averaged")
    for ruling in earlier.filter(decides | Q(solo__gt=0)).only(*fields):
        by_round[ruling.round_id].append(ruling)
    changed = []
    for round_rulings in by_round.values():
        solo = _solo(round_rulings, active, policy)
        for r in round_rulings:
            bonus = policy.solo_bonus if r.player_id == solo else 0
            if r.solo != bonus:
                r.solo = bonus
                changed.append(r)
    Ruling.objects.bulk_update(changed, ["solo"])
    return len(changed)


def _solo(rulings: list[Ruling], active: set[int], policy: Policy) -> int | None:
    """The player credited with the round's solo bonus (``arbiter.rules.solo_winner``): the
    finders of the top, or each move's score before the penalty (its points)."""
    return solo_winner(
        policy,
        len(active),
        finders=[r.player_id for r in rulings if r.found_top],
        scores={
            r.player_id: r.points for r in rulings if r.code in PLACED_CODES and not r.averaged
        },
    )


def _round_derive(round: Round, rulings: list[Ruling], active: set[int], policy: Policy) -> None:
    top = round.tops[0]["score"] if round.tops else None
    counts = {int(s): n for s, n in round.score_counts.items()}
    for r in rulings:
        placed = r.code in PLACED_CODES and r.move_score is not None and not r.averaged
        r.found_top = placed and r.move_score == top
        r.rank = (
            1 + sum(n for s, n in counts.items() if s > (r.move_score or 0)) if placed else None
        )
    nets = {
        r.pk: ruling_total(points=r.points, solo=0, penalty=r.penalty, warning_penalty=0)
        for r in rulings
        if not r.averaged and _counts_in_average(r, active, policy)
    }
    for r in rulings:
        if r.averaged:
            r.points = round_average(
                policy,
                (net for pk, net in nets.items() if pk != r.pk),
                own_solution=r.move_score,
            )
    solo = _solo(rulings, active, policy)
    for r in rulings:
        r.solo = policy.solo_bonus if r.player_id == solo else 0


def _counts_in_average(ruling: Ruling, active: set[int], policy: Policy) -> bool:
    """Whose score makes the average of a round (``round_average``): FISF 2023, 5.9, "tous les
    autres joueurs relevant de son arbitre (zéros inclus ...)", those who play the game (a
    player with no slip in this round counts 0); before-2023, those who handed in a slip."""
    if policy.fisf_2023:
        return ruling.player_id in active
    return ruling.code != Code.MISSING


def _warnings_derive(game: Game, from_round: int, rulings: list[Ruling], policy: Policy) -> None:
    """Each round's warnings' penalty: the player's warnings, the slips' and the disciplinary
    ones (rules.md case 21), counted in round order through the game (those of the rounds
    before ``from_round`` are counted from the database)."""
    earlier: dict[int, int] = defaultdict(int)
    counted = (
        Ruling.objects.filter(round__game=game, round__number__lt=from_round)
        .filter(Q(warning=True) | Q(discipline_warnings__gt=0))
        .exclude(round__status=Round.Status.ANNULLED)
        .values_list("player", "warning", "discipline_warnings")
    )
    for player_id, warned, disciplinary in counted:
        earlier[player_id] += int(warned) + disciplinary
    given = Counter(
        Discipline.objects.filter(round_id__in={r.round_id for r in rulings}).values_list(
            "round_id", "player_id"
        )
    )
    mine: dict[int, list[Ruling]] = defaultdict(list)
    for r in rulings:  # in round order
        r.discipline_warnings = given[(r.round_id, r.player_id)]
        mine[r.player_id].append(r)
    for player_id, own in mine.items():
        seen = earlier.get(player_id, 0)
        counts = [seen] + [int(r.warning) + r.discipline_warnings for r in own]
        for r, penalty in zip(own, warning_penalties(counts, policy)[1:], strict=True):
            r.warning_penalty = penalty
