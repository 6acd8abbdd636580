"""Standings (reads): per game and per event, from the rulings of published rounds.

total = points + solos - penalties (``ruling_total``); the gap is the total minus the top's
total (the sum of the tops played), the percentage is the total over the top's total; equal
totals share a rank (1, 2, 2, 4), unless the event breaks ties (rules.md case 22: the last
game's total, then its rounds from the last backwards; still equal: a shared rank). A
category, a club, a series or an age category (any of them together: ``PlayerFilter``) is a
filter: ranks are then counted within it, the overall rank
kept beside. Amended rulings count as amended, so the standings follow every correction.
A withdrawn player stays in the standings with the points already earned, marked withdrawn.
A mort subite game's standings (FISF 2023 3.8.3) rank who is still in first, then those out
by the round they went out at, latest first, then by total; each row says its round out.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from django.core.cache import cache
from django.db.models import Count, Max, Q, QuerySet, Sum

from arbiter.rules import PLACED_CODES, solo_winner, tie_break_key
from arbiter.selectors.sudden_death import game_eliminations
from arbiter.state import formula_of, policy_for
from tournament.models import AuditEntry, Event, Game, Player, Round, Ruling, Submission
from tournament.models.choices import TieBreak
from tournament.vocabulary import name_key, ruling_total


@dataclass(frozen=True)
class PlayerFilter:
    """Who the standings show (None: anyone); ranks are counted among them."""

    category: str | None = None
    club: str | None = None
    series: int | None = None
    age_category: str | None = None

    def keeps(self, player: Player) -> bool:
        return (
            (self.category is None or player.category == self.category)
            and (self.club is None or player.club == self.club)
            and (self.series is None or player.series == self.series)
            and (self.age_category is None or player.age_category == self.age_category)
        )

    @property
    def is_empty(self) -> bool:
        return self == PlayerFilter()


@dataclass(frozen=True)
class StandingRow:
    rank: int
    overall_rank: int
    player_id: int
    name: str
    club: str
    category: str
    table: int | None
    points: int
    solos: int
    penalties: int
    warnings: int
    tops: int
    total: int
    gap: int
    top_pct: float
    withdrawn: bool = False  # the player withdrew: shown as such, with the points earned
    licence: str = ""
    series: int | None = None
    age_category: str = ""
    room: str = ""  # a simultaneous event's standings: the player's room
    rounds: int = 0  # ... and how many rounds of it count (what the room has published)
    tie: tuple[int, ...] = ()  # what breaks an equal total (rules.md case 22); () shares it
    # Mort subite (3.8.3): the round the player was eliminated at; None while still in
    eliminated_at: int | None = None

    @property
    def order(self) -> tuple[int, ...]:
        """What ranks the row (as ``_Entry.order``): equal orders share a rank."""
        return (_survival(self.eliminated_at), self.total, *self.tie)


def _survival(eliminated_at: int | None) -> int:
    """Mort subite's first key: the later a player went out, the better; still in, best."""
    return STILL_IN if eliminated_at is None else eliminated_at


STILL_IN = 1_000_000  # above any round number


@dataclass(frozen=True)
class Standings:
    top_total: int
    rounds: int
    rows: list[StandingRow]
    sudden_death: bool = False  # a mort subite game's: who is still in, who went out when

    @property
    def still_in(self) -> int:
        """How many players are still in (a mort subite game's standings)."""
        return sum(1 for r in self.rows if r.eliminated_at is None)

    def row_of(self, player_id: int) -> StandingRow | None:
        return next((r for r in self.rows if r.player_id == player_id), None)


def _ranked(totals: list[tuple[tuple[int, ...], Player]]) -> list[int]:
    """Ranks of players in standings order, by (total, tie-break): equal ones share a rank."""
    ranks: list[int] = []
    for i, (total, _) in enumerate(totals):
        ranks.append(ranks[i - 1] if i and totals[i - 1][0] == total else i + 1)
    return ranks


