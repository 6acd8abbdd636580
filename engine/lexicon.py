"""Word lists compiled to a DAWG and a GADDAG, each stored as flat integer arrays, cached on disk.

Each structure is three arrays (a compiled core could walk the very same arrays):

* ``mask[n]``: bits 0-25 are the letters A-Z leaving node ``n`` (bit 26 the GADDAG's separator);
  bit 27 says a word ends at ``n``.
* ``first[n]``: index in ``target`` of the edge for the lowest symbol leaving ``n``.
* ``target[e]``: the node an edge leads to. The edges of a node are stored in symbol order, so the
  child of ``n`` by symbol ``L`` is ``target[first[n] + popcount(mask[n] & ((1 << L) - 1))]``.

Node 0 is the root. The DAWG holds the words (membership, cross-sets). The GADDAG holds, for
every word ``w`` and every ``i``, ``reverse(w[:i])`` followed by the separator and ``w[i:]``
(no separator when ``i`` is the whole word): move generation starts at an anchor square, goes
left, then crosses the separator and goes right, walking only real words through the anchor.
Words of 2 to 15 letters are kept (a board holds nothing else).
The cache file is keyed by the SHA-256 of the list's bytes and the format version, under
``$DUPLICATE_ENGINE_CACHE`` or ``$XDG_CACHE_HOME/duplicate-scrabble`` (``~/.cache/...``).

``python -m engine.lexicon --warm [--lexicon PATH]`` compiles a list (ENABLE by default) into the
cache, showing its progress.
"""

from __future__ import annotations

import argparse
import gc
import gzip
import hashlib
import math
import mmap
import os
import random
import sys
import tempfile
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Literal

from engine.errors import LexiconError
from engine.wordlist import read_words

FORMAT = 3
SEP = 26  # the GADDAG's separator symbol
SEP_BIT = 1 << SEP
TERMINAL = 1 << 27
LETTERS = (1 << 26) - 1
DEFAULT = "enable"
_MAGIC = b"DSLEX003"


