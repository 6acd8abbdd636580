"""The engine is pure Python: no Django, Celery or database import, ever."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import engine

FORBIDDEN = (
    "django",
    "rest_framework",
    "celery",
    "kombu",
    "redis",
    "psycopg",
    "sqlite3",
    "sqlalchemy",
    "tournament",
    "arbiter",
    "config",
)
ENGINE = Path(engine.__file__).parent


def test_no_engine_module_imports_django_celery_or_a_database() -> None:
    offenders = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []


def test_importing_every_engine_module_loads_nothing_forbidden() -> None:
    modules = sorted(f"engine.{p.stem}" for p in ENGINE.glob("*.py") if p.stem not in ("__main__",))
    code = (
        "import sys\n"
        + "".join(f"import {m}\n" for m in modules)
        + f"bad = sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})\n"
        + "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == ""
