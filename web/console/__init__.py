"""The director's console and the arbiters' slip entry: the events, the set-up, a game's
console (its actions also serve the staff API), the moves of a round, the audit log."""
