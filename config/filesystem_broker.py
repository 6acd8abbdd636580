"""kombu's ``filesystem://`` transport, with every file written whole (the embedded broker).

kombu creates a message's file under its final name in the queue folder, then writes into
it: a worker polling the folder can take the file in between and read half a message (or
nothing), and its ``json.loads`` error stops the worker, and with it the beat it embeds. The
first bind of a queue truncates the exchange's table file the same way. Here each file is
written in a private folder, flushed to disk, then renamed into place (``os.replace`` is atomic
on one filesystem), so a reader sees the whole file or none. A consumer claims a message by
renaming it into the processed folder (beside the queue, so never a copy across filesystems);
a message that still cannot be read (one written by another program, a full disk) is kept
there as ``*.unreadable``, logged, and skipped: it never stops the worker.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
import uuid
from pathlib import Path
from queue import Empty
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.json import dumps, loads

logger = logging.getLogger(__name__)


def write_whole(path: Path, data: bytes, *, folder: Path) -> None:
    """Write ``data`` to ``path`` at once: into a new file in ``folder`` (on the same
    filesystem), flushed to disk, then renamed over ``path``."""
    fd, part = tempfile.mkstemp(dir=folder, prefix=".", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(part, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(part)
        raise


class Channel(filesystem.Channel):
    @property
    def tmp_folder(self) -> Path:
        return Path(self.transport_options.get("tmp_folder") or self.data_folder_out)

    # The signatures are kombu's filesystem channel's (its stubs ignore the override too).
    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:  # type: ignore[override]
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        try:
            write_whole(
                Path(self.data_folder_out) / name, dumps(payload).encode(), folder=self.tmp_folder
            )
        except OSError as exc:
            raise ChannelError(f"Cannot add file {name!r} to directory") from exc

    def _get(self, queue: str) -> dict[str, Any]:  # type: ignore[override]
        wanted = f"{queue}.msg"
        folder, claims = Path(self.data_folder_in), Path(self.processed_folder)
        for name in sorted(os.listdir(folder)):
            if name.partition(".")[2] != wanted:
                continue
            claimed = claims / name
            try:
                os.rename(folder / name, claimed)
            except OSError:
                continue  # another consumer took it first
            try:
                payload = claimed.read_bytes()
            except OSError as exc:
                raise ChannelError(f"Cannot read file {str(claimed)!r} from queue.") from exc
            try:
                message: dict[str, Any] = loads(payload.decode())
            except ValueError as exc:
                os.replace(claimed, claimed.with_name(name + ".unreadable"))
                logger.error(
                    "Skipped an unreadable message in queue %r (%s: %s); kept as %s.unreadable",
                    queue,
                    type(exc).__name__,
                    exc,
                    claimed,
                )
                continue
            if not self.store_processed:
                claimed.unlink()
            return message
        raise Empty()

    def _queue_bind(self, exchange: str, routing_key: str, pattern: str | None, queue: str) -> None:
        file: Path = self._exchange_file(exchange)  # type: ignore[attr-defined]
        self.control_folder.mkdir(exist_ok=True)
        entry = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        try:
            with open(file.with_name(file.name + ".lock"), "ab", buffering=0) as guard:
                filesystem.lock(guard, filesystem.LOCK_EX)  # type: ignore[attr-defined]
                try:
                    table = self.get_table(exchange)
                    if entry not in table:
                        table.insert(0, entry)
                        write_whole(file, dumps(table).encode(), folder=self.tmp_folder)
                finally:
                    filesystem.unlock(guard)
        except OSError as exc:
            raise ChannelError(f"Cannot open {file}") from exc


class Transport(filesystem.Transport):
    Channel = Channel
