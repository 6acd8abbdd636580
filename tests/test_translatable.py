"""No English on a French event, by construction: every message a person reads that the
application raises (its error family, a page's 403 or 404, a refusal of a category or a number)
is made by a translation call where it is raised, never a bare English literal or f-string.
What programs read (codes, the CLIs, the management commands' terminal output) is not checked.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("tournament", "arbiter", "web")
SKIP = {"cli.py", "simulation.py"}  # the ruling CLI and the simulation speak to a terminal
TRANSLATORS = {"_", "gettext", "ngettext", "pgettext", "npgettext", "gettext_lazy", "say"}
# The application's error family and what pages show: a message in these reaches a person.
SHOWN = {"ApplicationError", "NotFound", "PermissionDenied", "Http404"}
# Errors whose first argument is a code for programs (their messages come after it).
CODE_FIRST = {"RoomResultsError"}
# The parsers whose ValueError becomes a refusal people read (categories, numbers).
PEOPLES_VALUE_ERRORS = {"tournament/categories.py", "web/inputs.py"}


def _errors_shown(trees: dict[Path, ast.Module]) -> set[str]:
    """SHOWN and every class of the project deriving from one of them."""
    names = set(SHOWN)
    grew = True
    while grew:
        grew = False
        for tree in trees.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in names:
                    bases = {
                        b.id if isinstance(b, ast.Name) else getattr(b, "attr", "")
                        for b in node.bases
                    }
                    if bases & names:
                        names.add(node.name)
                        grew = True
    return names


def _english(node: ast.expr) -> bool:
    """A literal with words in it (a string, an f-string, or an expression built on one)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and any(c.isalpha() for c in node.value)
    if isinstance(node, ast.JoinedStr):
        return any(_english(v) for v in node.values if isinstance(v, ast.Constant))
    if isinstance(node, ast.IfExp):
        return _english(node.body) or _english(node.orelse)
    if isinstance(node, ast.BinOp):
        if isinstance(node.left, ast.Call) and _name(node.left) in TRANSLATORS:
            return False
        return _english(node.left) or _english(node.right)
    return False


def _name(call: ast.Call) -> str:
    func = call.func
    return (
        func.id
        if isinstance(func, ast.Name)
        else func.attr
        if isinstance(func, ast.Attribute)
        else ""
    )


def test_every_message_people_read_is_made_by_a_translation_call() -> None:
    trees = {
        path: ast.parse(path.read_text(encoding="utf-8"))
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
        and "management" not in path.parts
        and path.name not in SKIP
    }
    shown = _errors_shown(trees)
    bare = []
    for path, tree in trees.items():
        where = path.relative_to(ROOT).as_posix()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = _name(node)
            people = name in shown or (name == "ValueError" and where in PEOPLES_VALUE_ERRORS)
            message = node.args[1] if name in CODE_FIRST and len(node.args) > 1 else node.args[0]
            if name in CODE_FIRST and len(node.args) == 1:
                continue
            if people and _english(message):
                bare.append(f"{where}:{node.lineno} {name}")
    assert bare == [], "English raised where it is made:\n" + "\n".join(bare)
