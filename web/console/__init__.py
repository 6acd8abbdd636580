"""The director's console, the arbiters' slip entry and the room's projection screen."""
