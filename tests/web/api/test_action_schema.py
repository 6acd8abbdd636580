"""The schema of the game actions cannot omit a field (issue 27.4): each action's body in the
OpenAPI schema is made from ``actions.ACTION_FIELDS``, and a walk over ``web/console/actions.py``
checks that every field an action's function reads is declared there with the kind it is read
as, and that nothing declared goes unread. The fields the schema once left out (``averaged``,
``warning``, ``existing``, ``round``, ``kept``) are there, the yes/no ones as JSON booleans."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from web.console.actions import ACTION_FIELDS, ACTIONS

SOURCE = Path(__file__).resolve().parents[3] / "web" / "console" / "actions.py"
# How the actions read their body: helper -> (the field it reads, or None: its 2nd argument;
# the kinds it reads as).
READERS: dict[str, tuple[str | None, set[str]]] = {
    "_int": (None, {"int"}),
    "_text": (None, {"text", "one_of"}),
    "_ref": ("ref", {"ref"}),
    "_flag": (None, {"flag"}),
    "_choice": (None, {"choice"}),
    "_player_at": ("table", {"int"}),
}


def _reads() -> dict[str, dict[str, set[str]]]:
    """Each action -> each field its function reads -> the kinds it may be declared as."""
    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    table = next(
        n
        for n in tree.body
        if isinstance(n, ast.AnnAssign)
        and isinstance(n.target, ast.Name)
        and n.target.id == "ACTIONS"
    )
    assert isinstance(table.value, ast.Dict)
    reads: dict[str, dict[str, set[str]]] = {}
    for key, value in zip(table.value.keys, table.value.values, strict=True):
        assert isinstance(key, ast.Constant) and isinstance(value, ast.Tuple)
        function = value.elts[1]
        assert isinstance(function, ast.Name)
        found: dict[str, set[str]] = {}
        for node in ast.walk(functions[function.id]):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id not in READERS:
                continue
            field, kinds = READERS[node.func.id]
            if field is None:
                name = node.args[1]
                assert isinstance(name, ast.Constant), ast.dump(node)
                field = str(name.value)
            found[field] = found.get(field, set()) | kinds
        reads[str(key.value)] = found
    return reads


def test_every_field_an_action_reads_is_declared_with_its_kind_and_nothing_more() -> None:
    reads = _reads()
    assert set(reads) == set(ACTIONS) == set(ACTION_FIELDS)
    for action, fields in reads.items():
        declared = ACTION_FIELDS[action]
        assert set(fields) == set(declared), (action, set(fields) ^ set(declared))
        for name, kinds in fields.items():
            assert declared[name].kind in kinds, (action, name, declared[name].kind, kinds)


def test_the_walk_sees_a_field_read_and_not_declared(monkeypatch) -> None:
    """The walk itself: dropping a field the amendment reads is caught."""
    without = {k: v for k, v in ACTION_FIELDS["amend"].items() if k != "averaged"}
    monkeypatch.setitem(ACTION_FIELDS, "amend", without)
    with pytest.raises(AssertionError, match="averaged"):
        test_every_field_an_action_reads_is_declared_with_its_kind_and_nothing_more()


@pytest.mark.django_db
def test_the_served_schema_has_each_actions_body_with_every_field(client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]
    for path in (
        "/api/v1/events/{slug}/games/{number}/{action}",
        "/api/v1/staff/events/{slug}/games/{number}/{action}",
    ):
        body = schema["paths"][path]["post"]["requestBody"]["content"]["application/json"]
        union = components[body["schema"]["$ref"].rsplit("/", 1)[1]]
        shapes = [ref["$ref"].rsplit("/", 1)[1] for ref in union["oneOf"]]
        # the actions that read a body (draw, open, pause... take none: {} is theirs)
        assert sorted(shapes) == sorted(
            "Action" + "".join(part.capitalize() for part in action.split("_"))
            for action, fields in ACTION_FIELDS.items()
            if fields
        )
    assert schema["paths"]["/api/v1/staff/events/{slug}/games/{number}/{action}"]["post"][
        "deprecated"
    ]
    for action, fields in ACTION_FIELDS.items():
        name = "Action" + "".join(part.capitalize() for part in action.split("_"))
        if fields:
            assert set(components[name]["properties"]) == set(fields), action
    amend = components["ActionAmend"]["properties"]
    assert amend["averaged"]["type"] == amend["warning"]["type"] == "boolean"
    assert amend["averaged"]["nullable"] and amend["late"]["nullable"]
    assert components["ActionSlip"]["properties"]["late"]["type"] == "boolean"
    assert {"existing", "round", "kept"} <= {
        field for fields in ACTION_FIELDS.values() for field in fields
    }
    assert "round" in components["ActionDiscipline"]["properties"]
    assert "existing" in components["ActionSlip"]["properties"]
    assert "kept" in components["ActionResolve"]["properties"]
    assert "/api/v1/events/{slug}/games/{number}/rounds/{round_number}" in schema["paths"]


@pytest.mark.django_db
def test_the_director_apis_answers_are_their_schemas(client) -> None:
    """Each answer is rendered through the serializer the schema is made from: the keys a
    client reads are the properties the schema lists, every rule of the policy included."""
    from rest_framework.test import APIClient

    from tests.factories import EventFactory, EventRoleFactory, PlayerFactory, UserFactory
    from tournament.services.events import POLICY_FIELDS

    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]
    event = EventFactory(slug="club-night")
    director = UserFactory()
    EventRoleFactory(event=event, user=director, role="director")
    PlayerFactory(event=event, name="Ann", table=1)
    api = APIClient()
    api.force_login(director)
    base = "/api/v1/events/club-night"
    assert api.post(f"{base}/games", {"seed": 7}, format="json").status_code == 201
    assert api.post(f"{base}/games/1/draw", {}, format="json").status_code == 200
    answers = {
        "EventOut": api.get(base).json(),
        "GameOut": api.get(f"{base}/games").json()[0],
        "GameState": api.get(f"{base}/games/1").json(),
        "StandingsOut": api.get(f"{base}/standings").json(),
        "RoomOut": api.get(f"{base}/rooms").json()[0],
    }
    for name, answer in answers.items():
        assert set(answer) == set(components[name]["properties"]), name
    assert set(answers["EventOut"]["policy"]) == set(POLICY_FIELDS)
    assert set(components["Policy"]["properties"]) == set(POLICY_FIELDS)
    assert set(answers["GameState"]["round"]) == set(components["RoundState"]["properties"])
    operation = schema["paths"]["/api/v1/events/{slug}/games/{number}"]["get"]
    body = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert body["$ref"].endswith("/GameState")
