"""engine.interchange: problems said with where they are, the size and encoding checks, and
JSON read with its nesting measured before any parser builds it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import interchange
from engine.interchange import (
    InterchangeError,
    Problem,
    check_json_depth,
    check_utf8,
    read_json,
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**9), 10**9) | st.text(alphabet='[]{}"\\ab\n'),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.text(alphabet='[]{}"\\a', max_size=4), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(value=json_values, piece=st.integers(1, 64))
def test_the_brackets_outside_strings_are_found_whatever_the_pieces_they_are_read_in(
    value: object, piece: int
) -> None:
    text = json.dumps(value).encode()
    strings_aside = interchange._JSON_STRING.sub(b"", text)
    want = bytes(b for b in strings_aside if b in b"[]{}")
    assert interchange._brackets(text, piece) == want


@settings(max_examples=100, deadline=None)
@given(value=json_values)
def test_any_document_within_the_limits_reads_as_json_reads_it(value: object) -> None:
    text = json.dumps(value).encode()
    assert read_json(text, max_bytes=10**6) == json.loads(text)


def test_depth_is_measured_without_counting_brackets_inside_strings() -> None:
    check_json_depth(json.dumps({"name": "[" * 100}).encode(), max_depth=2)
    with pytest.raises(InterchangeError, match="nested more than 2 levels deep"):
        check_json_depth(b'{"a": [[1]]}', max_depth=2)
    with pytest.raises(InterchangeError, match="holds 3 objects and lists: at most 2 are read"):
        check_json_depth(b'{"a": [], "b": []}', max_depth=5, max_containers=2)


def test_a_text_not_in_utf8_is_named_with_its_byte_and_where_it_is() -> None:
    with pytest.raises(InterchangeError) as refused:
        check_utf8("ligne 1\nZoé".encode("cp1252"))
    (problem,) = refused.value.problems
    assert str(problem) == (
        "line 2: the file is not UTF-8: byte 0xE9 at column 3 is not UTF-8 (a file saved as "
        "Latin-1 or Windows-1252?); save it as UTF-8"
    )


def test_a_problem_is_said_in_the_words_given_to_it() -> None:
    problem = Problem(3, "Turn", "turn %(number)d", {"number": 2})
    french = {
        "turn %(number)d": "tour %(number)d",
        "line %(line)d, <%(element)s>: %(message)s": (
            "ligne %(line)d, <%(element)s> : %(message)s"
        ),
    }
    assert problem.text(lambda m: french.get(m, m)) == "ligne 3, <Turn> : tour 2"
    assert str(problem) == "line 3, <Turn>: turn 2"
