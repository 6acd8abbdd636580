"""Simultaneous events (issue 16.1): the remote room's results file itself, field by field: the
file exported and imported gives the same file back, what it leaves out, and every problem of a
bad file said where it is, before anything is imported.
"""

from __future__ import annotations

import json

import pytest

from arbiter.selectors.rooms import room_results
from arbiter.services.room_files import RoomResultsError
from arbiter.services.rooms import room_results_import
from tests.arbiter.rooms.helpers import _file
from tournament.errors import ApplicationError
from tournament.models import Round, Ruling, Submission
from tournament.services.rooms import room_create

pytestmark = pytest.mark.django_db


def _mended(document: dict, path: tuple, value: object) -> dict:
    """The document with the value at ``path`` (keys and indexes) replaced."""
    mended = json.loads(json.dumps(document))
    *parents, last = path
    here = mended
    for key in parents:
        here = here[key]
    here[last] = value
    return mended


GIL_RULING = ("players", 0, "rulings", 0)


NOT_A_GAME = 'Each game is {"number": N, "rounds": [...]}.'


@pytest.mark.parametrize(
    ("mend", "said"),
    [
        (lambda d: "not json", "Not a JSON file"),
        (lambda d: {**d, "format": "eliot"}, "Not a room results file"),
        (lambda d: {**d, "version": 2}, "Not a room results file"),
        (lambda d: {**d, "games": "x"}, '"games": a list'),
        (lambda d: {**d, "players": {}}, '"players": a list'),
        (
            lambda d: {
                **d,
                "games": [{"number": 1, "rounds": [{**d["games"][0]["rounds"][0], "rack": "QQQ"}]}],
            },
            "It is not this simultaneous's game",
        ),
        (lambda d: {**d, "games": [{"number": 3, "rounds": d["games"][0]["rounds"]}]}, "no round"),
        (
            lambda d: {**d, "players": [{**d["players"][0], "name": ""}]},
            "a player needs a name",
        ),
        (
            lambda d: {**d, "players": [{**d["players"][0], "table": 12_000}]},
            "table 12000 is not a table number: tables are 1 to 9,999.",
        ),
        (  # a line break in a name would split its SIGLES record, an escape break eliot.xml
            lambda d: {**d, "players": [{**d["players"][0], "name": "Ann\nBell"}]},
            'player #1: "Ann\\nBell" holds a control character (U+000A).',
        ),
        (
            lambda d: {**d, "players": [{**d["players"][0], "club": "Lyon\x1b[2J"}]},
            "holds a control character (U+001B).",
        ),
        (
            lambda d: {
                **d,
                "players": [
                    {**d["players"][0], "rulings": [{**d["players"][0]["rulings"][0], "code": "x"}]}
                ],
            },
            'unknown ruling code "x"',
        ),
        (
            lambda d: {
                **d,
                "players": [
                    {
                        **d["players"][0],
                        "rulings": [{**d["players"][0]["rulings"][0], "points": -3}],
                    }
                ],
            },
            "a whole number of 0 or more, not -3",
        ),
        (
            lambda d: {
                **d,
                "players": [{**d["players"][0], "rulings": d["players"][0]["rulings"] * 2}],
            },
            "two rulings for game 1 round 1",
        ),
    ],
)
def test_a_bad_file_is_refused_with_what_is_wrong(host, director, elsewhere, mend, said) -> None:
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    mended = mend(room_results(elsewhere))
    raw = mended.encode() if isinstance(mended, str) else json.dumps(mended).encode()
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=raw, actor=director)
    assert any(said in e for e in refused.value.errors), refused.value.errors
    assert not Round.objects.filter(game__event=remote).exists()


def test_a_file_imported_gives_the_same_file_back(host, director, elsewhere) -> None:
    """Every field of the file is kept as the room's arbiters made it, whatever its value: the
    room's file written again from what was imported is the file itself; and everything one
    import adds bears the import's one moment (the rounds' times, the slips, the rulings)."""
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    document = room_results(elsewhere)
    gil, hal, ivy = document["players"]
    gil.update(category="S2", series=1, age_category="Cadet")
    hal.update(category="", series=7, age_category="")
    # What the room's arbiters may have ruled beyond these plays: a warning and its cost, a
    # reference penalty, a solo, an average for a second zero, a slip with no score announced.
    gil["rulings"][1].update(warning=True, penalty=5, warning_penalty=3, solo=10, announced=None)
    gil["rulings"][1]["reason"] = "Amended: the reference is wrong (2016 rule)."
    ivy["rulings"][1].update(averaged=True, points=12)
    assert hal["rulings"][0]["rank"] > 1 and hal["rulings"][0]["move_score"]
    room_results_import(room=remote, raw=json.dumps(document).encode(), actor=director)
    again = room_results(remote)
    assert again["games"] == document["games"]
    assert again["players"] == document["players"]
    rounds = remote.games.get().rounds.all()
    moments = {t for r in rounds for t in (r.drawn_at, r.closed_at, r.scored_at, r.published_at)}
    moments |= {r.ruled_at for r in Ruling.objects.filter(round__in=rounds)}
    slips = Submission.objects.filter(round__in=rounds)
    moments |= {s.received_at for s in slips}
    assert len(moments) == 1 and None not in moments
    assert {s.source for s in slips} == {Submission.Source.ROOM_FILE}