class Lexicon:
    """A compiled word list. ``Lexicon.load("enable")`` or ``Lexicon.load("/path/words.txt")``."""

    __slots__ = ("name", "key", "mask", "first", "target", "words", "_gaddag", "_height", "_mapped")

    def __init__(
        self,
        name: str,
        key: str,
        dawg: Arrays,
        gaddag: Arrays | None,
        words: int,
        height: list[int] | None = None,
        *,
        mapped: _Mapped | None = None,
    ):
        self.name = name
        self.key = key
        self.mask, self.first, self.target = dawg
        self.words = words
        # The GADDAG (and its heights) of a list read from the cache stay in the memory-mapped
        # file until the pure-Python engine first asks for them as lists (``gaddag``); the
        # native engine reads them where they lie (``buffers``).
        self._gaddag = gaddag
        self._height = height
        self._mapped = mapped
        if gaddag is None and mapped is None:
            raise ValueError("a Lexicon needs its GADDAG, as lists or mapped from the cache")

    @property
    def gaddag(self) -> Arrays:
        """The GADDAG's three arrays (mask, first, target) as lists."""
        if self._gaddag is None:
            assert self._mapped is not None
            self._gaddag = tuple(v.tolist() for v in self._mapped.gaddag)  # type: ignore[assignment]
        assert self._gaddag is not None
        return self._gaddag

    @property
    def height(self) -> list[int]:
        """Per GADDAG node: the most letters (the separator not counted) any path from it can
        still spell before a word ends (-1 if none)."""
        if self._height is None:
            mapped = self._mapped.height if self._mapped is not None else None
            self._height = mapped.tolist() if mapped is not None else _heights(self.gaddag)
        return self._height

    def buffers(self) -> tuple[memoryview, ...]:
        """The DAWG's and the GADDAG's arrays as six buffers of unsigned 32-bit integers (the
        mapped cache file's own bytes when the list was read from the cache)."""
        if self._mapped is None:
            self._mapped = _Mapped.of((self.mask, self.first, self.target), self.gaddag)
        return (*self._mapped.dawg, *self._mapped.gaddag)

    def __repr__(self) -> str:
        return f"<Lexicon {self.name!r}: {self.words} words, {len(self.mask)} nodes>"

    @classmethod
    def load(cls, source: str = DEFAULT, *, progress: Progress | None = None) -> Lexicon:
        """The ENABLE list by name, a list built from an installed dictionary by its key
        (``engine.lists.BUILTIN``: ``grammalecte-fr``), or any word list from a file (gzip
        accepted; the words are read as ``engine.wordlist`` says). ``progress``, if given,
        hears how a build and a compile go (a list not in the disk cache yet) and the list is
        loaded anew from the disk."""
        from engine.lists import BUILTIN  # a list built from an installed dictionary

        if source in BUILTIN:
            building = None if progress is None else _step(progress, "building the list")
            source = str(BUILTIN[source].file(cache_dir() / "lists", building))
        key = source if source == DEFAULT else str(Path(source).resolve())
        return _load_cached(key) if progress is None else _load(key, progress)

    @classmethod
    def from_words(cls, words: list[str], name: str = "words") -> Lexicon:
        """Compile a list of words in memory (no cache): for tests and small lists."""
        text = "\n".join(words).encode()
        clean = read_words(text.decode(), name)
        return cls(
            name,
            hashlib.sha256(text).hexdigest(),
            _compile(clean),
            _compile(_gaddag_strings(clean)),
            len(clean),
        )

    def child(self, node: int, letter: int) -> int:
        """The node reached from ``node`` by letter index 0-25, or -1."""
        m = self.mask[node]
        if not (m >> letter) & 1:
            return -1
        return self.target[self.first[node] + (m & ((1 << letter) - 1)).bit_count()]

    def walk(self, word: str, node: int = 0) -> int:
        """The node reached by spelling ``word`` (any case) from ``node``, or -1."""
        mask, first, target = self.mask, self.first, self.target  # ``child``, inlined: validation
        for ch in word.upper():  # asks for every word of every slip
            code = ord(ch) - 65
            if not 0 <= code < 26:
                return -1
            m = mask[node]
            if not (m >> code) & 1:
                return -1
            node = target[first[node] + (m & ((1 << code) - 1)).bit_count()]
        return node

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        node = self.walk(word)
        return node >= 0 and bool(self.mask[node] & TERMINAL)

    def iter_words(self) -> list[str]:
        """Every word, alphabetically (for tests and brute-force checks)."""
        out: list[str] = []
        stack: list[tuple[int, str]] = [(0, "")]
        while stack:
            node, prefix = stack.pop()
            if self.mask[node] & TERMINAL:
                out.append(prefix)
            m = self.mask[node] & LETTERS
            base = self.first[node]
            kids = []
            i = 0
            while m:
                low = m & -m
                kids.append((self.target[base + i], prefix + chr(65 + low.bit_length() - 1)))
                m ^= low
                i += 1
            stack.extend(reversed(kids))
        return sorted(out)


def _read_source(source: str) -> tuple[str, bytes]:
    if source == DEFAULT:
        data = resources.files("engine").joinpath("data", "lexicons", "enable.txt.gz").read_bytes()
        return "enable", gzip.decompress(data)
    path = Path(source)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LexiconError(f"lexicon {source!r} cannot be read: {exc.strerror or exc}") from None
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise LexiconError(f"lexicon {source!r} is not a readable gzip file: {exc}") from None
    return path.name, data


Arrays = tuple[list[int], list[int], list[int]]


def _gaddag_strings(words: list[str]) -> list[str]:
    """The GADDAG's strings, sorted; the separator is written ``[`` (symbol 26 after ``Z``)."""
    out = []
    for w in words:
        n = len(w)
        for i in range(1, n):
            out.append(w[i - 1 :: -1] + "[" + w[i:])
        out.append(w[::-1])
    out.sort()
    return out


