"""A rules-exact duplicate Scrabble engine in pure Python (no Django, Celery or database).

Each concept lives in its own module (see engine/README.md) and is imported from there, e.g.
``from engine.lexicon import Lexicon``. The package itself imports nothing, so that
``python -m engine.lexicon`` runs its module once, without runpy's warning of a module
imported twice.
"""
