"""The ruling contract: ``python -m arbiter batch``, JSON lines in, one ruling out per line."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from arbiter.cli import rule_line, run
from engine.board import Layout
from engine.lexicon import Lexicon
from engine.tiles import TileSet

HORN = ["." * 15] * 7 + [".....HORN......"] + ["." * 15] * 7  # HORN at H6
ENABLE = Lexicon.load()
EN = TileSet.load("en")
STANDARD = Layout.load("standard")


def request(slip: dict[str, object], **extra: object) -> str:
    line = {"op": "rule", "board": HORN, "rack": "AFMEIOT", "round": 2, "slip": slip, **extra}
    return json.dumps(line)


def rule(slip: dict[str, object], **extra: object) -> dict[str, object]:
    return rule_line(request(slip, **extra), ENABLE, EN, STANDARD)


BEFORE = {"rulebook": "before-2023"}


def test_the_rulebook_examples_through_the_command_line() -> None:
    """rules.md's examples under before-2023 (an event played before the regulation in
    force)."""
    slips = [
        {"word": "FARM", "ref": "8F", "score": 9},
        {"word": "FARM", "ref": "8G", "score": 9},
        {"word": "FARM", "ref": "10E", "score": 9},
        {"word": "FARM", "ref": "", "score": 9},
        {"word": "FARM", "ref": "10E", "score": 8},
    ]
    stdin = "".join(request(s, policy=BEFORE) + "\n" for s in slips) + "not json\n"
    done = subprocess.run(
        [sys.executable, "-m", "arbiter", "batch"],
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a.get("net") for a in answers[:5]] == [9, 4, 4, 4, 0]
    assert [a.get("code") for a in answers[:5]] == [
        "valid",
        "reference_penalty",
        "reference_penalty",
        "reference_penalty",
        "not_on_rack",
    ]
    assert set(answers[0]) == {
        "code",
        "points",
        "penalty",
        "warning",
        "net",
        "move_score",
        "found_top",
        "rank",
        "reason",
        "article",
    }
    assert [a.get("article") for a in answers[:5]] == [
        "1",
        "18 · FISF 5.3.1",  # 8G for 8F: shifted by one square
        "4 · FISF 5.3.1",
        "4 · FISF 5.3.1",
        "6",
    ]
    assert "error" in answers[5] and len(answers) == 6


def test_a_score_missing_late_multiple_and_the_policy_overrides() -> None:
    assert rule({"word": "FARM", "ref": "8F", "score": None})["warning"] is True
    assert rule({"word": "FARM", "ref": "8F", "score": 9, "late": True})["code"] == "late"
    assert rule({"word": "FARM", "ref": "8F", "score": 9, "multiple": True})["code"] == "multiple"
    off = rule(
        {"word": "FARM", "ref": "8G", "score": 9}, policy={**BEFORE, "reference_rule_2016": False}
    )
    assert (off["code"], off["net"]) == ("bad_reference", 0)
    three = rule({"word": "FARM", "ref": "8G", "score": 9}, policy={"reference_penalty": 3})
    assert three["net"] == 6


def test_the_regulation_in_force_is_the_default_and_each_ruling_cites_its_article() -> None:
    """FISF 2023 through the CLI: an inverted reference (5.3), a score elsewhere less 5
    (5.3.3), the arbiter's fallacious junction (5.3.3), a blitz's free warnings are the
    policy's (5.9, the services count them)."""
    inverted = rule({"word": "FARM", "ref": "F8", "score": 9})
    assert (inverted["code"], inverted["net"], inverted["warning"]) == ("valid_warning", 9, True)
    assert inverted["article"] == "FISF 2023 · 5.3"
    elsewhere = rule({"word": "FARM", "ref": "9F", "score": 9})
    assert (elsewhere["net"], elsewhere["article"]) == (4, "FISF 2023 · 5.3.3")
    fallacious = rule({"word": "FARM", "ref": "9F", "score": 9, "fallacious": True})
    assert (fallacious["code"], fallacious["net"]) == ("fallacious_junction", 0)
    assert rule({"word": "FARM", "ref": "F8", "score": 9}, policy=BEFORE)["net"] == 0
    blitz = rule({"word": "FARM", "ref": "8F", "score": 9}, policy={"blitz_or_original": True})
    assert blitz["code"] == "valid"


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("[1, 2]", "JSON object"),
        ('{"op": "score"}', 'unknown "op"'),
        (request({"word": "FARM", "ref": "8F", "score": 9}, round=0), '"round"'),
        (request({"word": "FARM", "ref": "8F", "score": -1}), '"slip.score"'),
        (request({"word": 7}), '"slip.word"'),
        (request({"word": "FARM", "ref": None}), '"slip.ref"'),
        (request({"word": "FARM", "late": "yes"}), '"slip.late"'),
        (request({"word": "FARM"}, policy={"solo": 1}), '"policy" has no solo'),
        (request({"word": "FARM"}, policy={"solo_bonus": -1}), '"policy.solo_bonus"'),
        (request({"word": "FARM"}, policy=[1]), '"policy" must be an object'),
        (request({"word": "FARM"}, policy={"rulebook": "2016"}), '"policy.rulebook" must be'),
        (request({"word": "FARM"}, policy={"blitz_or_original": 1}), "true or false"),
        (request({"word": "FARM", "fallacious": "yes"}), '"slip.fallacious"'),
        (request({"word": "FARM"}, rack=""), "rack"),
        (request({"word": "FARM"}, board=["..."]), "15"),
        (request("FARM 8F"), '"slip" must be an object'),  # type: ignore[arg-type]
    ],
)
def test_a_line_that_cannot_be_read_answers_an_error_and_the_batch_goes_on(
    line: str, error: str
) -> None:
    answer = rule_line(line, ENABLE, EN, STANDARD)
    assert set(answer) == {"error"} and error in str(answer["error"]), answer


