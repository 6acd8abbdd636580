"""One concept, one definition (docs/style.md): each rule below lives in one module, and these
tests fail when a second definition of it appears in the code (``tournament``, ``arbiter``,
``web``, the scripts), so the copies cannot drift apart again. The behaviour tests that the
uses agree live beside each concept's own tests."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("tournament", "arbiter", "web")


def modules() -> Iterator[tuple[str, ast.Module]]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            yield str(path.relative_to(ROOT)), ast.parse(path.read_text(), str(path))


def places(match: Callable[[ast.AST], bool], *, home: set[str]) -> list[str]:
    """Where ``match`` holds outside the modules in ``home``, as path:line."""
    found = []
    for name, tree in modules():
        if name in home:
            continue
        found += [f"{name}:{getattr(node, 'lineno', 0)}" for node in ast.walk(tree) if match(node)]
    return found


def _says(node: ast.AST, *words: str) -> bool:
    text = ast.unparse(node)
    return any(word in text for word in words)


def test_the_deadline_plus_the_grace_is_defined_once():
    """``tournament.vocabulary.slips_end`` (used by ``Round.slip_refusal``, ``Round.closes_at``
    and the training's clock): no other code adds the grace to a deadline, or filters rounds
    on a deadline with the grace in it."""

    def deadline_and_grace(node: ast.AST) -> bool:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
            sides = (node.left, node.right)
            return any(_says(a, "deadline") for a in sides) and any(
                _says(b, "grace") for b in sides
            )
        if isinstance(node, ast.keyword) and node.arg and node.arg.startswith("deadline__"):
            return _says(node.value, "grace")
        return False

    assert places(deadline_and_grace, home={"tournament/vocabulary.py"}) == []


def test_the_closed_event_refusal_is_defined_once():
    """``tournament.services.closing.event_require_open``: no other code refuses because the
    event is closed (tests ``is_closed`` or the finished status itself before raising)."""

    def refuses_a_closed_event(node: ast.AST) -> bool:
        if not isinstance(node, ast.If):
            return False
        test = ast.unparse(node.test)
        if "is_closed" not in test and not ("FINISHED" in test and "event" in test.lower()):
            return False
        return any(isinstance(n, ast.Raise) for n in ast.walk(node))

    assert places(refuses_a_closed_event, home={"tournament/services/closing.py"}) == []


def _round_query(node: ast.AST, status: str) -> bool:
    """A query over rounds by ``status`` (``status=Round.Status.PUBLISHED``, ``status__in=
    Round.IN_PLAY``...), ordered or not."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    if node.func.attr not in {"filter", "exclude"}:
        return False
    target = ast.unparse(node.func.value)
    if not ("rounds" in target or "Round.objects" in target):
        return False
    return any(
        kw.arg in {"status", "status__in"} and status in ast.unparse(kw.value)
        for kw in node.keywords
    )


def _latest(node: ast.AST, status: str) -> bool:
    """``<rounds by status>.order_by("-number"...)``: the latest round of some status."""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    if node.func.attr != "order_by" or not any(
        isinstance(a, ast.Constant) and str(a.value).startswith("-") for a in node.args
    ):
        return False
    chain = node.func.value
    while isinstance(chain, ast.Call) and isinstance(chain.func, ast.Attribute):
        if _round_query(chain, status):
            return True
        chain = chain.func.value
    return False


def test_the_current_round_is_defined_once():
    """``tournament.selectors.round_in_play``, ``event_round_in_play`` and ``round_current``:
    no other code queries rounds for the ones in play, or takes the latest round not annulled."""

    def current(node: ast.AST) -> bool:
        return _round_query(node, "IN_PLAY") or _latest(node, "ANNULLED")

    assert places(current, home={"tournament/selectors.py"}) == []


def test_the_last_published_round_is_defined_once():
    """``tournament.selectors.round_last_published``: no other code orders a game's published
    rounds from the last to take the first."""

    def last_published(node: ast.AST) -> bool:
        return _latest(node, "PUBLISHED")

    assert places(last_published, home={"tournament/selectors.py"}) == []


def test_the_placed_ruling_codes_are_not_copied_into_the_scripts():
    """``arbiter.rules.PLACED_CODES`` reaches the phone's script through the page's state; the
    script holds no list of ruling codes of its own."""
    codes = re.compile(r"""["'](valid_warning|reference_penalty|final_letter_penalty)["']""")
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in sorted((ROOT / "static").rglob("*.js"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if codes.search(line)
    ]
    assert found == []


def test_the_policy_defaults_are_written_once():
    """``tournament.vocabulary.POLICY_DEFAULTS``: no field, dataclass attribute or argument
    named after a rule of the policy has the policy's default written again anywhere else."""
    import dataclasses

    from tournament.vocabulary import PolicyDefaults

    defaults = dataclasses.asdict(PolicyDefaults())
    names = set(defaults)

    def literal(node: ast.AST | None) -> bool:
        """A number written where the policy's own default is meant (its value again)."""
        return (
            isinstance(node, ast.Constant)
            and isinstance(node.value, int | bool)
            and node.value in defaults.values()
        )

    def own_default(node: ast.AST) -> bool:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if not any(isinstance(t, ast.Name) and t.id in names for t in targets):
                return False
            if literal(node.value):
                return True
            return isinstance(node.value, ast.Call) and any(
                kw.arg == "default" and literal(kw.value) for kw in node.value.keywords
            )
        if isinstance(node, ast.arguments):
            positional = [*node.posonlyargs, *node.args]
            pairs = list(
                zip(positional[len(positional) - len(node.defaults) :], node.defaults, strict=True)
            )
            pairs += list(zip(node.kwonlyargs, node.kw_defaults, strict=True))
            return any(arg.arg in names and literal(default) for arg, default in pairs)
        if isinstance(node, ast.Call) and any(
            isinstance(a, ast.Constant) and str(a.value).replace("-", "_").strip("_") in names
            for a in node.args
        ):  # parser.add_argument("--round-seconds", default=180)
            return any(kw.arg == "default" and literal(kw.value) for kw in node.keywords)
        return False

    assert places(own_default, home={"tournament/vocabulary.py"}) == []


def _text(node: ast.AST) -> str | None:
    """A string constant's text, or an f-string's with ``{}`` for each value it holds."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def test_the_staffs_sentences_are_written_once():
    """What the staff's page and the staff API say after a change is written beside its service
    (``event_closed_said``...): no face writes its own version of it."""
    name = r"(%\(\w+\)s|\{\})"
    sentences = {
        rf"{name} is closed: no new round": "tournament/services/closing.py",
        rf"{name} is open again": "tournament/services/closing.py",
        rf"{name} is no longer {name}": "tournament/services/users.py",
        rf"{name} has withdrawn: no slip is taken": "tournament/services/players.py",
        rf"{name} is back in the event": "tournament/services/players.py",
    }
    for sentence, home in sentences.items():

        def writes(node: ast.AST, sentence: str = sentence) -> bool:
            text = _text(node)
            return text is not None and re.search(sentence, text) is not None

        assert places(writes, home={home}) == [], sentence


def test_a_jobs_progress_is_written_one_way():
    """``tournament.services.progress.progress_report``: no other code writes a job's
    ``progress`` with its message (the start, 0, and the end, 100, are the claims' own)."""

    def writes_progress(node: ast.AST) -> bool:
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            return False
        if node.func.attr != "update":
            return False
        given = {kw.arg: kw.value for kw in node.keywords}
        value = given.get("progress")
        return value is not None and not isinstance(value, ast.Constant)

    assert places(writes_progress, home={"tournament/services/progress.py"}) == []


def test_no_code_reads_djangos_constraint_messages():
    """Each constraint says its rule itself (``violation_error_message``): no code matches
    Django's "Constraint “name” is violated." to replace it."""

    def reads(node: ast.AST) -> bool:
        text = _text(node)
        return text is not None and "is violated" in text

    assert places(reads, home=set()) == []


def test_a_ruling_is_named_by_one_function_in_the_readers_language():
    """``tournament.models.slip.ruling_label`` (from the one table, ``RULING_LABELS``): no
    other code looks a ruling's label up itself (a table of its own, a label made into words
    where it is read rather than where it is written: the live stream once sent English labels
    on a French event while the state sent French ones)."""

    def looks_a_label_up(node: ast.AST) -> bool:
        if isinstance(node, ast.Name) and node.id == "RULING_LABELS":
            return True
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "dict":
            return any(_says(a, "RULING_CHOICES") for a in node.args)
        if isinstance(node, ast.DictComp):
            return _says(node, "RULING_CHOICES")
        is_label = isinstance(node, ast.Attribute) and node.attr == "label"
        return is_label and _says(node, "RulingCode")

    home = {"tournament/vocabulary.py", "tournament/models/slip.py"}
    assert places(looks_a_label_up, home=home) == []
