"""The progress of a job in the background, as its page reads it: the one way a job writes how far
it got (a word list's compile, an export's workbook).

Only the progress is shared. The two jobs are otherwise different things, kept apart on purpose:
a word list is content-addressed, shared by every event that plays it and kept for good, its
compile claimed once and never again (a killed compile is found by its heartbeat and marked
failed: it may have died of its memory ceiling, and would again); an export is one request's
file, claimed again when it has run too long (``STALE_AFTER``), with no heartbeat. Their
statuses (compiling/ready, running/done) are what their pages and the API say.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet


def progress_report(rows: QuerySet[Any], *, percent: float, message: str) -> int:
    """Write ``percent`` (kept within 0-100) and ``message`` (cut to its column) on the job
    ``rows`` selects (the caller's filter says which state may still report); how many rows
    were written. The rows' model has ``progress`` and ``message`` columns."""
    column = rows.model._meta.get_field("message")
    limit = getattr(column, "max_length", None)
    return rows.update(progress=min(100, max(0, int(percent))), message=str(message)[:limit])
