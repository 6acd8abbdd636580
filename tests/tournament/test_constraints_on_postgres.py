"""The same constraint tests, collected again with the ``postgres`` marker.

``make test`` runs them in its second pass against ``$TEST_POSTGRES_URL``; elsewhere they
skip with the reason (and fail under REQUIRE_SERVICES=1).
"""

from __future__ import annotations

import pytest

from tests.tournament.test_constraints import (  # noqa: F401 - collected here again
    TestEventConstraints,
    TestGameAndRoundConstraints,
    TestPlayerConstraints,
    TestSlipAndRulingConstraints,
)

pytestmark = pytest.mark.postgres


def test_the_database_is_postgresql():
    from django.db import connection

    assert connection.vendor == "postgresql"
