"""What a game's rulings derive, article by article: the solo (FISF 2023 3.5), the warnings'
penalty (5.9), the average given after a repeated invalid word (5.9), and the tie-break of
equal totals (rules.md case 22). Each says what ``before-2023`` does differently.

Pure: the services (``arbiter.services.rulings``, ``arbiter.selectors.standings``) read the
rulings, call these, and write what they derive.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from arbiter.rules.rulebook import Policy


def solo_winner(
    policy: Policy,
    active_players: int,
    *,
    finders: Iterable[int] = (),
    scores: Mapping[int, int] | None = None,
) -> int | None:
    """The one player (an id) credited with a round's solo bonus, when at least
    ``solo_min_players`` play the game (those who handed in a slip in it).

    FISF 2023, 3.5: "Est crédité d'un solo tout joueur, dont le mot sur un coup donné réalise
    un score supérieur à celui de tous les autres joueurs, même si sa solution est inférieure à
    celle effectivement retenue par le juge-arbitre. Les scores sont comparés avant application
    éventuelle d'une pénalité de 5 points. Si le nombre de joueurs est au moins de seize,
    l'auteur d'un solo bénéficie d'une bonification de 10 points." ``scores``: each player's
    score on the round before the 5-point penalty (a move on the board's points; nothing for a
    zero or an average). The one highest above every other, when above zero.

    before-2023 (rules.md rule 9): the one player among ``finders`` (those who found the top).
    """
    if active_players < policy.solo_min_players:
        return None
    if not policy.fisf_2023:
        found = list(finders)
        return found[0] if len(found) == 1 else None
    ranked = sorted((scores or {}).items(), key=lambda item: item[1], reverse=True)
    if not ranked or ranked[0][1] <= 0:
        return None
    if len(ranked) > 1 and ranked[1][1] == ranked[0][1]:
        return None
    return ranked[0][0]


def warning_penalties(warnings: Sequence[int], policy: Policy) -> list[int]:
    """One player's warnings in a game, round by round (how many in each: the slip's and the
    disciplinary ones, FISF 2023 5.8) -> the penalty of each round.

    FISF 2023, 5.9: "Pour chaque joueur, les avertissements sont comptabilisés. Au quatrième
    (sixième en blitz ou partie originale), il se voit retirer cinq points de pénalité. Il en
    va de même à chaque nouvel avertissement qui suit." (``Policy.free_warnings``.) The slip
    itself never holds more than one warning (5.8, the judge's ``one_warning``).
    before-2023: the event's free warnings whatever the game's time or formula."""
    penalties = []
    seen = 0
    free = policy.free_warnings
    for warned in warnings:
        cost = 0
        for _one in range(int(warned)):
            seen += 1
            if seen > free:
                cost += policy.warning_penalty
        penalties.append(cost)
    return penalties


def round_average(policy: Policy, others: Iterable[int], *, own_solution: int | None = None) -> int:
    """The points of a ruling averaged after a repeated invalid word.

    FISF 2023, 5.9, "Attribution d'une moyenne dans certains cas de zéros répétés": "la moyenne
    (arrondie au nombre entier immédiatement inférieur) des scores obtenus par tous les autres
    joueurs relevant de son arbitre (zéros inclus et autres cas de moyenne exclus) [...] Il ne
    peut en aucun cas marquer plus de points que sa solution proposée." ``others``: the other
    players' net scores of the round, their zeros included (the caller leaves the other
    averages out); ``own_solution``: what the player's own move would have scored, when known.

    before-2023 (rules.md rule 10): the mean of the others' nets, rounded down, uncapped (the
    caller leaves out the players with no slip)."""
    values = list(others)
    mean = sum(values) // len(values) if values else 0
    if policy.fisf_2023 and own_solution is not None:
        return max(0, min(mean, own_solution))
    return mean


def tie_break_key(last_game_rounds: Sequence[int]) -> tuple[int, ...]:
    """How a player's equal total is broken (rules.md case 22, the Québec federation's rule):
    the total of the last game played, then its rounds' totals from the last one backwards.
    ``last_game_rounds``: the player's total in each round of that game, in round order."""
    return (sum(last_game_rounds), *reversed(last_game_rounds))


def score_counts(scores: Iterable[int]) -> dict[int, int]:
    """How many legal placements there are at each score (what the judge ranks by)."""
    counts: dict[int, int] = {}
    for score in scores:
        counts[score] = counts.get(score, 0) + 1
    return counts
