"""Mutation testing of the arbitration (issue 12): mutmut 3 over the rulings and the standings.

    .venv/bin/python bench/mutation.py [--max-children 2] [--keep] [--json]  # `make mutation`
    .venv/bin/python bench/mutation.py --report [--json]     # the figures of the last run
    .venv/bin/python bench/mutation.py --survivors [--all]   # each survivor as a diff
    .venv/bin/python bench/mutation.py --rerun 'arbiter.rules.*'  # after writing tests

The files, the tests run and the options are ``[tool.mutmut]`` in pyproject.toml. A run starts
from an empty ``mutants/`` (mutmut's copy of ``arbiter/`` and ``tests/``; ``--keep`` resumes the
last one, where mutmut keeps every result it has, new tests or not: ``--rerun`` tries the named
mutants again). It then prints, per file, the mutants caught (killed, or stopped by their time
limit) out of all, and the same with the message-only survivors aside.

Message-only: a survivor whose one change is a string constant that only ends up in the text of
a message for people: the reason of a ruling (``Ruled(code, reason, ...)``), the message of a
refusal (``SlipRefused(message, code=...)``), a local the code only builds those from (see
``MESSAGE_LOCALS``), or a helper that only makes such text (``MESSAGE_FUNCTIONS``). A string
that is data (a ruling code, a refusal's ``code``, an audit field) is never message-only.

mutmut itself leaves out every decorated function but for ``@staticmethod``/``@classmethod``;
``slip_submit`` and ``slip_check`` are ``@transaction.atomic``, and they are where the late mark
and the arbiter's double entry are, so this script lets mutmut mutate a function whose only
decorator is ``transaction.atomic`` too (its mutants keep the decorator: a nested atomic block is
a savepoint). That reaches into mutmut's ``MutationVisitor``, hence the pinned version.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MUTANTS = ROOT / "mutants"
MUTMUT_VERSION = "3.8.1"

# mutmut's exit codes (mutmut.stats.status_by_exit_code): what counts as caught.
KILLED = {1, 3}
TIMEOUT = {24, -24, 152, 255, 36, -9}  # over the CPU limit (SIGXCPU), then SIGKILL
SURVIVED = {0}
NO_TESTS = {5, 33}
CAUGHT = ("killed", "timeout")

# Locals that only hold text for a message, in the files mutated (their names are checked by
# the classification: a string that flows into anything else is not message-only).
MESSAGE_LOCALS = frozenset({"why", "said", "where", "blanks", "shown", "notes"})
MESSAGE_CALLS = {"Ruled": (1, "reason"), "SlipRefused": (0, None)}  # call: (position, keyword)
# Helpers whose result is only ever text for a message (the first problem of a verdict).
MESSAGE_FUNCTIONS = frozenset({"_first", "_message"})


def _files() -> list[str]:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    return list(config["only_mutate"])


# -- running mutmut --------------------------------------------------------------------------


def _atomic_only(node: object) -> bool:
    import libcst as cst

    def atomic(expr: cst.BaseExpression) -> bool:
        return (
            isinstance(expr, cst.Attribute)
            and expr.attr.value == "atomic"
            and isinstance(expr.value, cst.Name)
            and expr.value.value == "transaction"
        )

    return (
        isinstance(node, cst.FunctionDef)
        and bool(node.decorators)
        and all(atomic(d.decorator) for d in node.decorators)
    )


def _patch_mutmut() -> None:
    """Let mutmut mutate the functions whose only decorator is ``@transaction.atomic``."""
    from libcst.metadata import PositionProvider
    from mutmut.mutation import file_mutation

    visitor = file_mutation.MutationVisitor
    skip = visitor._skip_node_and_children

    def skip_unless_atomic(self: file_mutation.MutationVisitor, node: object) -> bool:
        if not _atomic_only(node):
            return bool(skip(self, node))  # type: ignore[arg-type]
        # what mutmut checks for an undecorated function: its pragma, its name
        position = self.get_metadata(PositionProvider, node, None)  # type: ignore[arg-type]
        name = node.name.value  # type: ignore[attr-defined]
        if position and position.start.line in self._ignored_node_lines:
            self.ignored_functions.add(name)
            return True
        return name in file_mutation.NEVER_MUTATE_FUNCTION_NAMES

    visitor._skip_node_and_children = skip_unless_atomic  # type: ignore[method-assign]


def _mutmut_main(args: list[str]) -> None:
    """``mutmut ARGS`` with the patch (run in a child process, in the project's root)."""
    from importlib.metadata import version

    if version("mutmut") != MUTMUT_VERSION:
        sys.exit(f"bench/mutation.py needs mutmut {MUTMUT_VERSION}: pip install -e '.[dev]'")
    _patch_mutmut()
    from mutmut.__main__ import cli

    cli.main(args=args, prog_name="mutmut")


def mutmut(*args: str) -> int:
    command = [sys.executable, str(Path(__file__).resolve()), "--mutmut", *args]
    return subprocess.run(command, cwd=ROOT, check=False).returncode


# -- reading the results ---------------------------------------------------------------------


@dataclass
class Mutant:
    name: str
    status: str
    diff: str = ""
    message_only: bool = False


@dataclass
class FileFigures:
    path: str
    total: int = 0
    killed: int = 0
    timeout: int = 0
    survived: int = 0
    no_tests: int = 0
    not_checked: int = 0
    other: int = 0  # suspicious, segfault
    message_only: int = 0  # survivors that only change a message's text
    mutants: list[Mutant] = field(default_factory=list)

    @property
    def caught(self) -> int:
        return self.killed + self.timeout

    @property
    def pct(self) -> float:
        return 100.0 * self.caught / self.total if self.total else 0.0

    @property
    def pct_without_messages(self) -> float:
        counted = self.total - self.message_only
        return 100.0 * self.caught / counted if counted else 0.0


def _status(code: int | None) -> str:
    if code is None:
        return "not checked"
    if code in KILLED:
        return "killed"
    if code in TIMEOUT:
        return "timeout"
    if code in SURVIVED:
        return "survived"
    if code in NO_TESTS:
        return "no tests"
    return "suspicious"


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    found: dict[str, ast.FunctionDef] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            found[node.name] = node
    return found


def _differences(a: ast.AST, b: ast.AST, parents: tuple[ast.AST, ...]) -> Iterator[tuple]:
    """The places where two trees differ: (node in a, node in b, b's parents)."""
    if type(a) is not type(b):
        yield a, b, parents
        return
    for name in a._fields:
        x, y = getattr(a, name, None), getattr(b, name, None)
        if isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                yield a, b, parents
                return
            for i, j in zip(x, y, strict=True):
                if isinstance(i, ast.AST) and isinstance(j, ast.AST):
                    yield from _differences(i, j, (*parents, b))
                elif i != j:
                    yield a, b, parents
                    return
        elif isinstance(x, ast.AST) and isinstance(y, ast.AST):
            yield from _differences(x, y, (*parents, b))
        elif isinstance(x, ast.AST) or isinstance(y, ast.AST) or x != y:
            yield a, b, parents
            return


def _called(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _in_message(node: ast.AST, parents: tuple[ast.AST, ...]) -> bool:
    """Does this string constant only end up in a message's text?"""
    child = node
    for parent in reversed(parents):
        if isinstance(parent, ast.Call):
            where = MESSAGE_CALLS.get(_called(parent))
            if where is not None:
                position, keyword = where
                if position < len(parent.args) and parent.args[position] is child:
                    return True
                return any(k.arg == keyword and k.value is child for k in parent.keywords)
            if _called(parent) == "append" and isinstance(parent.func, ast.Attribute):
                owner = parent.func.value
                return isinstance(owner, ast.Name) and owner.id in MESSAGE_LOCALS
            if child is parent.func or (
                isinstance(parent.func, ast.Attribute) and child is parent.func.value
            ):
                pass  # "; ".join(...): the string is the call's receiver, go on up
            elif _called(parent) != "join":
                return False
        elif isinstance(parent, ast.keyword):
            if parent.arg == "credited":
                return True
        elif isinstance(parent, ast.Assign | ast.AnnAssign):
            targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
            return all(isinstance(t, ast.Name) and t.id in MESSAGE_LOCALS for t in targets)
        elif isinstance(parent, ast.stmt | ast.Compare | ast.BoolOp | ast.Subscript | ast.Dict):
            return False
        child = parent
    return False


def _message_only(orig: ast.FunctionDef, mutant: ast.FunctionDef) -> bool:
    renamed = ast.FunctionDef(**{**{f: getattr(mutant, f) for f in mutant._fields}})
    renamed.name = orig.name
    differences = list(_differences(orig, renamed, ()))
    if len(differences) != 1:
        return False
    a, b, parents = differences[0]
    if not (isinstance(a, ast.Constant) and isinstance(b, ast.Constant)):
        return False
    if not (isinstance(a.value, str) and isinstance(b.value, str)):
        return False
    return _source_name(orig.name) in MESSAGE_FUNCTIONS or _in_message(b, parents)


def _source_name(mangled: str) -> str:
    """``x__first__mutmut_orig`` -> ``_first``; ``xǁRoundJudgeǁ_zero__mutmut_3`` -> ``_zero``."""
    name = mangled.partition("__mutmut")[0]
    return name.rpartition("ǁ")[2] if "ǁ" in name else name.removeprefix("x_")


def figures() -> list[FileFigures]:
    out = []
    for path in _files():
        meta = MUTANTS / (path + ".meta")
        mutated = MUTANTS / path
        fig = FileFigures(path=path)
        if not meta.exists() or not mutated.exists():
            out.append(fig)
            continue
        codes: dict[str, int | None] = json.loads(meta.read_text())["exit_code_by_key"]
        source = mutated.read_text()
        functions = _functions(ast.parse(source))
        lines = source.splitlines()
        for key, code in sorted(codes.items()):
            status = _status(code)
            fig.total += 1
            if status in ("killed", "timeout", "survived"):
                setattr(fig, status.replace(" ", "_"), getattr(fig, status.replace(" ", "_")) + 1)
            elif status == "no tests":
                fig.no_tests += 1
            elif status == "not checked":
                fig.not_checked += 1
            else:
                fig.other += 1
            name = key.rpartition(".")[2]
            mutant = Mutant(name=key, status=status)
            if status not in ("killed", "timeout"):
                orig = functions.get(name.partition("__mutmut_")[0] + "__mutmut_orig")
                changed = functions.get(name)
                if orig is not None and changed is not None:
                    mutant.message_only = _message_only(orig, changed)
                    fig.message_only += mutant.message_only
                    mutant.diff = _diff(lines, orig, changed)
            fig.mutants.append(mutant)
        out.append(fig)
    return out


def _diff(lines: list[str], orig: ast.FunctionDef, changed: ast.FunctionDef) -> str:
    a = lines[orig.lineno - 1 : orig.end_lineno]
    b = [
        line.replace(changed.name, orig.name)
        for line in lines[changed.lineno - 1 : changed.end_lineno]
    ]
    lines = difflib.unified_diff(a, b, lineterm="", n=1)
    return "\n".join(line for line in list(lines)[2:])


def report(figs: list[FileFigures], *, as_json: bool, seconds: float | None) -> None:
    if as_json:
        rows = []
        for f in figs:
            row = {k: v for k, v in asdict(f).items() if k != "mutants"}
            row.update(caught=f.caught, pct=round(f.pct, 1))
            row["pct_without_messages"] = round(f.pct_without_messages, 1)
            row["message_only_survivors"] = [m.name for m in f.mutants if m.message_only]
            row["survivors"] = [
                m.name for m in f.mutants if m.status not in CAUGHT and not m.message_only
            ]
            rows.append(row)
        print(json.dumps({"files": rows, "seconds": seconds}, indent=2))
        return
    print(f"{'file':34} {'caught/total':>12} {'%':>6}   {'msg-only':>8} {'% w/o msg':>9}")
    for f in figs:
        print(
            f"{f.path:34} {f'{f.caught}/{f.total}':>12} {f.pct:6.1f}   "
            f"{f.message_only:8d} {f.pct_without_messages:9.1f}"
        )
        if f.timeout or f.no_tests or f.not_checked or f.other:
            print(
                f"{'':34} killed {f.killed}, timeout {f.timeout}, no tests {f.no_tests}, "
                f"not checked {f.not_checked}, other {f.other}"
            )
    if seconds is not None:
        print(f"wall time: {seconds:.0f} s")


def survivors(figs: list[FileFigures], *, everything: bool) -> None:
    for f in figs:
        for m in f.mutants:
            if m.status in ("killed", "timeout") or (m.message_only and not everything):
                continue
            tag = " (message only)" if m.message_only else ""
            print(f"== {m.name}: {m.status}{tag}\n{m.diff}\n")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--mutmut"]:
        _mutmut_main(argv[1:])
        return 0
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--max-children", type=int, default=2, help="mutants run at once (2)")
    parser.add_argument("--keep", action="store_true", help="resume the last run's mutants/")
    parser.add_argument("--report", action="store_true", help="only print the last run's figures")
    parser.add_argument("--survivors", action="store_true", help="print the survivors' diffs")
    parser.add_argument("--all", action="store_true", help="with --survivors: message-only too")
    parser.add_argument("--rerun", nargs="+", metavar="GLOB", help="run these mutants again")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    options = parser.parse_args(argv)
    os.chdir(ROOT)
    seconds = None
    if options.survivors:
        survivors(figures(), everything=options.all)
        return 0
    if options.rerun:
        start = time.monotonic()
        code = mutmut("run", "--max-children", str(options.max_children), *options.rerun)
        seconds = time.monotonic() - start
        if code:
            return code
    elif not options.report:
        if not options.keep:
            shutil.rmtree(MUTANTS, ignore_errors=True)
        start = time.monotonic()
        code = mutmut("run", "--max-children", str(options.max_children))
        seconds = time.monotonic() - start
        if code:
            print(f"mutmut run exited {code}", file=sys.stderr)
            return code
    report(figures(), as_json=options.json, seconds=seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
