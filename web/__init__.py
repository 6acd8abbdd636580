"""The faces: the director's console and slip entry, the room's screen, the players' phones,
the v1 API, the Excel exports, the admin, and who may do what (``permissions``).

The top layer: it imports ``arbiter``, ``tournament`` and ``engine``; nothing imports it but
``config`` (the root URLs). Views parse, check the role, call one service or selector, render.
"""
