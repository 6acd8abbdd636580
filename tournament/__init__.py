"""The tournament as stored: the models (events, players, games, rounds, slips, rulings, the
audit log, export jobs), the services that write them, the selectors that read them, the
domain's errors and its Django-free vocabulary (ruling codes, a slip's total).

It imports only ``engine``; ``arbiter`` and ``web`` build on it.
"""