@dataclass(frozen=True)
class _Entry:
    """One player's sums over the rounds counted, before ranking."""

    player: Player
    points: int
    solos: int
    penalties: int  # the reference penalties and the warnings' penalties
    warnings: int
    tops: int
    top_total: int  # the sum of the tops played in the rounds counted for this player
    room: str = ""
    rounds: int = 0
    tie: tuple[int, ...] = ()
    eliminated_at: int | None = None  # mort subite: out at this round (None: still in)

    @property
    def order(self) -> tuple[int, ...]:
        """What ranks the entry: in mort subite who stayed in longest first (3.8.3: the last
        one in wins), then its total, then what breaks a tie."""
        return (_survival(self.eliminated_at), self.total, *self.tie)

    @property
    def total(self) -> int:
        return ruling_total(
            points=self.points, solo=self.solos, penalty=self.penalties, warning_penalty=0
        )


def _sums(rulings: QuerySet[Ruling]) -> dict[int, dict[str, int]]:
    """{player id: the sums of their rulings}."""
    return {
        row["player"]: row
        for row in rulings.values("player").annotate(
            points=Sum("points"),
            solos=Sum("solo"),
            penalties=Sum("penalty"),
            warning_penalties=Sum("warning_penalty"),
            warnings=Count("pk", filter=Q(warning=True)),
            disciplinary=Sum("discipline_warnings"),
            tops=Count("pk", filter=Q(found_top=True)),
        )
    }


def _entry(player: Player, s: dict[str, int], top_total: int, **more: Any) -> _Entry:
    return _Entry(
        player=player,
        points=s.get("points") or 0,
        solos=s.get("solos") or 0,
        penalties=(s.get("penalties") or 0) + (s.get("warning_penalties") or 0),
        warnings=(s.get("warnings") or 0) + (s.get("disciplinary") or 0),
        tops=s.get("tops") or 0,
        top_total=top_total,
        **more,
    )


def _ranking(entries: list[_Entry], shown_only: PlayerFilter) -> list[StandingRow]:
    """The entries ranked by total (equal totals share a rank), the shown ones ranked again
    among themselves with the overall rank kept."""
    everyone = sorted(
        entries,
        key=lambda e: (tuple(-x for x in e.order), name_key(e.player.name), e.player.pk),
    )
    totals = [(e.order, e.player) for e in everyone]
    overall = dict(zip((e.player.pk for e in everyone), _ranked(totals), strict=True))
    shown = [e for e in everyone if shown_only.keeps(e.player)]
    rows = []
    for rank, e in zip(_ranked([(e.order, e.player) for e in shown]), shown, strict=True):
        p = e.player
        rows.append(
            StandingRow(
                rank=rank,
                overall_rank=overall[p.pk],
                player_id=p.pk,
                name=p.name,
                club=p.club,
                category=p.category,
                table=p.table,
                points=e.points,
                solos=e.solos,
                penalties=e.penalties,
                warnings=e.warnings,
                tops=e.tops,
                total=e.total,
                gap=e.total - e.top_total,
                top_pct=round(100.0 * e.total / e.top_total, 2) if e.top_total else 0.0,
                withdrawn=p.withdrawn_at is not None,
                licence=p.licence,
                series=p.series,
                age_category=p.age_category,
                room=e.room,
                rounds=e.rounds,
                tie=e.tie,
                eliminated_at=e.eliminated_at,
            )
        )
    return rows


def _standings(
    players: QuerySet[Player],
    rulings: QuerySet[Ruling],
    rounds: QuerySet[Round],
    shown_only: PlayerFilter,
    tie_break: str = TieBreak.SHARED,
    eliminated: dict[int, int] | None = None,
) -> Standings:
    sums = _sums(rulings)
    top_total = rounds.aggregate(t=Sum("played_score"))["t"] or 0
    ties = _ties(rulings, rounds) if tie_break == TieBreak.LAST_GAME else {}
    out = eliminated or {}
    entries = [
        _entry(
            p, sums.get(p.pk, {}), top_total, tie=ties.get(p.pk, ()), eliminated_at=out.get(p.pk)
        )
        for p in players
    ]
    return Standings(
        top_total=top_total,
        rounds=rounds.count(),
        rows=_ranking(entries, shown_only),
        sudden_death=eliminated is not None,
    )


