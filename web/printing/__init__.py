"""Paper: the game sheet, the results, the score cards, laid out for A4 by print style sheets."""
