"""What every reader of another program's file shares (docs/interchange.md): a problem said with
where it is, the error that lists them, and reading bytes that a user sent safely.

Bounded before the work: the size is checked before anything is decoded, the text is checked as
UTF-8 (a file in another encoding is named as such, with the first byte that is not UTF-8 and
where it is), and JSON's nesting is measured by counting brackets in C before any parser builds
it (``check_json_depth``), so that no file makes a reader recurse, build a huge object or spend
minutes. ``read_json`` reads a small document whole with these checks, numbers bounded too;
a large one is read in a stream (ijson) by its reader (``arbiter.services.room_files``).

Messages are English templates marked for the catalogues (``gettext_noop``, known to
``makemessages`` as ``_``) with their values apart (``Problem.params``): the layer that shows
them translates the template, then fills it in (``Problem.say``). The engine imports no Django.
"""

from __future__ import annotations

import codecs
import itertools
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from engine.errors import EngineError


def gettext_noop(message: str) -> str:
    """Marks an English template for the catalogues; the reading layer translates it."""
    return message


_ = gettext_noop

Translate = Callable[[str], str]


def _same(message: str) -> str:
    return message


@dataclass(frozen=True)
class Problem:
    """One thing wrong in a file: the line (None: the file as a whole), the element, why (an
    English template, filled in with ``params``)."""

    line: int | None
    element: str
    message: str
    params: dict[str, Any] = field(default_factory=dict, compare=False)

    def say(self, translate: Translate = _same) -> str:
        """The message alone, in the words of ``translate`` (``gettext`` in the web layer)."""
        text = translate(self.message)
        return text % self.params if self.params else text

    def text(self, translate: Translate = _same) -> str:
        """The whole problem: where it is, then why."""
        message = self.say(translate)
        if self.line is None:
            if self.element:
                return translate("<%(element)s>: %(message)s") % {
                    "element": self.element,
                    "message": message,
                }
            return message
        if self.element:
            return translate("line %(line)d, <%(element)s>: %(message)s") % {
                "line": self.line,
                "element": self.element,
                "message": message,
            }
        return translate("line %(line)d: %(message)s") % {"line": self.line, "message": message}

    def __str__(self) -> str:
        return self.text()


# The words ``Problem.text`` puts around a message, for the catalogues.
_WHERE = (
    _("<%(element)s>: %(message)s"),
    _("line %(line)d, <%(element)s>: %(message)s"),
    _("line %(line)d: %(message)s"),
)


