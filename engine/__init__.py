"""A rules-exact duplicate Scrabble engine in pure Python (no Django, Celery or database).

The public names are re-exported here; each concept lives in its own module:
tiles, board, move, notation, lexicon, crosses, movegen, scoring, draw, game.
"""