def _heights(arrays: Arrays) -> list[int]:
    """Longest number of letters (separator excluded) from each node to a word's end; -1 if none."""
    mask, first, target = arrays
    n = len(mask)
    height = [-2] * n  # -2: not computed yet
    for root in range(n):
        if height[root] != -2:
            continue
        stack = [(root, False)]
        while stack:
            node, done = stack.pop()
            m = mask[node]
            kids = m & ((1 << 27) - 1)
            base = first[node]
            if done:
                best = 0 if m & TERMINAL else -1
                i = 0
                while kids:
                    low = kids & -kids
                    kids ^= low
                    h = height[target[base + i]]
                    if h >= 0:
                        h += 0 if low == SEP_BIT else 1
                        if h > best:
                            best = h
                    i += 1
                height[node] = best
                continue
            if height[node] != -2:
                continue
            stack.append((node, True))
            for i in range(kids.bit_count()):
                child = target[base + i]
                if height[child] == -2:
                    stack.append((child, False))
    return height


def _compile(words: list[str], progress: Callable[[float], None] | None = None) -> Arrays:
    """Minimal automaton of sorted strings (Daciuk et al.'s incremental algorithm), flattened.
    ``progress`` hears the fraction of the strings added, every ``_STEP`` of them.

    A node is a flat list ``[final, letter, child, letter, child, ...]``, its children in
    letter order (the strings come sorted), and is its own signature once its subtree is done:
    two nodes with the same list are one. Only the nodes along the last string added can still
    change (``path``), and the node being checked is always the last child of the one before it
    on that path, so merging it rewrites the parent's last entry."""
    # Millions of small lists and tuples, none in a cycle: the cyclic garbage collector would
    # walk them all again and again for nothing (a tenth of the time on 480,000 words).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _minimal_automaton(words, progress)
    finally:
        if collecting:
            gc.enable()


def _minimal_automaton(words: list[str], progress: Callable[[float], None] | None) -> Arrays:
    nodes: list[list[int]] = [[0]]
    freed: list[int] = []  # what a merged node becomes (never read again)
    register: dict[tuple[int, ...], int] = {}
    setdefault = register.setdefault
    path = [0]  # the nodes along the last string added, from the root

    def minimize(down_to: int) -> None:
        # Check the path's nodes below depth ``down_to``, deepest first: each is the last
        # child of the one before it.
        tail = path[down_to + 1 :]
        del path[down_to + 1 :]
        for k in range(len(tail) - 1, -1, -1):
            child = tail[k]
            same = setdefault(tuple(nodes[child]), child)
            if same != child:
                nodes[tail[k - 1] if k else path[down_to]][-1] = same
                nodes[child] = freed

    previous = b""
    total = len(words)
    for number, text in enumerate(words):
        if progress is not None and number % _STEP == 0:
            progress(number / total)
        word = text.encode("ascii")
        common = 0
        for a, b in zip(word, previous, strict=False):
            if a != b:
                break
            common += 1
        minimize(common)
        kids = nodes[path[-1]]
        suffix = word[common:]
        if suffix:
            # The new nodes in one go: each holds the next letter and the node after it.
            base = len(nodes)
            kids.append(suffix[0] - 65)
            kids.append(base)
            nodes.extend([[0, code - 65, base + k] for k, code in enumerate(suffix[1:], 1)])
            nodes.append([1])
            path.extend(range(base, base + len(suffix)))
        else:
            kids[0] = 1
        previous = word
    minimize(0)

    # Flatten: number reachable nodes breadth-first from the root.
    index = {0: 0}
    order = [0]
    mask: list[int] = []
    first: list[int] = []
    target: list[int] = []
    i = 0
    while i < len(order):
        kids = nodes[order[i]]
        i += 1
        m = TERMINAL if kids[0] else 0
        first.append(len(target))
        for k in range(1, len(kids), 2):  # in letter order, as above
            m |= 1 << kids[k]
            child = kids[k + 1]
            j = index.get(child)
            if j is None:
                j = index[child] = len(order)
                order.append(child)
            target.append(j)
        mask.append(m)
    if progress is not None:
        progress(1.0)
    return mask, first, target


# What a compile costs in memory (docs/reliability.md, "Word lists: compile memory"): the peak
# resident size of ``_load`` on lists of random words (2 to 15 letters), ENABLE and the French
# list, fitted as a base, a cost per letter (the words and the GADDAG's strings) and a cost per
# node of the minimal GADDAG (the automaton's nodes and their register).
ESTIMATE_BASE = 30 * 1024 * 1024
ESTIMATE_PER_LETTER = 140
ESTIMATE_PER_NODE = 480
# The most GADDAG nodes a letter makes: 5.2 measured on random 15-letter words (nothing shared),
# the worst case; natural words share most of them (0.1 in French, 0.27 in ENABLE).
NODES_PER_LETTER_MAX = 5.5
# The two samples the node count is extrapolated from, in letters (a compile of some 0.1 s and
# 0.5 s, and 100 MB at the most, while the upload waits).
SAMPLE_LETTERS = (10_000, 40_000)


