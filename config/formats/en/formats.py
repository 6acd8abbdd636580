"""English date formats, on top of Django's: an event's date as ``Wed 25 Nov 2026``."""

DATE_FORMAT = "D j M Y"
