"""The live channel: what changed reaches phones, projection screens, consoles and the rooms
page within a second, without their asking (docs/design.md, "Live updates").

- ``bus``: the services say what changed (``tournament.changes``); after each commit this
  process bumps the versions it changed (``store``) and tells every web process: one Redis
  PUBLISH (or, embedded without Redis, a datagram to the one web process).
- ``hub``: in each web process, one subscription, fanned out in the process to every connected
  client. What is the same for every phone (the round, the board) is rendered once per change
  and sent as the same bytes to all; what is each player's own (their slips, result and rank)
  is read once per change for the whole event and cut per phone.
- ``asgi``: the streams (Server-Sent Events) and the phones' state poll, answered before
  Django's middleware: a poll whose version has not moved costs a Redis read.
"""
