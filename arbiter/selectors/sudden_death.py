"""Who is still in a mort subite game (FISF 2023, 3.8.3; ``arbiter.rules.sudden_death``), read
from the rulings, so that every correction of a ruling moves the eliminations with it."""

from __future__ import annotations

from arbiter.rules.sudden_death import elimination_score, eliminations
from arbiter.state import formula_of
from tournament.models import Game, Player, Round, Ruling


def game_eliminations(
    *, game: Game, published_only: bool = True, before: int | None = None
) -> dict[int, int]:
    """{player id: the round they were eliminated at} of a mort subite game ({} for any other
    formula): over its published rounds (``published_only``, what the room has been told), or
    every round already scored too (the slips' refusal), and only those numbered below
    ``before`` when given."""
    if not formula_of(game).sudden_death:
        return {}
    statuses = (
        (Round.Status.PUBLISHED,)
        if published_only
        else (Round.Status.SCORED, Round.Status.PUBLISHED)
    )
    rounds = Round.objects.filter(game=game, status__in=statuses)
    if before is not None:
        rounds = rounds.filter(number__lt=before)
    numbers = list(rounds.order_by("number").values_list("number", flat=True))
    scores: dict[int, dict[int, int]] = {n: {} for n in numbers}
    for number, player, points, penalty, warned in Ruling.objects.filter(
        round__in=rounds
    ).values_list("round__number", "player_id", "points", "penalty", "warning_penalty"):
        scores[number][player] = elimination_score(
            points=points, penalty=penalty, warning_penalty=warned
        )
    players = Player.objects.filter(event_id=game.event_id).values_list("pk", flat=True)
    return eliminations(players, [(n, scores[n]) for n in numbers])
