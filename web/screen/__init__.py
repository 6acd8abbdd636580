"""The room's projection screen: board, rack, clock, then the top and the first places."""
