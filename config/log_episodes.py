"""One log line per episode of a fault, not one per request (issue 34: a 10 s database outage
wrote 1,223 error lines though no phone got a 503).

``OneLinePerEpisode`` is a filter on the console handler (``LOGGING`` in config/settings.py):
a warning or an error is written the first time it comes; the same one again (the same logger,
level, message template and exception type; for Django's request log the same reason, whatever
the path) is counted, not written, until ``quiet`` seconds pass without it (the episode is
over: the next one is written at once, saying how many the last episode held) or, while it
goes on, once every ``every`` seconds with the count since the last line. Lines under WARNING
(the access log, a task received) are not touched.
"""

from __future__ import annotations

import logging
import threading
import time

QUIET_SECONDS = 30.0
EVERY_SECONDS = 60.0
KEYS_KEPT = 1000


class OneLinePerEpisode(logging.Filter):
    def __init__(self, quiet: float = QUIET_SECONDS, every: float = EVERY_SECONDS) -> None:
        super().__init__()
        self.quiet = quiet
        self.every = every
        # key -> (when last seen, when last written, how many not written since)
        self.seen: dict[tuple[object, ...], tuple[float, float, int]] = {}
        self.lock = threading.Lock()

    @staticmethod
    def key(record: logging.LogRecord) -> tuple[object, ...]:
        exc = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""
        reason = ""
        if record.name == "django.request" and isinstance(record.args, tuple) and record.args:
            reason = str(record.args[0])  # "Service Unavailable: /any/path": the reason counts
        return (record.name, record.levelno, str(record.msg), exc, reason)

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        key = self.key(record)
        now = time.monotonic()
        with self.lock:
            seen = self.seen.get(key)
            if seen is None:
                if len(self.seen) >= KEYS_KEPT:  # keep only the keys of episodes going on
                    self.seen = {k: v for k, v in self.seen.items() if now - v[0] < self.quiet}
                self.seen[key] = (now, now, 0)
                return True
            last_seen, last_written, skipped = seen
            if now - last_seen >= self.quiet:  # a new episode
                self.seen[key] = (now, now, 0)
                if skipped:
                    self._note(record, f"(a new episode; the last one held {skipped} more)")
                return True
            if now - last_written >= self.every:  # still going on: once a minute
                self.seen[key] = (now, now, 0)
                self._note(record, f"(still happening: {skipped} more since the last line)")
                return True
            self.seen[key] = (now, last_written, skipped + 1)
            return False

    @staticmethod
    def _note(record: logging.LogRecord, note: str) -> None:
        record.msg = f"{record.msg} {note.replace('%', '%%') if record.args else note}"


class RefusalsCounted(logging.Filter):
    """On the access log (uvicorn's ``uvicorn.access``, whose record's arguments are the
    client, method, path, HTTP version and status): the answers 429, a limit's refusals, are
    counted, not written one by one (issue 34: one client opening 60,000 streams must not
    write a line per refusal). The first is written at once; then at most one line every
    ``every`` seconds, saying how many were refused since the last line. Every other answer
    is written as it comes."""

    STATUS = 429

    def __init__(self, every: float = EVERY_SECONDS) -> None:
        super().__init__()
        self.every = every
        self.last_written: float | None = None
        self.skipped = 0
        self.lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if not (isinstance(args, tuple) and len(args) == 5 and args[4] == self.STATUS):
            return True
        now = time.monotonic()
        with self.lock:
            if self.last_written is not None and now - self.last_written < self.every:
                self.skipped += 1
                return False
            skipped, self.skipped, self.last_written = self.skipped, 0, now
        if skipped:
            record.msg = f"{record.msg} (and {skipped} more answered 429 since the last line)"
        return True
