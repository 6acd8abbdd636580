"""Querysets compiled to SQL once per process: the few reads every slip makes.

Django builds a queryset and compiles it to SQL again at each call: 0.3 to 0.7 ms of processor
for one of a slip's reads, ten to thirty times what PostgreSQL takes to answer it, and most of
the web's processor per slip (docs/reliability.md, "What a slip costs"). A ``Compiled`` query
is the same queryset, built once by a function of its arguments, called with a marker value in
each argument's place; Django compiles it, and the SQL is kept with where each marker went. Each
later call runs that SQL with the arguments where the markers were, and makes the rows into
what the queryset makes (model instances with their ``select_related`` objects, deferred fields
as ``only`` leaves them, Django's converters applied), through the same cursor as every query
(counted, logged, its errors Django's).

Only querysets whose SQL does not depend on the values (a filter by a key: ``exact`` lookups
on integers and strings) are compiled: a marker that does not come out as one parameter of its
own is refused when the query is first compiled.
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.core.exceptions import MultipleObjectsReturned
from django.db import connections, router
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators  # type: ignore[attr-defined]
from django.db.transaction import TransactionManagementError

M = TypeVar("M", bound=Model)

# Marker values: unlike any constant of these queries (a status, a flag, a limit), and within
# every integer field's range (Django answers "no row" without SQL for a value out of it). A
# marker that is also a constant of its query shows as two parameters: refused, as below.
_FIRST_MARKER = 31_001


def _marker(kind: type, index: int) -> int | str:
    if kind is int:
        return _FIRST_MARKER + index
    if kind is str:
        return f"\x1fcompiled-{index}\x1f"
    raise TypeError(f"a compiled query takes int or str arguments, not {kind.__name__}")


def _same(param: object, marker: int | str) -> bool:
    """``param`` is ``marker`` as Django passes it (an ``int`` subclass of the backend's for an
    integer; never a ``bool``, never an enum constant)."""
    if isinstance(marker, str):
        return type(param) is str and param == marker
    return isinstance(param, int) and not isinstance(param, (bool, enum.Enum)) and param == marker


@dataclass(frozen=True)
class _Plan:
    sql: str
    params: tuple[Any, ...]
    slots: dict[int, str]  # position in params -> the argument's name
    locks: bool  # SELECT ... FOR UPDATE: only inside a transaction
    compiler: Any
    start: int
    end: int
    init_list: list[str]
    populators: list[Any]
    converters: dict[int, Any]
    annotations: dict[str, int]


class Compiled(Generic[M]):
    """``build(**arguments)``, a queryset of ``model``, compiled once per database (see the
    module). ``arguments`` name each argument's type (``int`` or ``str``)."""

    def __init__(
        self, model: type[M], build: Callable[..., QuerySet[M]], **arguments: type
    ) -> None:
        self.model = model
        self._build = build
        self._arguments = arguments
        self._plans: dict[tuple[str, str], _Plan] = {}
        self._lock = threading.Lock()

    def _plan(self, alias: str) -> _Plan:
        """The SQL and what makes its rows into instances; compiled by Django at the first call
        (a ``select_for_update`` query then in the caller's transaction, as Django asks)."""
        connection = connections[alias]
        key = (alias, connection.vendor)
        plan = self._plans.get(key)
        if plan is not None:
            return plan
        markers = {
            name: _marker(kind, index) for index, (name, kind) in enumerate(self._arguments.items())
        }
        queryset = self._build(**markers)
        if queryset.model is not self.model:
            raise TypeError(f"a query of {queryset.model.__name__}, not {self.model.__name__}")
        compiler = queryset.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        slots: dict[int, str] = {}
        for name, value in markers.items():
            found = [i for i, p in enumerate(params) if _same(p, value)]
            if len(found) != 1 or (isinstance(value, str) and value in sql):
                raise ValueError(f"{name} is not one parameter of its own in {sql}")
            slots[found[0]] = name
        select, klass_info = compiler.select, compiler.klass_info
        if klass_info is None:
            raise ValueError("a compiled query reads model instances")
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        plan = _Plan(
            sql=sql,
            params=tuple(params),
            slots=slots,
            locks=bool(queryset.query.select_for_update),
            compiler=compiler,
            start=start,
            end=end,
            init_list=[f[0].target.attname for f in select[start:end]],
            populators=get_related_populators(klass_info, select, alias),
            converters=compiler.get_converters([s[0] for s in select[: compiler.col_count]]),
            annotations=dict(compiler.annotation_col_map or {}),
        )
        with self._lock:
            return self._plans.setdefault(key, plan)

    def all(self, **arguments: Any) -> list[M]:
        """The queryset's rows for these arguments, as instances."""
        alias = router.db_for_read(self.model) or "default"
        plan = self._plan(alias)
        if plan.locks:  # as Django: a locking read goes where the writes go
            alias = router.db_for_write(self.model) or "default"
            plan = self._plan(alias)
        connection = connections[alias]
        if plan.locks and connection.get_autocommit() and connection.features.supports_transactions:
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = list(plan.params)
        for position, name in plan.slots.items():
            # As Django passed the marker (the PostgreSQL backend wraps some integers: Int4).
            params[position] = type(params[position])(arguments[name])
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            rows: Any = cursor.fetchall()
        if plan.converters:
            rows = plan.compiler.apply_converters(rows, plan.converters)
        found = []
        for row in rows:
            obj = self.model.from_db(alias, plan.init_list, row[plan.start : plan.end])
            for populator in plan.populators:
                populator.populate(row, obj)
            for name, position in plan.annotations.items():
                setattr(obj, name, row[position])
            found.append(obj)
        return found

    def one_or_none(self, **arguments: Any) -> M | None:
        """The one row a filter on a unique key selects (the queryset reads at most two), or
        None; two rows are an error (``tournament.selectors.unique_or_none``)."""
        rows = self.all(**arguments)
        if len(rows) > 1:
            raise MultipleObjectsReturned(f"{self.model.__name__}: the filter is not unique")
        return rows[0] if rows else None

    def get(self, **arguments: Any) -> M:
        """The one row, as ``QuerySet.get`` (``DoesNotExist`` when there is none)."""
        found = self.one_or_none(**arguments)
        if found is None:
            missing: type[Exception] = getattr(self.model, "DoesNotExist")  # noqa: B009
            raise missing(f"{self.model.__name__} matching query does not exist.")
        return found