def _ties(rulings: QuerySet[Ruling], rounds: QuerySet[Round]) -> dict[int, tuple[int, ...]]:
    """{player id: their tie-break key} (``tie_break_key``): the last game with a round counted,
    each player's total in each of its rounds (0 where they have no ruling)."""
    last = rounds.aggregate(n=Max("game__number"))["n"]
    if last is None:
        return {}
    numbers = sorted(rounds.filter(game__number=last).values_list("number", flat=True))
    per_round: dict[int, dict[int, int]] = {}
    rows = rulings.filter(round__game__number=last).values_list(
        "player_id", "round__number", "points", "solo", "penalty", "warning_penalty"
    )
    for player_id, number, points, solo, penalty, warned in rows:
        per_round.setdefault(player_id, {})[number] = ruling_total(
            points=points, solo=solo, penalty=penalty, warning_penalty=warned
        )
    return {
        player_id: tie_break_key([mine.get(n, 0) for n in numbers])
        for player_id, mine in per_round.items()
    }


def ranks_within(
    standings: Standings, group: Callable[[StandingRow], object | None]
) -> dict[int, int]:
    """{player id: rank among the players of the same group} (a series, an age category, a
    club: ``group`` gives it; None leaves the player out), equal totals sharing a rank as in
    the standings themselves."""
    groups: dict[object, list[StandingRow]] = {}
    for row in standings.rows:
        key = group(row)
        if key is not None:
            groups.setdefault(key, []).append(row)
    ranks: dict[int, int] = {}
    for rows in groups.values():
        previous: StandingRow | None = None
        for i, row in enumerate(rows):  # the rows are in standings order: best first
            same = previous is not None and previous.order == row.order
            ranks[row.player_id] = ranks[previous.player_id] if same and previous else i + 1
            previous = row
    return ranks


def standings_game(
    *, game: Game, category: str | None = None, only: PlayerFilter | None = None
) -> Standings:
    published = Round.objects.filter(game=game, status=Round.Status.PUBLISHED)
    rulings = Ruling.objects.filter(round__in=published)
    shown = _filter(category, only)
    players = Player.objects.filter(event_id=game.event_id)
    eliminated = game_eliminations(game=game) if formula_of(game).sudden_death else None
    return _standings(players, rulings, published, shown, game.event.tie_break, eliminated)


def standings_event(
    *, event: Event, category: str | None = None, only: PlayerFilter | None = None
) -> Standings:
    published = Round.objects.filter(game__event=event, status=Round.Status.PUBLISHED)
    rulings = Ruling.objects.filter(round__in=published)
    shown = _filter(category, only)
    return _standings(
        Player.objects.filter(event=event), rulings, published, shown, event.tie_break
    )


def _filter(category: str | None, only: PlayerFilter | None) -> PlayerFilter:
    only = only or PlayerFilter()
    if category is not None:
        only = PlayerFilter(category, only.club, only.series, only.age_category)
    return only


