"""Events, players, games, rounds and slips: the tournament as stored, its pages and services."""
