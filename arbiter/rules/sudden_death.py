"""Mort subite (FISF 2023, 3.8.3, with 5.9's last rule for its penalties), as pure functions.

3.8.3: « le(s) joueur(s) qui joue(nt) un coup inférieur en points à la solution maximale
trouvée par au moins un autre joueur est (sont) éliminé(s). Le temps de jeu diminue
progressivement : trois coups en 1 min + 20 s ; trois coups en 40 s + 20 s ; X coups en 20 s
+ 20 s. » 5.9: « En compétition « Mort Subite », toute pénalité est appliquée sur le coup
concerné, entraînant l'élimination du joueur si son score devient inférieur à celui des
autres. »

- A round's score, for the elimination, is the ruling's points less its penalties (the
  5-point penalty and the warnings' penalty, both on the round they come from); the solo's
  bonus (3.5) is not a move's points and does not count (*decision*).
- Among the players still in at a round, those whose score is below the best of them are out
  at that round; those equal to the best stay (ties: everybody at the best stays, so a round
  where every player still in scores the same, zero included, eliminates nobody). A player
  with no ruling in the round scored 0.
- The time: rounds 1-3 80 s (1 min to find, 20 s to write), 4-6 60 s, then 40 s: one clock of
  the sum (*decision*: the text's « + 20 s » is the time to write the slip, which the room's
  clock does not split).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

# (rounds, seconds to find, seconds to write), then the rest at the last line's times.
SCHEDULE = ((3, 60, 20), (3, 40, 20))
LAST = (20, 20)


def sudden_death_seconds(round_number: int) -> int:
    """The time of round ``round_number`` (from 1) of a mort subite game, in seconds."""
    first = 1
    for count, find, write in SCHEDULE:
        if round_number < first + count:
            return find + write
        first += count
    return LAST[0] + LAST[1]


def eliminations(
    players: Iterable[int], rounds: Sequence[tuple[int, Mapping[int, int]]]
) -> dict[int, int]:
    """{player: the number of the round they were eliminated at} for the players out;
    ``rounds`` holds each round's number and each player's score in it (points less
    penalties; absent: 0), in the order played. Players not in the result are still in."""
    everyone = list(players)
    out: dict[int, int] = {}
    for number, scores in rounds:
        still = [p for p in everyone if p not in out]
        if not still:
            break
        best = max(scores.get(p, 0) for p in still)
        for p in still:
            if scores.get(p, 0) < best:
                out[p] = number
    return out


def elimination_score(*, points: int, penalty: int, warning_penalty: int) -> int:
    """A round's score for the elimination: the move's points less the round's penalties."""
    return points - penalty - warning_penalty


__all__ = ["LAST", "SCHEDULE", "eliminations", "elimination_score", "sudden_death_seconds"]
