"""One permission mechanism (issue 27): every face, the console's pages and the API alike,
refuses through ``web.permissions``, so a refusal reads the same wherever it is met and a
change to the rule is made in one place. A second copy of a refusal in a face is a second
role check, already drifting; this test fails when one appears."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REFUSALS = (
    "No such event, or you have no role in it.",  # no role in the event: as if it did not exist
    "role in %(event)s.",  # the wrong role: "This needs the director role in <event>."
)


@pytest.mark.parametrize("sentence", REFUSALS)
def test_each_role_refusal_is_written_once_in_the_permissions(sentence: str) -> None:
    found = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "web").rglob("*.py"))
        for _ in range(path.read_text().count(sentence))
    ]
    assert found == ["web/permissions.py"]
