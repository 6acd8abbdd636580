"""Eliot's XML save game (``<EliotGame format="2">``), read and written, with no I/O
(docs/interchange.md, section 1): the values (``engine.eliot.model``), the reader
(``engine.eliot.reader``), the writer (``engine.eliot.writer``); each is imported from its own
module."""
