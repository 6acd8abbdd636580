"""The arbitration's lifecycle and slip tests again, on PostgreSQL (``make test``'s second pass):
row locks, conditional UPDATEs and partial unique constraints behave there as in production."""

from __future__ import annotations

import pytest

from tests.arbiter import test_lifecycle as lifecycle
from tests.arbiter import test_slips as slips

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

test_pg_a_game_played_through_the_services_is_the_engines_game = (
    lifecycle.test_a_game_played_through_the_services_is_the_engines_game
)
test_pg_a_round_closes_only_once = (
    lifecycle.test_a_round_closes_only_once_its_deadline_and_grace_have_passed
)
test_pg_scoring_twice_changes_nothing = (
    lifecycle.test_scoring_rules_every_player_and_a_second_run_changes_nothing
)
test_pg_the_sweep_recovers_a_lost_task = (
    lifecycle.test_the_sweep_closes_and_scores_an_overdue_round_whose_task_was_lost
)
test_pg_annul_and_redraw = (
    lifecycle.test_an_annulled_round_is_drawn_again_with_a_new_rack_under_the_same_number
)
test_pg_typed_racks = lifecycle.test_typed_racks_are_checked_like_drawn_ones
test_pg_newer_slip_replaces = (
    slips.test_a_slip_before_the_deadline_is_accepted_and_a_newer_one_replaces_it_both_kept
)
test_pg_rulings = slips.test_rulings_give_the_real_score_a_warning_zero_for_the_missing_and_the_solo
test_pg_standings = slips.test_standings_add_points_and_solos_less_penalties_with_gap_and_percentage
test_pg_amend = slips.test_an_amended_ruling_moves_the_standings_and_is_audited

# The rulings in detail that lock, re-rule and derive: amendments, late paper slips, two slips.
from tests.arbiter.rules import test_rule_amendments as amendments  # noqa: E402
from tests.arbiter.rules import test_rule_late_and_missing as late  # noqa: E402
from tests.arbiter.rules import test_rule_reference_2016 as reference  # noqa: E402
from tests.arbiter.rules import test_rule_warnings as warning_rules  # noqa: E402
from tests.arbiter.rules import test_rule_zero as zero  # noqa: E402
from tests.arbiter.rules.helpers import director, paper_room  # noqa: E402, F401

test_pg_rule_4 = reference.test_4_the_2016_rule_on_the_rulebook_board
test_pg_rule_7 = late.test_7_an_arbiter_entry_over_a_slip_is_an_explicit_choice_never_a_silent_one
test_pg_rule_8 = warning_rules.test_8_warnings_penalties_are_derived_and_follow_an_amendment
test_pg_rule_10 = zero.test_10_a_second_zero_may_become_the_rounds_average_which_follows_amendments
test_pg_rule_11 = (
    amendments.test_11_a_missing_slip_entered_after_publication_moves_that_round_and_the_standings
)
test_pg_rule_12 = late.test_12_paper_slips_typed_after_the_close_and_after_the_scoring_are_on_time