@dataclass(frozen=True)
class Estimate:
    """What compiling a list is expected to take: ``bytes`` at the peak, from its ``letters``
    and the minimal GADDAG's ``nodes`` (exact up to 2 samples, then extrapolated)."""

    bytes: int
    letters: int
    nodes: int
    sampled: bool


def estimate_bytes(letters: int, nodes: int) -> int:
    return ESTIMATE_BASE + ESTIMATE_PER_LETTER * letters + ESTIMATE_PER_NODE * nodes


def compile_estimate(words: list[str], *, limit: int | None = None) -> Estimate:
    """The peak memory compiling ``words`` (folded, unique: ``read_words``) is expected to
    take. Words x length alone cannot tell (the French list's 4 million letters compile in
    650 MB, 0.5 million letters of random words need 1.2 GB): the GADDAG's nodes are counted on
    two samples of the list and extrapolated as a power of the letters (random words grow by
    0.93, natural ones by 0.7: an estimate above what natural lists take). When ``limit`` (bytes)
    is given and the worst case (every letter making ``NODES_PER_LETTER_MAX`` nodes) is under
    it, no sample is compiled."""
    letters = sum(map(len, words))
    worst = int(letters * NODES_PER_LETTER_MAX)
    if letters <= 2 * SAMPLE_LETTERS[1] or (
        limit is not None and estimate_bytes(letters, worst) <= limit
    ):
        return Estimate(estimate_bytes(letters, worst), letters, worst, False)
    rng = random.Random(len(words) * 1_000_003 + letters)
    mean = letters / len(words)
    counted: list[tuple[int, int]] = []
    for target in SAMPLE_LETTERS:
        sample = sorted(rng.sample(words, max(2, min(len(words), round(target / mean)))))
        nodes = len(_compile(_gaddag_strings(sample))[0])
        counted.append((sum(map(len, sample)), nodes))
    (l1, n1), (l2, n2) = counted
    power = math.log(n2 / n1) / math.log(l2 / l1) if l2 > l1 and n2 > n1 else 1.0
    power = min(1.0, max(0.6, power))
    nodes = min(worst, int(n2 * (letters / l2) ** power))
    return Estimate(estimate_bytes(letters, nodes), letters, nodes, True)


def cache_dir() -> Path:
    explicit = os.environ.get("DUPLICATE_ENGINE_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "duplicate-scrabble"


def _cache_path(key: str) -> Path:
    return cache_dir() / f"lexicon-{key[:32]}.dawg"


def _write_cache(path: Path, dawg: Arrays, gaddag: Arrays, height: list[int], words: int) -> None:
    header = array("I", [FORMAT, len(dawg[0]), len(dawg[2]), len(gaddag[0]), len(gaddag[2]), words])
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as tmp:
            tmp.write(_MAGIC)
            tmp.write(header.tobytes())
            for values in (*dawg, *gaddag):
                tmp.write(array("I", values).tobytes())
            tmp.write(array("i", height).tobytes())
        os.chmod(tmp.name, 0o644)
        os.replace(tmp.name, path)
    except OSError:
        pass  # an unwritable cache only costs the next process a compile


class _Mapped:
    """The arrays as buffers of 32-bit integers: views into the mapped cache file, or arrays
    made from the lists of a list compiled in this process."""

    __slots__ = ("dawg", "gaddag", "height")

    def __init__(
        self,
        dawg: tuple[memoryview, ...],
        gaddag: tuple[memoryview, ...],
        height: memoryview | None,
    ) -> None:
        self.dawg = dawg
        self.gaddag = gaddag
        self.height = height

    @classmethod
    def of(cls, dawg: Arrays, gaddag: Arrays) -> _Mapped:
        views = tuple(memoryview(array("I", values)) for values in (*dawg, *gaddag))
        return cls(views[:3], views[3:], None)


def _read_cache(path: Path) -> tuple[Arrays, _Mapped, int] | None:
    """The DAWG as lists, the rest as views into the file mapped read-only (shared by every
    process that loads it), and the number of words; None if the file is not a valid cache."""
    try:
        with open(path, "rb") as file:
            data = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):  # missing, unreadable, or empty (ValueError)
        return None
    if len(data) < 32 or data[:8] != _MAGIC:
        return None
    fmt, dn, de, gn, ge, words = array("I", data[8:32]).tolist()
    if fmt != FORMAT or (len(data) - 32) // 4 != 2 * dn + de + 3 * gn + ge:
        return None
    whole = memoryview(data)

    def part(start: int, length: int, kind: Literal["I", "i"] = "I") -> memoryview:
        return whole[32 + 4 * start : 32 + 4 * (start + length)].cast(kind)

    dawg = (part(0, dn).tolist(), part(dn, dn).tolist(), part(2 * dn, de).tolist())
    g = 2 * dn + de
    gaddag = (part(g, gn), part(g + gn, gn), part(g + 2 * gn, ge))
    mapped = _Mapped(
        (part(0, dn), part(dn, dn), part(2 * dn, de)), gaddag, part(g + 2 * gn + ge, gn, "i")
    )
    return dawg, mapped, words