class InterchangeError(EngineError):
    """A file that cannot be read; ``problems`` lists each thing wrong, with where it is."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        count = len(self.problems)
        super().__init__(
            f"{count} problem{'s' if count != 1 else ''} in the file: "
            + "; ".join(str(p) for p in self.problems[:3])
            + ("; ..." if count > 3 else "")
        )


def refuse(message: str, line: int | None = None, element: str = "", **params: Any) -> NoReturn:
    raise InterchangeError([Problem(line, element, message, params)])


def megabytes(limit: int) -> str:
    """A size limit as people read it: ``2 MB``, ``40 MB`` (limits are whole MB)."""
    return f"{limit // 2**20} MB" if limit % 2**20 == 0 else f"{limit / 2**20:.1f} MB"


def check_size(content: bytes, limit: int) -> None:
    """Refuse ``content`` over ``limit`` bytes (before anything is decoded)."""
    if len(content) > limit:
        refuse(
            _("the file is over %(limit)s (%(size)s bytes): at most %(limit)s are read"),
            size=f"{len(content):,}",
            limit=megabytes(limit),
        )


def position(content: bytes, offset: int) -> tuple[int, int]:
    """(line, column), both from 1, of the byte at ``offset``."""
    line = content.count(b"\n", 0, offset) + 1
    start = content.rfind(b"\n", 0, offset) + 1
    return line, offset - start + 1


def check_utf8(content: bytes) -> None:
    """Refuse text that is not UTF-8, naming the first byte that is not and where it is, and
    what the file probably is (UTF-16 by its zero bytes, else a one-byte encoding such as
    Latin-1 or Windows-1252)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        decoder.decode(content, final=True)
    except UnicodeDecodeError as exc:
        line, column = position(content, exc.start)
        guess = (
            _(
                "the file is not UTF-8 but UTF-16 (it starts with a byte order mark or holds "
                "zero bytes); save it as UTF-8"
            )
            if content[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in content[:64]
            else _(
                "the file is not UTF-8: byte 0x%(byte)02X at column %(column)d is not UTF-8 "
                "(a file saved as Latin-1 or Windows-1252?); save it as UTF-8"
            )
        )
        refuse(guess, line, byte=content[exc.start], column=column)


# --- JSON ------------------------------------------------------------------------------------

MAX_JSON_DEPTH = 20
MAX_JSON_DIGITS = 18  # digits of a whole number
_JSON_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_STRUCTURE = bytes(range(256)).translate(None, b'[]{}"')  # every byte but brackets and quotes
_PIECE = 1024 * 1024
_STEP = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")


def check_json_depth(
    content: bytes, max_depth: int = MAX_JSON_DEPTH, max_containers: int | None = None
) -> None:
    """Refuse JSON nested deeper than ``max_depth`` (or holding more than ``max_containers``
    objects and arrays), before any parser builds it: strings aside, the brackets are counted
    in C (``bytes.translate``, ``itertools.accumulate``), stopping at the first one too deep,
    so a file of nothing but ``[`` costs what reading it costs."""
    brackets = _brackets(content)
    _check_depth(content, brackets, max_depth)
    if max_containers is not None and len(brackets) > 2 * max_containers:
        refuse(
            _("the JSON holds %(count)d objects and lists: at most %(limit)d are read"),
            count=len(brackets) // 2,
            limit=max_containers,
        )


def _brackets(content: bytes, piece_size: int = _PIECE) -> bytes:
    """The brackets of ``content`` outside its strings, in order. A megabyte at a time and in
    C (escapes taken away, the rest but brackets and quotes deleted, then split at the quotes:
    what lies between every other quote is a string), so memory stays a few megabytes
    whatever the file: a regular expression over 5 million strings held 700 MB."""
    kept: list[bytes] = []
    carry = b""
    inside = False
    for start in range(0, len(content), piece_size):
        piece = carry + content[start : start + piece_size]
        run = len(piece) - len(piece.rstrip(b"\\"))
        carry = b"\\" if run % 2 else b""  # an escape cut in two: finished in the next piece
        if carry:
            piece = piece[:-1]
        piece = piece.replace(b"\\\\", b"").replace(b'\\"', b"").translate(None, _STRUCTURE)
        parts = piece.split(b'"')
        outside = parts[1::2] if inside else parts[0::2]
        kept.append(b"".join(outside))
        inside = inside != (len(parts) % 2 == 0)
    return b"".join(kept)


def _check_depth(content: bytes, brackets: bytes, max_depth: int) -> None:
    stepped = brackets.translate(_STEP)
    inner = b"" if b"\x01" * (max_depth + 1) in stepped else stepped  # a run too deep: no pass
    for _level in range(max_depth if inner else 0):  # each pass takes away the innermost pairs
        shorter = inner.replace(b"\x01\xff", b"")
        if not shorter:
            return  # balanced and no deeper than max_depth
        if len(shorter) == len(inner):
            break
        inner = shorter
    steps = (b if b < 128 else b - 256 for b in stepped)
    for i, depth in enumerate(itertools.accumulate(steps)):
        if depth > max_depth:
            refuse(
                _("the JSON is nested more than %(limit)d levels deep"),
                position(content, _nth_bracket(content, i))[0],
                limit=max_depth,
            )
        if depth < 0:
            return  # a bracket closed that was never opened: the parser says where


def _nth_bracket(content: bytes, n: int) -> int:
    """The offset in ``content`` of its ``n``-th bracket outside strings (for the line of an
    error: reached only for a file refused)."""
    seen = -1
    last = 0
    for m in re.finditer(rb'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', content):
        if m.group().startswith(b'"'):
            continue
        seen += 1
        last = m.start()
        if seen == n:
            break
    return last


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > MAX_JSON_DIGITS:
        raise ValueError(
            gettext_noop("a number of %(digits)d digits: at most %(limit)d")
            % {"digits": len(text.lstrip("-")), "limit": MAX_JSON_DIGITS}
        )
    return int(text)


def _no_constant(text: str) -> Any:
    raise ValueError(f"{text} is not a number JSON allows")


class NotFinite(float):
    """A JSON number no float holds (``1e999``, ``-1e999``): kept as written while the document
    is read, so that the refusal names where it stands (``json_not_finite``)."""

    written: str = ""


def finite_float(text: str, *, max_chars: int = 100) -> float:
    """``parse_float`` for ``json.loads``: the number, or a ``NotFinite`` one too large for a
    float (also one written with more than ``max_chars`` characters, never converted)."""
    value = float(text) if len(text) <= max_chars else math.inf
    if math.isfinite(value):
        return value
    refused = NotFinite(value)
    refused.written = text[:30] + ("..." if len(text) > 30 else "")
    return refused


def json_not_finite(document: Any) -> tuple[str, str] | None:
    """The place (``rounds[0].score``) and the text of the first number of ``document`` that no
    float holds, or None. Iterative: a deep document cannot exhaust the stack."""
    stack: list[tuple[str, Any]] = [("", document)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            return path or "the document", getattr(value, "written", repr(value))
        if isinstance(value, dict):
            items = [(f"{path}.{k}" if path else str(k), v) for k, v in value.items()]
        elif isinstance(value, list):
            items = [(f"{path}[{i}]", v) for i, v in enumerate(value)]
        else:
            continue
        stack.extend(reversed(items))
    return None


def read_json(content: bytes, *, max_bytes: int, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """A whole JSON document (UTF-8, with or without a byte order mark), every limit checked
    before it is built: size, encoding, nesting, then whole numbers of at most 18 digits and no
    NaN or Infinity. Raises ``InterchangeError`` saying where the file goes wrong."""
    check_size(content, max_bytes)
    if content.startswith(codecs.BOM_UTF8):
        content = content[len(codecs.BOM_UTF8) :]
    check_utf8(content)
    if not content.strip():
        refuse(_("the file is empty"))
    check_json_depth(content, max_depth)
    try:
        document = json.loads(
            content, parse_int=_whole, parse_float=finite_float, parse_constant=_no_constant
        )
    except json.JSONDecodeError as exc:
        refuse(
            _("not JSON: %(error)s (column %(column)d)"),
            exc.lineno,
            error=exc.msg,
            column=exc.colno,
        )
    except ValueError as exc:
        refuse(_("not JSON: %(error)s"), error=str(exc))
    huge = json_not_finite(document)
    if huge is not None:
        refuse(_("%(where)s: the number %(number)s is too large"), where=huge[0], number=huge[1])
    return document


_JSON_WORDS = (_("a number of %(digits)d digits: at most %(limit)d"),)


__all__ = [
    "MAX_JSON_DEPTH",
    "InterchangeError",
    "NotFinite",
    "Problem",
    "check_json_depth",
    "check_size",
    "check_utf8",
    "finite_float",
    "gettext_noop",
    "json_not_finite",
    "megabytes",
    "position",
    "read_json",
    "refuse",
]
