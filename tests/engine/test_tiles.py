"""Racks as arbiters call them, and the layouts' premiums as their files spell them."""

from __future__ import annotations

import pytest

from engine.board import Layout
from engine.tiles import rack_notation


def test_rack_notation_marks_the_leftover() -> None:
    assert rack_notation("ELTMOO?", "ELT") == "ELT+MOO?"
    assert rack_notation("AEEIRST", "EE") == "EE+AIRST"
    assert rack_notation("ELORTTW", "") == "ELORTTW"


def test_the_drawn_tiles_keep_the_racks_order_and_repeated_tiles_count_once_each() -> None:
    assert rack_notation("EEEIRST", "EE") == "EE+EIRST"


@pytest.mark.parametrize("name", ["standard", "tl-centre"])
def test_a_layouts_premium_codes_agree_with_its_multipliers(name: str) -> None:
    layout = Layout.load(name)
    multipliers = {".": (1, 1), "d": (2, 1), "t": (3, 1), "D": (1, 2), "T": (1, 3)}
    assert len(layout.rows) == 15 and all(len(row) == 15 for row in layout.rows)
    for r in range(15):
        for c in range(15):
            assert multipliers[layout.premium_code(r, c)] == layout.premium(r, c)


def test_the_standard_layout_reads_as_its_file_spells_it() -> None:
    layout = Layout.load("standard")
    assert layout.rows[0] == "T..d...T...d..T"
    assert layout.premium_code(7, 7) == "D"