Progress = Callable[[str, float], None]
"""Told, while a list compiles, what is being done and the fraction of the whole done so far."""

# The share of a compile each step takes (measured on ENABLE and a French list of 318,000 words).
_SHARES = (("reading the words", 0.03), ("the DAWG", 0.12), ("the GADDAG", 0.85))
_STEP = 1 << 15


def _phase(progress: Progress | None, index: int) -> Callable[[float], None] | None:
    if progress is None:
        return None
    name, share = _SHARES[index]
    before = sum(s for _, s in _SHARES[:index])
    return lambda fraction: progress(name, before + share * fraction)


def _step(progress: Progress, name: str) -> Callable[[float], None]:
    return lambda fraction: progress(name, fraction)


def _load(source: str, progress: Progress | None = None) -> Lexicon:
    name, data = _read_source(source)
    key = hashlib.sha256(data + f"/format{FORMAT}".encode()).hexdigest()
    path = _cache_path(key)
    cached = _read_cache(path)
    if cached is not None:
        dawg, mapped, words = cached
        if progress is not None:
            progress("read from the cache", 1.0)
        return Lexicon(name, key, dawg, None, words, mapped=mapped)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LexiconError(f"lexicon {name!r} is not UTF-8 text (byte {exc.start})") from None
    reading = _phase(progress, 0)
    clean = read_words(text, name)
    if reading is not None:
        reading(1.0)
    dawg = _compile(clean, _phase(progress, 1))
    gaddag = _compile(_gaddag_strings(clean), _phase(progress, 2))
    height = _heights(gaddag)
    _write_cache(path, dawg, gaddag, height, len(clean))
    if progress is not None:
        progress("compiled", 1.0)
    return Lexicon(name, key, dawg, gaddag, len(clean), height)


_load_cached = cache(_load)  # one compiled list per source and process


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.lexicon", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--warm", action="store_true", help="compile the lexicon into the disk cache"
    )
    parser.add_argument(
        "--lexicon", default=DEFAULT, help="enable (default), grammalecte-fr or a word-list file"
    )
    args = parser.parse_args(argv)
    shown = [-1]

    def tell(phase: str, fraction: float) -> None:
        percent = int(fraction * 100)
        if percent // 10 > shown[0] // 10 or percent == 100:
            shown[0] = percent
            print(f"{percent:3d}% {phase}", file=sys.stderr, flush=True)

    try:
        lex = Lexicon.load(args.lexicon, progress=tell if args.warm else None)
    except LexiconError as exc:
        print(f"engine.lexicon: {exc}", file=sys.stderr)
        return 2
    print(
        f"{lex.name}: {lex.words} words; DAWG {len(lex.mask)} nodes, {len(lex.target)} edges; "
        f"GADDAG {len(lex.gaddag[0])} nodes, {len(lex.gaddag[2])} edges; cache {cache_dir()}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
