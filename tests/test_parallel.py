"""``make test`` runs on every core with pytest-xdist's ``--dist loadgroup`` (tests/conftest.py
puts the tests sharing Redis, and the fault tests, in one group; every other test with its
module). pytest-xdist 3.8 groups by writing the group into ``item._nodeid``; pytest 9.2 reads a
test's id elsewhere, and the groups were silently split (the tests of a module that share a live
round ran on two workers, each with its own round). The pin in pyproject.toml keeps pytest
below 9.2; this test fails on an upgrade of either that breaks the grouping."""

from __future__ import annotations

import inspect

import pytest
import xdist.remote
from _pytest import nodes


def test_pytest_reads_the_id_where_pytest_xdist_writes_its_group() -> None:
    assert "item._nodeid = " in inspect.getsource(xdist.remote.WorkerInteractor)
    assert "self._nodeid" in inspect.getsource(nodes.Node.nodeid.fget)  # type: ignore[attr-defined]


def test_this_test_is_in_its_modules_group(request: pytest.FixtureRequest) -> None:
    groups = [mark.args[0] for mark in request.node.iter_markers("xdist_group")]
    assert groups == ["tests/test_parallel.py"]
    if getattr(request.config.option, "loadgroup", False):  # under xdist: the id carries it
        assert request.node.nodeid.endswith("@tests/test_parallel.py")
