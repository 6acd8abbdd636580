"""A rehearsal: an event played through the arbitration's services by simulated players.

Each simulated player has a skill; every round it hands in (on its phone) the top, or a lesser
legal move, sometimes with a wrong announced score, a wrong reference or a misspelt word; some
slips come too late (refused on the server clock), some never come, and some are paper slips an
arbiter enters late. The clock is simulated: a round's deadline passes without waiting for it,
so an event of many rounds plays in seconds, and the same seed gives the same event.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

from arbiter import tasks
from arbiter.selectors.standings import standings_event
from arbiter.services import clock, publishing, racks, scoring
from arbiter.services.slips import SlipRefused, slip_submit
from arbiter.state import board_of, formula_of, lexicon_for
from engine.movegen import ScoredMove, generate
from engine.notation import Direction, format_ref
from engine.tiles import TileSet
from tournament.models import Event, Game, Player, Round, Ruling, Submission
from tournament.services.events import event_create
from tournament.services.games import game_create
from tournament.services.players import player_register
from tournament.vocabulary import POLICY_DEFAULTS

FIRST_NAMES = [
    "Ada",
    "Basile",
    "Chloé",
    "Dmitri",
    "Elif",
    "Farid",
    "Gwen",
    "Hugo",
    "Ines",
    "Jonas",
    "Kiri",
    "Léa",
    "Mateo",
    "Nora",
    "Oskar",
    "Priya",
]
CLUBS = ["Lyon Duplicate", "Liège Scrabble", "Montréal Club", "Genève Mots", "Dakar Lettres"]


@dataclass(frozen=True)
class Mix:
    """How often each kind of slip happens (per player and round)."""

    missing: float = 0.04
    late: float = 0.03
    wrong_score: float = 0.08
    wrong_ref: float = 0.04
    invalid_word: float = 0.04


def _misspelt(move: ScoredMove, rng: random.Random) -> str:
    """The word with two letters swapped (same tiles, most likely not a word)."""
    word = list(move.word)
    if len(word) >= 3:
        i = rng.randrange(len(word) - 1)
        word[i], word[i + 1] = word[i + 1], word[i]
    return "".join(word)


def _wrong_ref(move: ScoredMove) -> str:
    m = move.move
    row, col = m.row, m.col
    if m.direction is Direction.ACROSS:
        return format_ref(row, col, Direction.DOWN)  # the classic slip: the direction swapped
    return format_ref(row, min(col + 1, 14), m.direction)


def _slip_for(
    moves: list[ScoredMove], skill: float, mix: Mix, rng: random.Random
) -> tuple[str, str, int | None]:
    """(word, ref, announced score) for one simulated player."""
    if rng.random() < skill or len(moves) == 1:
        move = moves[0]
    else:
        move = moves[min(len(moves) - 1, int(rng.expovariate(1 / 6)) + 1)]
    word, ref, score = move.word, move.ref, move.score
    roll = rng.random()
    if roll < mix.wrong_score:
        score = max(0, score + rng.choice([-10, -3, -2, 2, 3, 10]))
    elif roll < mix.wrong_score + mix.wrong_ref:
        ref = _wrong_ref(move)
    elif roll < mix.wrong_score + mix.wrong_ref + mix.invalid_word:
        word = _misspelt(move, rng)
    return word, ref, score


def simulate_event(
    *,
    players: int,
    games: int,
    seed: int,
    round_seconds: int = POLICY_DEFAULTS.round_seconds,
    mix: Mix | None = None,
    start: dt.datetime | None = None,
    rulebook: str = "fisf-2023",
) -> dict[str, Any]:
    """Create an event, play it, and return a summary (what ``simulate_event --json`` prints)."""
    if players < 1 or games < 1:
        raise ValueError("an event needs at least one player and one game")
    mix = mix or Mix()
    rng = random.Random(seed)
    began = time.perf_counter()
    now = start or timezone.now().replace(microsecond=0)
    arbiter, _ = get_user_model().objects.get_or_create(username="simulated-arbiter")
    event = event_create(
        name=f"Rehearsal {seed} ({players} players)",
        starts_on=now.date(),
        actor=None,
        round_seconds=round_seconds,
        rulebook=rulebook,
    )
    roster = [
        player_register(
            event=event,
            name=f"{FIRST_NAMES[i % len(FIRST_NAMES)]} {i + 1}",
            club=CLUBS[i % len(CLUBS)],
            category=("S1", "S2", "S3")[i % 3],
            table=i + 1,
            actor=None,
        )
        for i in range(players)
    ]
    skills = {p.pk: rng.uniform(0.15, 0.85) for p in roster}
    refused: Counter[str] = Counter()
    rounds_played = 0
    for _ in range(games):
        game = game_create(event=event, actor=None, seed=rng.randrange(2**32))
        while game.status != Game.Status.FINISHED:
            drawn = racks.round_draw(game=game, actor=None)
            if drawn is None:
                break
            opened = clock.round_open(round=drawn, actor=None, now=now)
            tasks.round_tops_compute(opened.pk)  # what the tops queue does while the clock runs
            _play_round(opened, roster, skills, mix, rng, now, arbiter, refused)
            closes_at = opened.closes_at(grace=event.grace)
            assert closes_at is not None
            now = closes_at
            clock.round_close(round_id=opened.pk, now=now)  # what the countdown task does
            scored = scoring.round_score(round_id=opened.pk, now=now)
            assert scored is not None
            publishing.round_publish(round=scored, actor=arbiter, now=now)
            rounds_played += 1
            now += dt.timedelta(seconds=30)
            game.refresh_from_db()
    return _summary(event, rounds_played, refused, time.perf_counter() - began)


def _play_round(
    round: Round,
    roster: list[Player],
    skills: dict[int, float],
    mix: Mix,
    rng: random.Random,
    now: dt.datetime,
    arbiter: Any,
    refused: Counter[str],
) -> None:
    game = round.game
    moves = generate(
        board_of(game),
        round.rack,
        lexicon_for(game.lexicon),
        TileSet.load(game.tile_set),
        formula=formula_of(game),
    )
    if not moves:
        return
    assert round.deadline is not None
    seconds = (round.deadline - now).total_seconds()
    for player in roster:
        roll = rng.random()
        if roll < mix.missing:
            continue
        word, ref, score = _slip_for(moves, skills[player.pk], mix, rng)
        late_paper = roll < mix.missing + mix.late / 2
        late_phone = not late_paper and roll < mix.missing + mix.late
        try:
            if late_paper:
                slip_submit(
                    player=player,
                    round=round,
                    word=word,
                    ref=ref,
                    score=score,
                    at=round.deadline + dt.timedelta(seconds=40),
                    source=Submission.Source.ARBITER,
                    entered_by=arbiter,
                    late=True,
                )
            else:
                at = (
                    round.deadline + dt.timedelta(seconds=30)
                    if late_phone
                    else now + dt.timedelta(seconds=rng.uniform(5, seconds - 1))
                )
                slip_submit(player=player, round=round, word=word, ref=ref, score=score, at=at)
        except SlipRefused as exc:
            refused[str(exc.code or "refused")] += 1


def _summary(
    event: Event, rounds_played: int, refused: Counter[str], seconds: float
) -> dict[str, Any]:
    standings = standings_event(event=event)
    winner = standings.rows[0] if standings.rows else None
    codes = Counter(
        Ruling.objects.filter(
            round__game__event=event, round__status=Round.Status.PUBLISHED
        ).values_list("code", flat=True)
    )
    return {
        "event": event.pk,
        "slug": event.slug,
        "players": event.players.count(),
        "games": Game.objects.filter(event=event).count(),
        "rounds": rounds_played,
        "top_total": standings.top_total,
        "winner": None
        if winner is None
        else {"name": winner.name, "total": winner.total, "top_pct": winner.top_pct},
        "rulings": dict(sorted(codes.items())),
        "refused_slips": dict(sorted(refused.items())),
        "seconds": round(seconds, 2),
    }
