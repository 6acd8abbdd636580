"""The layers point one way: ``engine`` <- ``tournament`` <- ``arbiter`` <- ``web``.

A module may import its own layer and the layers below it, never one above; ``config`` (the
settings, the root URLs, the Celery app) sits on top and only its typed environment helpers
may be imported from below. The pure modules (the rulings, the shared vocabulary) import no
Django, so the ruling CLI runs without a database.
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
    return found


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
    assert templates <= faces | {"registration"}
    assert static <= faces
    assert not list(ROOT.glob("*/static")), "static files live in static/, by face"
