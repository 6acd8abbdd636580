"""The compile builds the very arrays the first version built: its algorithm (Daciuk et al.'s
incremental minimisation, nodes as dicts, written plainly) is kept here as the reference, and
the engine's faster version must give the same DAWG and GADDAG, array for array."""

from __future__ import annotations

import gzip
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.lexicon import TERMINAL, Arrays, Lexicon, _compile, _gaddag_strings
from engine.wordlist import read_words

FRENCH = Path(__file__).resolve().parent.parent / "data" / "fr-words.txt"


def reference_compile(words: list[str]) -> Arrays:
    """The first version's compile (engine/lexicon.py before the word lists' work)."""
    children: list[dict[int, int] | None] = [{}]
    final: list[bool] = [False]
    register: dict[tuple[bool, tuple[tuple[int, int], ...]], int] = {}
    unchecked: list[tuple[int, int, int]] = []

    def minimize(down_to: int) -> None:
        while len(unchecked) > down_to:
            parent, letter, child = unchecked.pop()
            kids = children[child]
            assert kids is not None
            sig = (final[child], tuple(kids.items()))
            same = register.get(sig)
            if same is not None:
                parent_kids = children[parent]
                assert parent_kids is not None
                parent_kids[letter] = same
                children[child] = None
            else:
                register[sig] = child

    previous = ""
    for word in words:
        common = 0
        for a, b in zip(word, previous, strict=False):
            if a != b:
                break
            common += 1
        minimize(common)
        node = unchecked[-1][2] if unchecked else 0
        for ch in word[common:]:
            new = len(children)
            children.append({})
            final.append(False)
            kids = children[node]
            assert kids is not None
            kids[ord(ch) - 65] = new
            unchecked.append((node, ord(ch) - 65, new))
            node = new
        final[node] = True
        previous = word
    minimize(0)
    index = {0: 0}
    order = [0]
    mask: list[int] = []
    first: list[int] = []
    target: list[int] = []
    i = 0
    while i < len(order):
        old = order[i]
        i += 1
        kids = children[old]
        assert kids is not None
        m = TERMINAL if final[old] else 0
        first.append(len(target))
        for letter, child in kids.items():
            m |= 1 << letter
            j = index.get(child)
            if j is None:
                j = index[child] = len(order)
                order.append(child)
            target.append(j)
        mask.append(m)
    return mask, first, target


def both_graphs_agree(words: list[str]) -> None:
    assert _compile(words) == reference_compile(words)
    strings = _gaddag_strings(words)
    assert _compile(strings) == reference_compile(strings)


@pytest.fixture(scope="module")
def enable_sample() -> list[str]:
    data = resources.files("engine").joinpath("data", "lexicons", "enable.txt.gz").read_bytes()
    return read_words(gzip.decompress(data).decode(), "enable")[::40]  # 4,200 words


def test_the_compile_of_a_sample_of_enable_is_the_reference_compile(enable_sample) -> None:
    both_graphs_agree(enable_sample)


def test_the_compile_of_the_french_test_list_is_the_reference_compile() -> None:
    both_graphs_agree(read_words(FRENCH.read_text("utf-8"), "fr-words.txt"))


@settings(max_examples=60, deadline=None)
@given(st.sets(st.text(alphabet="ABCDEZ", min_size=2, max_size=9), min_size=1, max_size=60))
def test_any_small_list_compiles_as_the_reference_does(words: set[str]) -> None:
    both_graphs_agree(sorted(words))


def test_a_compiled_list_knows_every_word_and_no_other(enable_sample) -> None:
    lexicon = Lexicon.from_words(enable_sample[:500])
    assert lexicon.iter_words() == enable_sample[:500]
