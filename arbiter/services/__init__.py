"""The arbitration's writes, one module per thing that changes together:

- ``racks``: draw, take from a pre-drawn game, or type in the rack of the next round
- ``clock``: open, extend, pause, resume, close early; the close at the deadline, the sweep
- ``scoring``: the tops, one ruling per player, the solo, the top to play
- ``publishing``: the top placed on the board, the director's choice of the move to play
- ``corrections``: annul a round, amend a ruling
- ``discipline``: a disciplinary warning given to a player for a round, or withdrawn
- ``slips``: accepting a slip (phone, API, an arbiter's entry), double entry
- ``common``: what they share (locking a round, checking its status, auditing)

Every function is keyword-only, atomic and audited (``arbiter.*``), and returns what it changed.
"""
