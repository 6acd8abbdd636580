"""A Server-Sent Events client for the tests: one connection, frames read as they come, each
wait bounded by a deadline (never a fixed sleep)."""

from __future__ import annotations

import json
import socket
import time
from dataclasses import dataclass
from typing import Any

HOST = "127.0.0.1"


@dataclass
class Frame:
    event: str
    id: str | None
    data: Any
    at: float  # when it was read (time.time())


class Stream:
    def __init__(
        self, port: int, path: str, *, headers: dict[str, str] | None = None, host: str = HOST
    ) -> None:
        self.sock = socket.create_connection((HOST, port), timeout=10)
        lines = [f"GET {path} HTTP/1.1", f"Host: {host}", "Accept: text/event-stream"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffer = b""
        self.status = 0
        self.headers: dict[str, str] = {}
        self.closed = False
        self._head()

    def _fill(self, until: float) -> bool:
        self.sock.settimeout(max(0.01, until - time.monotonic()))
        try:
            chunk = self.sock.recv(65536)
        except TimeoutError:
            return False
        except OSError:
            chunk = b""
        if not chunk:
            self.closed = True
            return False
        self.buffer += chunk
        return True

    def _head(self) -> None:
        until = time.monotonic() + 15
        while b"\r\n\r\n" not in self.buffer and time.monotonic() < until:
            if not self._fill(until) and self.closed:
                break
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        first, *rest = head.decode("latin-1").split("\r\n")
        self.status = int(first.split()[1]) if first.startswith("HTTP/") else 0
        self.headers = {
            k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in rest)
        }
        self.chunked = self.headers.get("transfer-encoding") == "chunked"
        self.body = b""

    def _unchunk(self) -> None:
        if not self.chunked:
            self.body += self.buffer
            self.buffer = b""
            return
        while True:
            size_line, sep, rest = self.buffer.partition(b"\r\n")
            if not sep:
                return
            size = int(size_line.split(b";")[0] or b"0", 16)
            if len(rest) < size + 2:
                return
            self.body += rest[:size]
            self.buffer = rest[size + 2 :]
            if size == 0:
                self.closed = True
                return

    def next(self, seconds: float = 5.0) -> Frame | None:
        """The next frame (comments skipped), or None if none came within ``seconds``."""
        until = time.monotonic() + seconds
        while True:
            self._unchunk()
            while b"\n\n" in self.body:
                raw, _, self.body = self.body.partition(b"\n\n")
                fields: dict[str, str] = {}
                for line in raw.decode().split("\n"):
                    if not line or line.startswith(":"):
                        continue
                    name, _, value = line.partition(":")
                    fields[name] = value.removeprefix(" ")
                if "data" in fields:
                    data = json.loads(fields["data"]) if fields["data"] else None
                    return Frame(
                        fields.get("event", "message"), fields.get("id"), data, time.time()
                    )
            if self.closed or time.monotonic() >= until:
                return None
            self._fill(until)

    def wait(self, kinds: set[str], seconds: float = 5.0) -> Frame:
        """The next frame of one of ``kinds`` within ``seconds`` (others are skipped)."""
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            found = self.next(until - time.monotonic())
            if found is not None and found.event in kinds:
                return found
        raise AssertionError(f"no {kinds} frame within {seconds} s")

    def close(self) -> None:
        self.sock.close()
