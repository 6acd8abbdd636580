"""Exports: game and event workbooks (.xlsx), the standings CSV and every sheet as CSV (zip).

``base`` is the one openpyxl writer (its rows of data written as XML by ``rows_xml``);
``sheets`` the sheets, each a generator of rows; ``front`` the Event sheet; ``workbooks`` puts
them together; ``jobs`` writes a large one in the background with its progress; ``views``
serves them as downloads, pages and staff API calls.
"""

from __future__ import annotations

from web.exports.workbooks import (
    categories_csv_write,
    event_csv_zip_write,
    event_sheets,
    event_workbook_bytes,
    event_workbook_write,
    game_csv_zip_write,
    game_sheets,
    game_workbook_bytes,
    game_workbook_write,
    ranking_csv_write,
    ranking_workbook_bytes,
    standings_csv_write,
)

__all__ = [
    "categories_csv_write",
    "event_csv_zip_write",
    "event_sheets",
    "event_workbook_bytes",
    "event_workbook_write",
    "game_csv_zip_write",
    "game_sheets",
    "game_workbook_bytes",
    "game_workbook_write",
    "ranking_csv_write",
    "ranking_workbook_bytes",
    "standings_csv_write",
]