def test_what_a_file_leaves_out_is_empty_or_zero(host, director, elsewhere) -> None:
    """A ruling or a player with only what is required (the round, the code, the word; the
    name) is imported with nothing else: no club or licence, no score, no warning."""
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    document = room_results(elsewhere)
    document["players"] = [
        {
            "name": p["name"],
            "rulings": [{k: r[k] for k in ("game", "round", "code", "word")} for r in p["rulings"]],
        }
        for p in document["players"]
    ]
    room_results_import(room=remote, raw=json.dumps(document).encode(), actor=director)
    again = room_results(remote)["players"]
    assert [p["name"] for p in again] == ["Gil", "Hal", "Ivy"]
    for p in again:
        assert {k: p[k] for k in ("club", "licence", "category", "age_category")} == dict.fromkeys(
            ("club", "licence", "category", "age_category"), ""
        )
        assert p["series"] is None and p["table"] is None
    nothing = {
        "ref": "",
        "announced": None,
        "move_score": None,
        "points": 0,
        "warning": False,
        "penalty": 0,
        "warning_penalty": 0,
        "solo": 0,
        "found_top": False,
        "rank": None,
        "averaged": False,
        "reason": "",
    }
    rulings = [r for p in again for r in p["rulings"]]
    assert len(rulings) == 6
    assert all({k: r[k] for k in nothing} == nothing for r in rulings), rulings


@pytest.mark.parametrize(
    ("path", "value", "problems"),
    [
        (("players", 0, "name"), "G" * 121, ["player #1: a text of at most 120 characters."]),
        (("players", 1, "club"), "M" * 121, ["player #2: a text of at most 120 characters."]),
        (("players", 0, "club"), 5, ["player #1: a text of at most 120 characters."]),
        (("players", 0, "licence"), "L" * 41, ["player #1: a text of at most 40 characters."]),
        (("players", 0, "category"), "S" * 41, ["player #1: a text of at most 40 characters."]),
        (("players", 0, "age_category"), "C" * 17, ["player #1: a text of at most 16 characters."]),
        (("players", 1, "age_category"), "Martian", ['player #2: unknown age category "Martian".']),
        (("players", 0, "series"), -1, ["player #1: a whole number of 0 or more, not -1."]),
        (("players", 2, "table"), "3", ['player #3: a whole number of 0 or more, not "3".']),
        (("players", 0, "rulings"), {}, ['player #1: "rulings" is a list.']),
        (("players", 0, "rulings", 0), 5, ["player #1: a ruling is an object."]),
        ((*GIL_RULING, "code"), "x", ['player #1: unknown ruling code "x".']),
        ((*GIL_RULING, "game"), "1", ['player #1: a whole number of 0 or more, not "1".']),
        ((*GIL_RULING, "round"), True, ["player #1: a whole number of 0 or more, not true."]),
        ((*GIL_RULING, "points"), None, ["player #1: a whole number of 0 or more, not null."]),
        ((*GIL_RULING, "penalty"), -5, ["player #1: a whole number of 0 or more, not -5."]),
        (
            (*GIL_RULING, "warning_penalty"),
            1.5,
            ["player #1: a whole number of 0 or more, not 1.5."],
        ),
        ((*GIL_RULING, "solo"), "10", ['player #1: a whole number of 0 or more, not "10".']),
        ((*GIL_RULING, "rank"), -1, ["player #1: a whole number of 0 or more, not -1."]),
        ((*GIL_RULING, "announced"), "9", ['player #1: a whole number of 0 or more, not "9".']),
        ((*GIL_RULING, "move_score"), -9, ["player #1: a whole number of 0 or more, not -9."]),
        (
            (*GIL_RULING, "word"),
            "W" * 16,
            [
                "player #1: a text of at most 15 characters.",
                "#1 Gil (Mtl), licence L-Gil, game 1 round 1: a slip has a word; only a missing "
                "slip has none.",
            ],
        ),
        ((*GIL_RULING, "ref"), "H10 ", []),  # spaces aside: the reference H10
        ((*GIL_RULING, "ref"), "H10AB", ["player #1: a text of at most 4 characters."]),
        ((*GIL_RULING, "reason"), "r" * 2001, ["player #1: a text of at most 2000 characters."]),
        (
            ("games", 0, "rounds", 0, "score"),
            -1,
            [
                "game 1, round 1: a whole number of 0 or more, not -1.",
                "Game 1, round 1: the file played ACCNOOR -> RACCOON H2 0; the simultaneous "
                "plays ACCNOOR -> RACCOON H2 78. It is not this simultaneous's game.",
            ],
        ),
        (
            ("games", 0, "rounds", 0, "rack"),
            "ACCNOORS",
            [
                "game 1, round 1: a text of at most 7 characters.",
                "Game 1, round 1: the file played ",
            ],
        ),
        (
            ("games", 0, "rounds", 0, "ref"),
            "H2ABC",
            [
                "game 1, round 1: a text of at most 4 characters.",
                "Game 1, round 1: the file played ",
            ],
        ),
        (
            ("games", 0, "rounds", 0, "word"),
            "RACCOONSRACCOONS",
            [
                "game 1, round 1: a text of at most 15 characters.",
                "Game 1, round 1: the file played ",
            ],
        ),
        (
            ("games", 0, "rounds", 1, "number"),
            3,
            [
                "game 1, round 2: the rounds are numbered 1, 2, 3... in order.",
                "#1 Gil (Mtl), licence L-Gil: a ruling for game 1 round 2, not in the file.",
                "#2 Hal (Mtl), licence L-Hal: a ruling for game 1 round 2, not in the file.",
                "#3 Ivy (Mtl): a ruling for game 1 round 2, not in the file.",
            ],
        ),
        (
            ("players", 2, "rulings", 0, "word"),
            "QAID",
            ["#3 Ivy (Mtl), game 1 round 1: a slip has a word; only a missing slip has none."],
        ),
    ],
)
def test_each_problem_of_a_file_says_where_it_is(
    host, director, elsewhere, path, value, problems
) -> None:
    """docs/interchange.md: every problem is listed with where it is, and nothing is imported.
    A message that ends with a space is the start of a longer one."""
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    document = room_results(elsewhere)
    raw = json.dumps(_mended(document, path, value)).encode()
    if not problems:
        assert room_results_import(room=remote, raw=raw, actor=director).rulings_added == 6
        assert (
            Submission.objects.get(player__event=remote, player__name="Gil", round__number=1).ref
            == "H10"
        )
        return
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=raw, actor=director)
    errors = refused.value.errors
    assert len(errors) == len(problems), errors
    for error, problem in zip(errors, problems, strict=True):
        assert error == problem or (problem.endswith(" ") and error.startswith(problem)), errors
    assert refused.value.data == {"code": "bad_file", "errors": errors}
    assert not Ruling.objects.filter(round__game__event=remote).exists()


