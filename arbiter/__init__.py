"""The arbitration: the round lifecycle (draw, open, close, rule each slip, choose the top,
publish) as services in ``arbiter.services``, and the Celery tasks that run them.

Empty for now: the round lifecycle arrives in a later issue. Its models (Round, Submission,
Ruling) live in ``tournament.models``; the rules of arbitration will live here and in the
engine, nowhere else.
"""
