"""Every refusal carries a ``code`` where it is made (docs/design.md: "a refusal is
``{"detail": ..., "code": ...}``"): a walk over every construction of the application's error
family (``tournament.errors.ApplicationError`` and its subclasses), of DRF's exceptions and of
Django's ``ValidationError`` in ``web/``, ``arbiter/`` and ``tournament/``, failing on one
made without a code. The codes are what programs switch on: a short snake_case word, stable.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("tournament", "arbiter", "web")
CODE = re.compile(r"[a-z][a-z0-9_]*\Z")
# DRF's exception classes (rest_framework.exceptions), each takes ``code=``.
DRF = {
    "APIException",
    "ValidationError",
    "ParseError",
    "AuthenticationFailed",
    "NotAuthenticated",
    "PermissionDenied",
    "NotFound",
    "MethodNotAllowed",
    "NotAcceptable",
    "UnsupportedMediaType",
    "Throttled",
}
DJANGO_VALIDATION = {"django.core.exceptions", "django.forms"}


@dataclass(frozen=True)
class Family:
    """A class whose constructions must say their code: where its ``code`` argument sits
    (``None``: given by its own ``__init__``, which the walk checks)."""

    name: str
    position: int | None  # index of ``code`` among the positional arguments, -1: keyword only


def _trees() -> dict[str, ast.Module]:
    return {
        path.relative_to(ROOT).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    }


def _base_names(node: ast.ClassDef) -> set[str]:
    return {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases}


def _init(node: ast.ClassDef) -> ast.FunctionDef | None:
    for item in node.body:
        if isinstance(item, ast.FunctionDef) and item.name == "__init__":
            return item
    return None


def _application_family(trees: dict[str, ast.Module]) -> dict[str, Family]:
    """ApplicationError and every project class deriving from it (or from a DRF exception):
    how each takes its code."""
    family = {"ApplicationError": Family("ApplicationError", -1)}
    roots = set(family) | {"APIException"}
    grew = True
    while grew:
        grew = False
        for tree in trees.values():
            for node in ast.walk(tree):
                if not isinstance(node, ast.ClassDef) or node.name in family:
                    continue
                if not _base_names(node) & (set(family) | roots):
                    continue
                init = _init(node)
                if init is None:
                    family[node.name] = Family(node.name, -1)
                else:
                    params = [a.arg for a in init.args.args[1:]]
                    kwonly = [a.arg for a in init.args.kwonlyargs]
                    position = (
                        params.index("code")
                        if "code" in params
                        else -1
                        if "code" in kwonly
                        else None
                    )
                    family[node.name] = Family(node.name, position)
                grew = True
    return family


def _imported(tree: ast.Module) -> dict[str, str]:
    """Each name the module imports -> the module it comes from."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def _kind(call: ast.Call, imported: dict[str, str], family: dict[str, Family]) -> str | None:
    """The error class the call constructs, when it is one the walk checks."""
    func = call.func
    if isinstance(func, ast.Name):
        origin = imported.get(func.id, "")
        if origin.startswith("rest_framework.exceptions.") and func.id in DRF:
            return f"drf.{func.id}"
        if func.id == "ValidationError" and origin.rsplit(".", 1)[0] in DJANGO_VALIDATION:
            return "django.ValidationError"
        if func.id in family and (
            not origin or origin.startswith(("tournament.", "arbiter.", "web."))
        ):
            return func.id
        return None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        module = imported.get(func.value.id, func.value.id)
        if module in {"rest_framework.exceptions", "exceptions"} and func.attr in DRF:
            return f"drf.{func.attr}"
        if module in {"django.forms", "forms"} and func.attr == "ValidationError":
            return "django.ValidationError"
        if func.attr in family and module.startswith(("tournament.", "arbiter.", "web.")):
            return func.attr
    return None


def _code_given(call: ast.Call, kind: str, family: dict[str, Family]) -> ast.expr | None | bool:
    """The code's expression, True when the class's own ``__init__`` gives it, None if none."""
    for keyword in call.keywords:
        if keyword.arg == "code":
            return keyword.value
    if kind in family:
        position = family[kind].position
        if position is None:
            return True
        if position >= 0 and len(call.args) > position:
            return call.args[position]
    return None


def _super_inits(tree: ast.Module, family: dict[str, Family]) -> list[tuple[int, str]]:
    """The family's own ``__init__``s: their ``super().__init__`` must pass a code (the one
    they were given, or their own)."""
    missing = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef) or node.name not in family:
            continue
        init = _init(node)
        if init is None or node.name == "ApplicationError":
            continue
        supers = [
            c
            for c in ast.walk(init)
            if isinstance(c, ast.Call)
            and isinstance(c.func, ast.Attribute)
            and c.func.attr == "__init__"
        ]
        if not supers or not all(any(k.arg == "code" for k in c.keywords) for c in supers):
            missing.append((init.lineno, node.name))
    return missing


def _walk() -> tuple[list[str], list[str], int]:
    trees = _trees()
    family = _application_family(trees)
    missing: list[str] = []
    malformed: list[str] = []
    seen = 0
    for where, tree in trees.items():
        imported = _imported(tree)
        for line, name in _super_inits(tree, family):
            missing.append(f"{where}:{line} {name}.__init__ gives no code to its base")
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            kind = _kind(node, imported, family)
            if kind is None:
                continue
            seen += 1
            code = _code_given(node, kind, family)
            if code is None:
                missing.append(f"{where}:{node.lineno} {kind}")
            elif isinstance(code, ast.Constant) and not (
                isinstance(code.value, str) and CODE.match(code.value)
            ):
                malformed.append(f"{where}:{node.lineno} {kind} code={code.value!r}")
    return missing, malformed, seen


def test_every_refusal_is_made_with_a_code() -> None:
    missing, _, seen = _walk()
    assert seen > 100  # the walk finds the raise sites (about 150 when this was written)
    assert missing == [], "Refusals made without a code:\n" + "\n".join(missing)


def test_every_literal_code_is_a_snake_case_word() -> None:
    _, malformed, _ = _walk()
    assert malformed == [], "Codes programs cannot switch on:\n" + "\n".join(malformed)


def test_the_walk_sees_a_refusal_without_a_code(tmp_path: Path) -> None:
    """The walk itself: a construction with no code is caught, one with a code is not."""
    tree = ast.parse(
        "from tournament.errors import ApplicationError\n"
        "from rest_framework import exceptions\n"
        "def f():\n"
        "    raise ApplicationError(gettext('No.'))\n"
        "def g():\n"
        "    raise ApplicationError(gettext('No.'), code='no')\n"
        "def h():\n"
        "    raise exceptions.NotAuthenticated()\n"
    )
    family = _application_family({"x.py": tree})
    imported = _imported(tree)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and _kind(n, imported, family)]
    assert [
        (c.lineno, _code_given(c, str(_kind(c, imported, family)), family) is None) for c in calls
    ] == [(4, True), (6, False), (8, True)]
