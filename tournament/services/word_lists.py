"""Word lists directors upload: checked and stored at once, compiled once in a worker.

``word_list_upload`` reads the file in the request (so a bad line is named to the director
right away: not UTF-8, empty, too large, a line that is not a word of the event's tiles), keeps
the bytes under ``word_lists_dir()`` named by their SHA-256, and queues
``tournament.word_list_compile`` once the transaction commits. The same content uploaded again
for the same tile set is the same row: nothing is stored or compiled twice.

Before anything is kept, the compile's memory is estimated (``engine.lexicon.compile_estimate``)
and a list that would need more than ``settings.WORD_LIST_MEMORY_MB`` is refused, the figure
said (``word_list_too_large_to_compile``).

``word_list_compile`` (what the task calls, in the ``wordlists`` worker) claims the row with a
conditional UPDATE (queued -> compiling: a second delivery finds nothing to claim), compiles the
list into the engine's disk cache under a memory ceiling (``WORD_LIST_CEILING_MB``, the
process's address space) reporting its progress and a heartbeat in the row, and marks it ready
with its word count, or failed with the reason: the list itself, out of memory, out of time.
A compile that dies with its process (killed, its machine gone) is marked failed too: by the
worker's parent when it sees its child lost (``word_list_compile_lost``), else by any worker's
watch once its heartbeat is ``WORD_LIST_SILENT_SECONDS`` old (``word_lists_reap``). A
compile is never run again by itself: the same file uploaded again queues a failed list anew.
The engine's cache is keyed by the content, so lists of the same content share one compile, and
the web processes then load it from the disk in well under a second.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import os
import resource
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from engine.errors import LexiconError, WordListError
from engine.lexicon import Lexicon, compile_estimate
from engine.lists import BUILTIN
from engine.tiles import TileSet as EngineTileSet
from engine.wordlist import read_list
from tournament.errors import ApplicationError
from tournament.models import WordList
from tournament.models.choices import TileSet
from tournament.models.wordlist import word_lists_dir
from tournament.services.progress import progress_report

log = logging.getLogger(__name__)

NAME_MAX = 100
MB = 1024 * 1024

# The engine's steps of a compile (engine.lexicon's progress), as the page says them.
STEPS = {
    "building the list": gettext_lazy("Building the list from the dictionary"),
    "reading the words": gettext_lazy("Reading the words"),
    "the DAWG": gettext_lazy("Building the word graph"),
    "the GADDAG": gettext_lazy("Building the move graph"),
    "read from the cache": gettext_lazy("Found already compiled"),
    "compiled": gettext_lazy("Compiled"),
}


def _megabytes(size: int) -> str:
    return f"{size / 1024 / 1024:.1f}"


def _text_of(data: bytes) -> str:
    """The upload as text: UTF-8 (a byte-order mark is fine), not empty, not too large."""
    limit: int = settings.WORD_LIST_MAX_BYTES
    if len(data) > limit:
        raise ApplicationError(
            _("The word list is too large (%(size)s MB): at most %(limit)s MB.")
            % {"size": _megabytes(len(data)), "limit": _megabytes(limit)},
            code="word_list_too_large",
        )
    if not data.strip():
        raise ApplicationError(
            _("The word list is empty: one word a line, please."), code="word_list_empty"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ApplicationError(
            _(
                "The word list is not UTF-8 text: line %(line)s holds a byte that is not "
                "(byte %(byte)s). Save the file as UTF-8 and upload it again."
            )
            % {"line": line, "byte": exc.start},
            code="word_list_not_utf8",
        ) from None


def _refusal(exc: WordListError, tile_set: str) -> ApplicationError:
    if exc.count == 0:
        return ApplicationError(
            _("The word list holds no word of 2 to 15 letters."), code="word_list_no_words"
        )
    lines = "; ".join(
        _("line %(number)s: %(line)s (%(letter)s)")
        % {"number": number, "line": repr(line), "letter": repr(letter)}
        for number, line, letter in exc.lines
    )
    more = exc.count - len(exc.lines)
    return ApplicationError(
        ngettext(
            "%(count)s line of the word list is not a word of the tile set %(tiles)s "
            "(accents are folded: É is E, Œ is OE): %(lines)s",
            "%(count)s lines of the word list are not words of the tile set %(tiles)s "
            "(accents are folded: É is E, Œ is OE): %(lines)s",
            exc.count,
        )
        % {"count": exc.count, "tiles": TileSet(tile_set).label, "lines": lines}
        + (_("; and %(more)s more.") % {"more": more} if more else "."),
        code="word_list_bad_lines",
    )


def _notes(repeated: int, left_out: int) -> str:
    """What the reading set aside, in words: repeated words, words too short or too long."""
    notes = []
    if repeated:
        notes.append(
            ngettext(
                "%(n)s line repeated a word already in the list (counted once)",
                "%(n)s lines repeated a word already in the list (counted once)",
                repeated,
            )
            % {"n": repeated}
        )
    if left_out:
        notes.append(
            ngettext(
                "%(n)s word of one letter or more than 15 left out",
                "%(n)s words of one letter or more than 15 left out",
                left_out,
            )
            % {"n": left_out}
        )
    return "; ".join(notes)


def _store(data: bytes, sha256: str) -> str:
    """Keep the bytes under ``word_lists_dir()``, named by their hash; returns the file name."""
    folder = word_lists_dir()
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{sha256}.txt"
    if not (folder / name).exists():
        fd, partial = tempfile.mkstemp(dir=folder, prefix=f".{sha256[:12]}-", suffix=".part")
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(partial, 0o644)
        os.replace(partial, folder / name)
    return name


def _check_estimate(words: list[str]) -> None:
    """Refuse a list whose compile is estimated to need more than ``WORD_LIST_MEMORY_MB``."""
    limit = settings.WORD_LIST_MEMORY_MB * MB
    estimate = compile_estimate(words, limit=limit)
    if estimate.bytes <= limit:
        return
    raise ApplicationError(
        _(
            "This word list would take about %(needed)s MB of memory to compile (%(words)s "
            "words, %(letters)s letters): the server compiles lists of up to %(limit)s MB. "
            "A list of real words of this size takes far less: are these words of the language?"
        )
        % {
            "needed": f"{estimate.bytes / MB:,.0f}",
            "words": f"{len(words):,}",
            "letters": f"{estimate.letters:,}",
            "limit": f"{limit / MB:,.0f}",
        },
        code="word_list_too_large_to_compile",
        data={"estimated_mb": round(estimate.bytes / MB), "limit_mb": round(limit / MB)},
    )


def word_list_upload(
    *, data: bytes, name: str, tile_set: str, actor: User | AnonymousUser | None
) -> tuple[WordList, bool]:
    """Check a word list for ``tile_set``, keep it and queue its compile; returns the list and
    whether it is new (False: the same content was uploaded before for this tile set, and that
    list is returned; a failed one is queued again)."""
    if tile_set not in TileSet.values:
        raise ApplicationError(
            _("Unknown tile set %(tiles)r.") % {"tiles": tile_set}, code="unknown_tile_set"
        )
    name = name.strip()[:NAME_MAX]
    if not name:
        raise ApplicationError(_("A word list needs a name."), code="name_required")
    text = _text_of(data)
    try:
        reading = read_list(text, name, EngineTileSet.load(tile_set).letters)
    except WordListError as exc:
        raise _refusal(exc, tile_set) from None
    _check_estimate(reading.words)
    sha256 = hashlib.sha256(data).hexdigest()
    user = actor if isinstance(actor, AbstractBaseUser) else None
    with transaction.atomic():
        existing = WordList.objects.select_for_update().filter(sha256=sha256, tile_set=tile_set)
        word_list = existing.first()
        if word_list is not None and word_list.status != WordList.Status.FAILED:
            return word_list, False
        file_name = _store(data, sha256)
        if word_list is None:
            try:
                with transaction.atomic():
                    word_list = WordList.objects.create(
                        name=name,
                        sha256=sha256,
                        tile_set=tile_set,
                        file_name=file_name,
                        size=len(data),
                        words=len(reading.words),
                        message=_notes(reading.repeated, reading.left_out),
                        uploaded_by=user,
                    )
            except IntegrityError:  # the same file, uploaded at the same moment by another
                return WordList.objects.get(sha256=sha256, tile_set=tile_set), False
        else:
            WordList.objects.filter(pk=word_list.pk).update(
                status=WordList.Status.QUEUED,
                progress=0,
                message=_notes(reading.repeated, reading.left_out),
                file_name=file_name,
                started_at=None,
                finished_at=None,
            )
            word_list.refresh_from_db()
        word_list_queue(word_list)
    return word_list, True


BUILTIN_PREFIX = "builtin:"  # a list offered out of the box, before its row exists


def word_list_builtin(*, key: str, actor: User | AnonymousUser | None) -> WordList:
    """The row of a list offered out of the box (``engine.lists.BUILTIN``), made and queued
    for its build and compile the first time a director chooses it (again if it failed, or if
    the installed dictionary's version changed)."""
    builtin = BUILTIN.get(key.removeprefix(BUILTIN_PREFIX))
    if builtin is None:
        raise ApplicationError(
            _("Unknown word list %(key)r.") % {"key": key}, code="unknown_word_list"
        )
    user = actor if isinstance(actor, AbstractBaseUser) else None
    with transaction.atomic():
        rows = WordList.objects.select_for_update().filter(
            sha256=builtin.fingerprint, tile_set=builtin.tile_set
        )
        word_list = rows.first()
        if word_list is not None and word_list.status != WordList.Status.FAILED:
            return word_list
        if word_list is None:
            try:
                with transaction.atomic():
                    word_list = WordList.objects.create(
                        name=builtin.name,
                        builtin=builtin.key,
                        sha256=builtin.fingerprint,
                        tile_set=builtin.tile_set,
                        file_name=builtin.file_name,
                        size=0,
                        uploaded_by=user,
                    )
            except IntegrityError:  # chosen at the same moment by another director
                return WordList.objects.get(sha256=builtin.fingerprint, tile_set=builtin.tile_set)
        else:
            WordList.objects.filter(pk=word_list.pk).update(
                status=WordList.Status.QUEUED, progress=0, message="", started_at=None
            )
            word_list.refresh_from_db()
        word_list_queue(word_list)
    return word_list


def word_list_queue(word_list: WordList) -> None:
    """Send the list's compile to a worker once the transaction commits."""
    from tournament import tasks  # tasks import services: import late, once Celery is set up

    list_id = word_list.pk
    transaction.on_commit(lambda: tasks.word_list_compile.delay(list_id))


def _claim(list_id: int, now: dt.datetime) -> bool:
    """queued -> compiling, once: a list compiling (or left compiling by a dead worker) is
    never claimed again; the heartbeat's watch marks the latter failed."""
    claimed = WordList.objects.filter(status=WordList.Status.QUEUED, pk=list_id).update(
        status=WordList.Status.COMPILING, started_at=now, heartbeat_at=now, progress=0
    )
    return claimed == 1


# Why a compile failed, as the page says it (the reason is kept in the row's message).
REASONS = {
    "memory": gettext_lazy(
        "the compile needed more than the %(ceiling)s MB of memory it may take (at %(percent)s%%)"
    ),
    "time": gettext_lazy("the compile took longer than %(seconds)s s (at %(percent)s%%)"),
    "lost": gettext_lazy(
        "the worker compiling it stopped (%(why)s) at %(percent)s%%: killed, or out of memory"
    ),
    "silent": gettext_lazy(
        "the worker compiling it gave no sign of life for %(seconds)s s (at %(percent)s%%): "
        "killed, or its machine stopped"
    ),
}


def word_list_fail(*, word_list_id: int, reason: str, only_compiling: bool = True) -> bool:
    """Mark a list failed with ``reason`` (a sentence); when ``only_compiling``, only a list
    still compiling (its compile's end was not recorded). Whether it was marked."""
    rows = WordList.objects.filter(pk=word_list_id)
    if only_compiling:
        rows = rows.filter(status=WordList.Status.COMPILING)
    marked = rows.update(
        status=WordList.Status.FAILED,
        message=(_("Failed: %(reason)s") % {"reason": reason})[:500],
        finished_at=timezone.now(),
        heartbeat_at=None,
    )
    if marked:
        log.warning("word list %s failed: %s", word_list_id, reason)
    return bool(marked)


def _percent(word_list_id: int) -> int:
    return int(
        WordList.objects.filter(pk=word_list_id).values_list("progress", flat=True).first() or 0
    )


def word_list_compile_lost(*, word_list_id: int, why: str) -> bool:
    """The worker's parent saw the process compiling the list die (``why``: Celery's words,
    "signal 9 (SIGKILL)", a hard time limit): mark it failed, unless it finished."""
    reason = REASONS["lost"] % {"why": why, "percent": _percent(word_list_id)}
    return word_list_fail(word_list_id=word_list_id, reason=str(reason))


def word_lists_reap(*, now: dt.datetime | None = None) -> int:
    """Mark failed every list compiling whose heartbeat is ``WORD_LIST_SILENT_SECONDS`` old
    (its worker died with no one to say so); how many. Idempotent: any worker may run it."""
    now = now or timezone.now()
    silent = settings.WORD_LIST_SILENT_SECONDS
    stale = WordList.objects.filter(
        Q(heartbeat_at__lt=now - dt.timedelta(seconds=silent)) | Q(heartbeat_at__isnull=True),
        status=WordList.Status.COMPILING,
    ).values_list("pk", "progress")
    return sum(
        word_list_fail(
            word_list_id=pk,
            reason=str(REASONS["silent"] % {"seconds": silent, "percent": progress}),
        )
        for pk, progress in stale
    )


@contextmanager
def _heartbeat(word_list_id: int) -> Iterator[None]:
    """Write the list's ``heartbeat_at`` every ``WORD_LIST_HEARTBEAT_SECONDS`` while the block
    runs (a thread of its own, with its own database connection)."""
    from django.db import connections

    stop = threading.Event()
    interval = float(settings.WORD_LIST_HEARTBEAT_SECONDS)

    def beat() -> None:
        try:
            while not stop.wait(interval):
                try:
                    WordList.objects.filter(
                        pk=word_list_id, status=WordList.Status.COMPILING
                    ).update(heartbeat_at=timezone.now())
                except Exception:  # the database away a moment: the next beat tries again
                    log.exception("word list %s: heartbeat not written", word_list_id)
        finally:
            connections.close_all()

    thread = threading.Thread(target=beat, name=f"wordlist-{word_list_id}-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=interval + 5)


class Ceiling:
    """The address space a block may reach (``limit``, bytes), and whether it came near it."""

    MARGIN = 32 * MB  # an allocation that fails asks for less than this, most of the time

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.peak_before = _address_space("VmPeak")

    def reached(self, failure: BaseException | None = None) -> bool:
        """The address space is within ``MARGIN`` of the limit (asked while the failure's
        traceback still holds what the compile had made), or its peak came there in the block:
        a failure was then most likely an allocation refused, whatever a library made of it.
        A C function that fails with no exception set (``SystemError``) under the ceiling is
        one too: seen in a suite's long-lived process, whose earlier peak hides the block's."""
        near = self.limit - self.MARGIN
        if isinstance(failure, SystemError) and "without exception set" in str(failure):
            return True
        return _address_space() >= near or self.peak_before < near <= _address_space("VmPeak")


@contextmanager
def memory_ceiling(megabytes: int) -> Iterator[Ceiling]:
    """Let this process's address space grow by ``megabytes`` at the most while the block
    runs: past it, allocations fail (MemoryError) instead of the machine running out. The soft
    limit is put back after (the hard one is never touched)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = _address_space() + megabytes * MB
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    if soft != resource.RLIM_INFINITY:
        limit = min(limit, soft)
    ceiling = Ceiling(limit)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield ceiling
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _address_space(field: str = "VmSize") -> int:
    """This process's virtual memory size in bytes (``VmSize``), or its peak (``VmPeak``)."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) * 1024
    return 0


def _drop_connection() -> None:
    """A connection cut mid-query by a failed allocation is not reused: the next query opens
    another (not inside a transaction, which a test's may be)."""
    if not connection.in_atomic_block:
        connection.close()


def _report(list_id: int, percent: int, step: str) -> None:
    # Only while compiling: a list the watch marked failed keeps the reason it was given.
    compiling = WordList.objects.filter(pk=list_id, status=WordList.Status.COMPILING)
    with translation.override(None):  # its words as written, said in the reader's language
        said = str(STEPS.get(step, step))  # by arbiter.state.lexicon_info
    progress_report(compiling, percent=percent, message=said)


def word_list_compile(*, word_list_id: int, now: dt.datetime | None = None) -> WordList | None:
    """Compile the list into the engine's disk cache; None when it was not there to claim
    (ready, failed, compiling elsewhere, or gone). Not one transaction: the progress must be
    seen meanwhile."""
    if not _claim(word_list_id, now or timezone.now()):
        return None
    word_list = WordList.objects.get(pk=word_list_id)
    notes = word_list.message
    shown: list[tuple[int, str]] = []

    def progress(step: str, fraction: float) -> None:
        now = (int(fraction * 100), step)
        if not shown or shown[-1] != now:  # one write a percent and a step at the most
            shown.append(now)
            _report(word_list.pk, *now)

    compiling = progress
    ceiling = settings.WORD_LIST_CEILING_MB
    bound: Ceiling | None = None
    try:
        with _heartbeat(word_list.pk), memory_ceiling(ceiling) as bound:
            if word_list.builtin:  # a list offered out of the box: built from its dictionary
                BUILTIN[word_list.builtin].file(
                    word_lists_dir(),
                    lambda fraction: progress("building the list", fraction * 0.4),
                )
                WordList.objects.filter(pk=word_list.pk).update(size=word_list.path.stat().st_size)

                def compiling(step: str, fraction: float) -> None:
                    progress(step, 0.4 + fraction * 0.6)

            lexicon = Lexicon.load(str(word_list.path), progress=compiling)
    except LexiconError as exc:
        word_list_fail(word_list_id=word_list.pk, reason=str(exc))
        word_list.refresh_from_db()
        return word_list
    except MemoryError:
        # What the compile held is gone with its frames: there is room to say so.
        _drop_connection()
        reason = REASONS["memory"] % {"ceiling": ceiling, "percent": _percent(word_list.pk)}
        word_list_fail(word_list_id=word_list.pk, reason=str(reason))
        word_list.refresh_from_db()
        return word_list
    except SoftTimeLimitExceeded:
        seconds = settings.WORD_LIST_COMPILE_SECONDS
        reason = REASONS["time"] % {"seconds": seconds, "percent": _percent(word_list.pk)}
        word_list_fail(word_list_id=word_list.pk, reason=str(reason))
        word_list.refresh_from_db()
        return word_list
    except Exception as exc:
        # An allocation refused inside a library (the database driver's, say) may come out as
        # its own error, not MemoryError: the peak tells. Anything else is said as it came.
        log.exception("word list %s: the compile failed", word_list.pk)
        _drop_connection()
        if bound is not None and bound.reached(exc):
            reason = REASONS["memory"] % {"ceiling": ceiling, "percent": _percent(word_list.pk)}
        else:
            reason = f"{type(exc).__name__}: {exc}"
        word_list_fail(word_list_id=word_list.pk, reason=str(reason))
        word_list.refresh_from_db()
        return word_list
    # Only a list still compiling: one marked failed meanwhile (its heartbeat went unwritten
    # too long) stays failed; uploading it again finds the compile in the engine's cache.
    WordList.objects.filter(pk=word_list.pk, status=WordList.Status.COMPILING).update(
        status=WordList.Status.READY,
        progress=100,
        words=lexicon.words,
        message=notes,
        finished_at=timezone.now(),
        heartbeat_at=None,
    )
    word_list.refresh_from_db()
    return word_list
