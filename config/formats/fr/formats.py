"""French date formats, on top of Django's: an event's date as ``mer. 25 nov. 2026`` (the day
and the month abbreviated with their dot; ``mai`` and ``juin`` keep none, as French writes
them)."""

DATE_FORMAT = r"D. j N Y"
