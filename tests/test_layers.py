"""The layers point one way: ``engine`` <- ``tournament`` <- ``arbiter`` <- ``web``.

A module may import its own layer and the layers below it, never one above; ``config`` (the
settings, the root URLs, the Celery app) sits on top and only its typed environment helpers
may be imported from below. The pure modules (the rulings, the shared vocabulary) import no
Django, so the ruling CLI runs without a database.

Inside ``web``, the faces are siblings over one core: a face package (the HTML console, the
API, the exports...) imports the core (the modules directly in ``web/``) and never another
face; the core imports no face, but for the places that put the faces together (the URLs,
the app's start, the task names, the management commands).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("engine", "tournament", "arbiter", "web")
# What a layer may take from config: the typed environment helpers (no settings, no URLs).
CONFIG_ALLOWED = {"config.env"}
PURE = ("tournament.vocabulary", "tournament.errors", "arbiter.rules", "arbiter.cli")
FORBIDDEN_IN_PURE = (
    "django",
    "rest_framework",
    "celery",
    "kombu",
    "redis",
    "psycopg",
    "web",
    "config",
)


def imports_of(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports, with its line (imports inside functions count too)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
            if node.module == "web":  # ``from web import console`` names a package of web
                found += [(node.lineno, f"web.{alias.name}") for alias in node.names]
    return found


# The faces of ``web``: each a package that serves its own readers, over the core.
FACES = (
    "api",
    "console",
    "exports",
    "printing",
    "screen",
    "play",
    "public",
    "training",
    "history",
    "live",
)
# The core's modules that put the faces together, and so name them.
ASSEMBLY = ("web/urls.py", "web/apps.py", "web/tasks.py", "web/management/")


def _face_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "web" and parts[1] in FACES else None


def face_violations(root: Path) -> list[str]:
    """Every import of a face by another face, or by the core outside its assembly points."""
    violations = []
    for path in sorted((root / "web").rglob("*.py")):
        where_from = path.relative_to(root).as_posix()
        own = _face_of(where_from.removesuffix(".py").replace("/", "."))
        for line, module in imports_of(path):
            face = _face_of(module)
            if face is None or face == own:
                continue
            where = f"{where_from}:{line} imports {module}"
            if own is not None:
                violations.append(f"{where} (the face {own} imports the face {face})")
            elif not where_from.startswith(ASSEMBLY):
                violations.append(f"{where} (the core imports the face {face})")
    return violations


def layer_violations(root: Path) -> list[str]:
    rank = {name: i for i, name in enumerate(LAYERS)}
    violations = []
    for layer in LAYERS:
        for path in sorted((root / layer).rglob("*.py")):
            for line, module in imports_of(path):
                top = module.split(".")[0]
                where = f"{path.relative_to(root)}:{line} imports {module}"
                if top in rank and rank[top] > rank[layer]:
                    violations.append(f"{where} ({top} is above {layer})")
                elif top == "config" and module not in CONFIG_ALLOWED:
                    violations.append(f"{where} (config sits on top of every layer)")
    return violations


def test_no_layer_imports_a_layer_above_it() -> None:
    assert layer_violations(ROOT) == []


def test_the_check_catches_an_upward_import(tmp_path: Path) -> None:
    for layer in LAYERS:
        (tmp_path / layer).mkdir()
    (tmp_path / "tournament" / "bad.py").write_text(
        "def f():\n    from arbiter.rules import Code\n"
    )
    (tmp_path / "arbiter" / "worse.py").write_text(
        "import web.console.views\nfrom config.settings import DEBUG\n"
    )
    (tmp_path / "web" / "fine.py").write_text(
        "from arbiter import rules\nfrom config.env import env_int\n"
    )
    assert sorted(layer_violations(tmp_path)) == [
        "arbiter/worse.py:1 imports web.console.views (web is above arbiter)",
        "arbiter/worse.py:2 imports config.settings (config sits on top of every layer)",
        "tournament/bad.py:2 imports arbiter.rules (arbiter is above tournament)",
    ]


def test_no_face_imports_another_face() -> None:
    assert face_violations(ROOT) == []


def test_the_check_catches_a_face_importing_a_face(tmp_path: Path) -> None:
    for folder in ("web/api", "web/console", "web/management/commands"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "web" / "api" / "staff.py").write_text(
        "from web.console.actions import ACTIONS\nfrom web.api import errors\n"
        "from web import actions\nfrom web.forms import EventForm\nfrom web import exports\n"
    )
    (tmp_path / "web" / "console" / "views.py").write_text(
        "def f():\n    import web.exports.jobs\n"
    )
    (tmp_path / "web" / "outage.py").write_text("from web.api.authentication import COOKIE\n")
    (tmp_path / "web" / "urls.py").write_text("from web.api.urls import patterns\n")
    (tmp_path / "web" / "management" / "commands" / "export.py").write_text(
        "from web.exports import event_workbook_write\n"
    )
    assert face_violations(tmp_path) == [
        "web/api/staff.py:1 imports web.console.actions (the face api imports the face console)",
        "web/api/staff.py:5 imports web.exports (the face api imports the face exports)",
        "web/console/views.py:2 imports web.exports.jobs"
        " (the face console imports the face exports)",
        "web/outage.py:1 imports web.api.authentication (the core imports the face api)",
    ]


@pytest.mark.parametrize("module", PURE)
def test_the_pure_modules_load_no_django(module: str) -> None:
    code = (
        f"import sys, {module}\n"
        "print(','.join(sorted(m for m in sys.modules "
        f"if m.split('.')[0] in {FORBIDDEN_IN_PURE!r})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip() == ""


def test_templates_and_static_files_live_in_one_folder_per_face() -> None:
    faces = {"console", "play", "screen", "exports", "printing", "training", "public", "history"}
    templates = {p.name for p in (ROOT / "templates").iterdir() if p.is_dir()}
    static = {p.name for p in (ROOT / "static").iterdir() if p.is_dir()}
    # registration/ and admin/ are Django's own folders, overridden where they are looked for
    assert templates <= faces | {"registration", "admin"}
    assert static <= faces
    collected = {ROOT / "var" / "static"}  # the embedded run's collectstatic (settings)
    stray = [p for p in ROOT.glob("*/static") if p not in collected]
    assert not stray, "static files live in static/, by face"
