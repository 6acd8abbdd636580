"""Many new rows of one model in one statement run for every row (``executemany``), for the
rulings of a round: ``bulk_create`` prepares every value of every row through its field and
writes the statement's text batch by batch, which took 0.45 s of processor for the 10,000
rulings of a round (bench/round_close.py), the statement run for every row 0.08 s.

Only for plain fields, whose values the model's own code sets in their Python types (``int``,
``bool``, ``str``, None): numbers, booleans, text, foreign keys (their ``_id``), and date-times
(prepared by their field, as the database takes them). A model with any other kind of field
is refused (``TypeError``): it is written by ``bulk_create``. No signal is sent (nor by
``bulk_create``), and the objects get no primary key back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from django.db import connection, models

M = TypeVar("M", bound=models.Model)

# Fields whose Python value is what the database takes (the backends' adapters, identity for
# these). Subclasses count: PositiveIntegerField is an IntegerField.
_PLAIN = (
    models.IntegerField,
    models.BooleanField,
    models.CharField,
    models.TextField,
    models.ForeignKey,
)


def rows_insert(model: type[M], objs: Sequence[M]) -> None:
    """INSERT ``objs``, all new rows of ``model``, in one statement run for each (on the
    database, the project's one)."""
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    for f in fields:
        if not isinstance(f, _PLAIN) and not _plain_datetime(f):
            raise TypeError(f"rows_insert: {model.__name__}.{f.name} is not a plain field")
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES ({marks})"
    prepared = [(i, f) for i, f in enumerate(fields) if not isinstance(f, _PLAIN)]  # date-times
    names = [f.attname for f in fields]
    rows = []
    done: dict[tuple[int, object], object] = {}  # the rows of a round share their times
    for obj in objs:
        row = [getattr(obj, name) for name in names]
        for i, f in prepared:
            value = row[i]
            if (i, value) not in done:
                done[i, value] = f.get_db_prep_save(value, connection)
            row[i] = done[i, value]
        rows.append(row)
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)


def _plain_datetime(field: models.Field[Any, Any]) -> bool:
    return isinstance(field, models.DateTimeField) and not field.auto_now and not field.auto_now_add