def standings_simultaneous(
    *, host: Event, only: PlayerFilter | None = None, common: bool = False
) -> Standings:
    """One ranking of every room of a simultaneous event (the host and its rooms), live: each
    player's rulings over the rounds their room has published (with ``common``, only the
    rounds every room with players has published, so that everyone is counted on the same
    rounds). The tops are the same in every room, so a player's gap and percentage are to the
    tops of the rounds that count for them. A solo is counted over the whole field: the one
    player of all the rooms who found the top, when the rooms' players who play the game are
    enough (the host's ``solo_min_players``); a room's own standings keep its own solos."""
    events = {host.pk: host, **{room.pk: room for room in host.rooms.order_by("pk")}}
    published = list(
        Round.objects.filter(game__event_id__in=events, status=Round.Status.PUBLISHED).values(
            "pk", "game__event_id", "game__number", "number", "played_score"
        )
    )
    peopled = set(
        Player.objects.filter(event_id__in=events).values_list("event_id", flat=True).distinct()
    )
    if common:
        by_event: dict[int, set[tuple[int, int]]] = {pk: set() for pk in peopled}
        for r in published:
            if r["game__event_id"] in by_event:  # a room without players holds back nothing
                by_event[r["game__event_id"]].add((r["game__number"], r["number"]))
        everywhere = set.intersection(*by_event.values()) if by_event else set()
        published = [r for r in published if (r["game__number"], r["number"]) in everywhere]
    counted = [r["pk"] for r in published]
    top_total: dict[int, int] = {pk: 0 for pk in events}
    rounds: dict[int, int] = {pk: 0 for pk in events}
    for r in published:
        top_total[r["game__event_id"]] += r["played_score"] or 0
        rounds[r["game__event_id"]] += 1
    rulings = Ruling.objects.filter(round_id__in=counted)
    sums = _sums(rulings)
    solos = _field_solos(host, events, rulings)
    entries = []
    for p in Player.objects.filter(event_id__in=events):
        s = {**sums.get(p.pk, {}), "solos": solos.get(p.pk, 0)}
        event = events[p.event_id]
        entries.append(
            _entry(p, s, top_total[p.event_id], room=event.name, rounds=rounds[p.event_id])
        )
    best = max(top_total.values(), default=0)
    return Standings(
        top_total=best,
        rounds=max(rounds.values(), default=0),
        rows=_ranking(entries, only or PlayerFilter()),
    )


def _field_solos(
    host: Event, events: dict[int, Event], rulings: QuerySet[Ruling]
) -> dict[int, int]:
    """{player id: solo points} with every room's finders of a round together (rules.md's solo
    over the simultaneous's whole field); the players who play a game are those of every room
    who handed in a slip in it."""
    policy = policy_for(host)
    active = Counter(
        number
        for number, _ in Submission.objects.filter(round__game__event_id__in=list(events))
        .exclude(round__status=Round.Status.ANNULLED)
        .values_list("round__game__number", "player")
        .order_by()  # a default ordering would be part of the DISTINCT
        .distinct()
    )
    finders: dict[tuple[int, int], list[int]] = {}
    scores: dict[tuple[int, int], dict[int, int]] = {}
    placed = Q(code__in=PLACED_CODES, averaged=False)
    decides = placed if policy.fisf_2023 else Q(found_top=True)
    for player, game, number, found, code, points, averaged in rulings.filter(decides).values_list(
        "player", "round__game__number", "round__number", "found_top", "code", "points", "averaged"
    ):
        if found:
            finders.setdefault((game, number), []).append(player)
        if code in PLACED_CODES and not averaged:
            scores.setdefault((game, number), {})[player] = points
    solos: dict[int, int] = {}
    for game, number in set(finders) | set(scores):
        winner = solo_winner(
            policy,
            active[game],
            finders=finders.get((game, number), ()),
            scores=scores.get((game, number), {}),
        )
        if winner is not None:
            solos[winner] = solos.get(winner, 0) + policy.solo_bonus
    return solos


LIVE_SECONDS = 10  # how stale the live ranking may be, at most, for what no version tells


def standings_simultaneous_live(
    *, host: Event, only: PlayerFilter | None = None, common: bool = False
) -> Standings:
    """``standings_simultaneous`` for the pages and screens that poll it: computed again when
    the simultaneous's audit log has a new entry (every scoring, publication, amendment, slip
    typed after the scoring, player change and import writes one), and kept ``LIVE_SECONDS``
    at most (what the log does not record, as a phone slip ruled after the scoring, shows
    within that time)."""
    events = [host.pk, *host.rooms.values_list("pk", flat=True)]
    version = AuditEntry.objects.filter(event_id__in=events).aggregate(last=Max("pk"))["last"]
    key = "ranking:" + hashlib.sha256(repr((events, only, common, version)).encode()).hexdigest()
    standings = cache.get(key)
    if standings is None:
        standings = standings_simultaneous(host=host, only=only, common=common)
        cache.set(key, standings, LIVE_SECONDS)
    return cast(Standings, standings)
