"""The arbitration: the rules of ruling a slip (``rules``, pure), the round lifecycle as
services (``services``: racks, clock, scoring, publishing, corrections, slips), the reads the
faces show (``selectors``: console, phones, standings), the bridge from stored rows to the
engine (``state``), and the Celery tasks that run the services (``tasks``).

It imports ``tournament`` and ``engine``; only ``web`` imports it.
"""
