"""The ``rows_insert`` tests, collected again with the ``postgres`` marker (``make test``'s
second pass runs them against ``$TEST_POSTGRES_URL``; elsewhere they skip with the reason)."""

from __future__ import annotations

import pytest

from tests.tournament.test_bulk import (  # noqa: F401 - collected here again
    test_it_refuses_a_model_with_a_field_it_cannot_write_plainly,
    test_it_writes_the_rows_bulk_create_writes,
    test_nothing_to_insert_writes_nothing,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]