def test_a_bad_command_line_exits_2_with_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "arbiter", "batch", "--tiles", "xx"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "python -m arbiter: error:" in done.stderr


def test_blank_lines_are_skipped_and_answers_come_in_order() -> None:
    out = io.StringIO()
    lines = [request({"word": "FARM", "ref": "8F", "score": s}) for s in (9, 10)]
    run(["batch"], io.StringIO(lines[0] + "\n\n" + lines[1] + "\n"), out)
    answers = [json.loads(x) for x in out.getvalue().splitlines()]
    assert [a["code"] for a in answers] == ["valid", "valid_warning"]


def test_a_line_names_the_game_s_formula() -> None:
    """docs/formulas.md: racks of up to nine tiles and the formula's bonuses and limit."""
    empty = ["." * 15] * 15
    line = {"op": "rule", "board": empty, "rack": "ADEINRST", "round": 1}
    slip = {"word": "STRAINED", "ref": "H1", "score": 135}
    seven_and_eight = rule_line(
        json.dumps({**line, "formula": "7et8", "slip": slip}), ENABLE, EN, STANDARD
    )
    assert (seven_and_eight["code"], seven_and_eight["net"]) == ("valid", 135)
    seven_of_eight = rule_line(
        json.dumps({**line, "formula": "7sur8", "slip": slip}), ENABLE, EN, STANDARD
    )
    assert (seven_of_eight["code"], seven_of_eight["article"]) == (
        "not_on_rack",
        "FISF 2023 · 5.4.1.d",
    )
    standard = rule_line(json.dumps({**line, "slip": slip}), ENABLE, EN, STANDARD)
    assert "at most 7" in standard["error"]
    unknown = rule_line(
        json.dumps({**line, "formula": "9sur10", "slip": slip}), ENABLE, EN, STANDARD
    )
    assert set(unknown) == {"error"}
