"""A round's legal moves a page at a time, as the console's moves page and the director API
show them (the faces' one definition of the page size and of a page asked for)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

MOVES_PER_PAGE = 200


def page_of(items: Sequence[T], asked: object) -> tuple[Sequence[T], int, int]:
    """The page ``asked`` (a query's text; anything but 1-9 digits is page 1, a page past the
    last is the last) of ``items``: the items shown, the page, the number of pages."""
    text = str(asked)
    page = int(text) if text.isascii() and text.isdigit() and 0 < len(text) < 10 else 1
    pages = max(1, -(-len(items) // MOVES_PER_PAGE))
    page = min(max(page, 1), pages)
    return items[(page - 1) * MOVES_PER_PAGE : page * MOVES_PER_PAGE], page, pages
