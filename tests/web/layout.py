"""Layout checks for the browser tests: what a page looks like, measured in the browser, not
its text. A board is 15 rows of 15 square cells of one size, in order, inside the window; a
phone page never scrolls sideways."""

from __future__ import annotations

from typing import Any

# Every cell's box, as the browser laid it out.
_BOXES = """(selector) => Array.from(document.querySelectorAll(selector)).map((e) => {
  const r = e.getBoundingClientRect();
  return {x: r.left, y: r.top, w: r.width, h: r.height, text: e.textContent.trim()};
})"""


def board_boxes(page: Any, cells: str) -> list[dict[str, float | str]]:
    """The boxes of the board's 225 cells (``cells`` selects them, row by row)."""
    return list(page.evaluate(_BOXES, cells))


def assert_square_board(page: Any, cells: str, *, tiles: int, tolerance: float = 1.0) -> None:
    """The board drawn by ``cells`` is a 15x15 grid of equal square cells, rows and columns
    in order, with ``tiles`` cells holding a tile, all inside the window."""
    boxes = board_boxes(page, cells)
    assert len(boxes) == 225, f"{len(boxes)} cells, not 15x15"
    size = float(boxes[0]["w"])
    assert size >= 8, f"cells {size:.1f}px wide: not a board one can read"
    for i, box in enumerate(boxes):
        w, h = float(box["w"]), float(box["h"])
        where = f"cell {'ABCDEFGHIJKLMNO'[i // 15]}{i % 15 + 1} ({box['text'] or 'empty'})"
        assert abs(w - size) <= tolerance, f"{where} is {w:.1f}px wide, the first {size:.1f}px"
        assert abs(h - size) <= tolerance, f"{where} is {h:.1f}px high, not square ({size:.1f})"
    for r in range(15):
        row = boxes[r * 15 : r * 15 + 15]
        ys = {round(float(b["y"])) for b in row}
        assert max(ys) - min(ys) <= tolerance, f"row {'ABCDEFGHIJKLMNO'[r]} is not one line: {ys}"
        xs = [float(b["x"]) for b in row]
        assert xs == sorted(xs) and xs[-1] - xs[0] >= 14 * size - 15 * tolerance, (
            f"row {'ABCDEFGHIJKLMNO'[r]} is not 15 cells side by side: {xs}"
        )
    tops = [float(boxes[r * 15]["y"]) for r in range(15)]
    assert tops == sorted(tops) and tops[-1] - tops[0] >= 14 * size - 15 * tolerance
    assert sum(1 for b in boxes if b["text"]) == tiles
    width = page.evaluate("window.innerWidth")
    right = max(float(b["x"]) + float(b["w"]) for b in boxes)
    left = min(float(b["x"]) for b in boxes)
    assert left >= 0 and right <= width, f"the board runs from {left}px to {right}px of {width}"


def assert_no_horizontal_scroll(page: Any) -> None:
    """The page is no wider than the window: nothing to scroll sideways."""
    scroll = page.evaluate("document.documentElement.scrollWidth")
    width = page.evaluate("window.innerWidth")
    assert scroll <= width, f"{page.url}: {scroll}px wide in a {width}px window"