@pytest.mark.parametrize(
    ("part", "value", "problems"),
    [
        ("games", "x", ['"games": a list of the room\'s games.']),
        (
            "games",
            [5, {"number": 2}],
            ['"games": a whole number of 0 or more, not null.', NOT_A_GAME, NOT_A_GAME],
        ),
        (
            "games",
            [{"number": "1", "rounds": []}, {"number": 1, "rounds": None}],
            ['"games": a whole number of 0 or more, not "1".', NOT_A_GAME, NOT_A_GAME],
        ),
        ("players", {}, ['"players": a list of the room\'s players.']),
        (
            "players",
            [{"name": ""}, "x", {"name": 5}, {"name": "Jo"}],
            [
                "player #1: a player needs a name.",
                "player #2: a player needs a name.",
                "player #3: a player needs a name.",
            ],
        ),
        (
            "players",
            [{"name": "Jo", "rulings": {}}, {"name": "Kim", "rulings": 5}],
            ['player #1: "rulings" is a list.', 'player #2: "rulings" is a list.'],
        ),
    ],
)
def test_a_file_of_the_wrong_shape_lists_every_problem(
    host, director, elsewhere, part, value, problems
) -> None:
    """Each game and each player is read even after a bad one, so that all are listed."""
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    document = {**room_results(elsewhere), "players": [], part: value}
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=_file(document), actor=director)
    assert refused.value.errors == problems
    assert not Round.objects.filter(game__event=remote).exists()


def test_a_file_over_40_mb_is_refused_before_it_is_read(host, director) -> None:
    from arbiter.services.room_files import MAX_BYTES

    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    assert MAX_BYTES == 40 * 1024 * 1024
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=b" " * (MAX_BYTES + 1), actor=director)
    assert refused.value.data == {
        "code": "bad_file",
        "errors": ["The file is over 40 MB (41,943,041 bytes): at most 40 MB are read."],
    }
    with pytest.raises(RoomResultsError) as refused:  # 40 MB is not over: it is read
        room_results_import(room=remote, raw=b" " * MAX_BYTES, actor=director)
    assert refused.value.errors[0].startswith("Not a JSON file")


def test_what_is_not_a_room_results_file_is_refused_word_for_word(host, director) -> None:
    remote = room_create(host=host, name="Montréal", actor=director, remote=True)
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=b"{", actor=director)
    assert refused.value.data["code"] == "bad_file"
    assert refused.value.errors[0] == "Not a JSON file: parse error: premature EOF."
    with pytest.raises(RoomResultsError) as refused:
        room_results_import(room=remote, raw=b'{"format": "eliot"}', actor=director)
    assert refused.value.data == {
        "code": "bad_file",
        "errors": [
            'Not a room results file: it starts {"format": "duplicate-room-results", '
            '"version": 1} (the file a room\'s event page exports).'
        ],
    }
    lyon = room_create(host=host, name="Lyon", actor=director)
    with pytest.raises(ApplicationError) as refused_room:
        room_results_import(room=lyon, raw=b"{}", actor=director)
    assert str(refused_room.value.message) == (
        "Lyon is not a remote room of a simultaneous event: its results are its own rulings, "
        "not a file."
    )
