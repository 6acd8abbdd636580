"""The tournament's tables, one module per aggregate.

- ``event``: Event (with its rules policy) and EventRole (who directs or arbitrates it)
- ``player``: Player, a registration in an event with its secret access token
- ``game``: Game and its Rounds
- ``slip``: Submission (a player's slip) and Ruling (the arbiter's decision on it)
- ``discipline``: Discipline, a warning given to a player for a round, not for a slip
- ``audit``: AuditEntry, the append-only log of director and arbiter actions
- ``export``: ExportJob, a workbook written in the background
- ``invitation``: Invitation, a director's one-time link that makes someone staff of an event
- ``multiplex``: RoomKey and RoomReceipt (a multiplex's host), MultiplexLink and
  MultiplexOutbox (a remote room following a host)
- ``wordlist``: WordList, a word list a director uploaded, compiled once in a worker
- ``training``: TrainingAttempt and TrainingSlip (a game replayed alone), Season (a club's
  nights ranked together)

Constraints live in the database (``Meta.constraints``); row-local facts are methods that
run no query.
"""

from __future__ import annotations

from tournament.models.audit import AuditEntry
from tournament.models.discipline import Discipline
from tournament.models.event import Event, EventRole
from tournament.models.export import ExportJob
from tournament.models.game import Game, Round
from tournament.models.invitation import Invitation
from tournament.models.multiplex import MultiplexLink, MultiplexOutbox, RoomKey, RoomReceipt
from tournament.models.player import LicenceConfirmation, Player
from tournament.models.slip import Ruling, Submission
from tournament.models.training import Season, TrainingAttempt, TrainingSlip
from tournament.models.wordlist import WordList

__all__ = [
    "AuditEntry",
    "Discipline",
    "Event",
    "EventRole",
    "ExportJob",
    "Game",
    "Invitation",
    "LicenceConfirmation",
    "MultiplexLink",
    "MultiplexOutbox",
    "Player",
    "RoomKey",
    "RoomReceipt",
    "Round",
    "Ruling",
    "Season",
    "Submission",
    "TrainingAttempt",
    "TrainingSlip",
    "WordList",
]
