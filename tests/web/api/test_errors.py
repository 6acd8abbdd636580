from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions

from tournament.errors import ApplicationError, NotFound
from web.api.errors import api_exception_handler, play_exception_handler


def test_an_application_error_is_a_400_with_its_message_as_detail_and_its_code():
    error = ApplicationError("The round is closed.", code="round_closed")
    response = api_exception_handler(error, {})
    assert response.status_code == 400
    assert response.data == {"detail": "The round is closed.", "code": "round_closed"}


def test_an_application_error_cannot_be_made_without_a_code():
    with pytest.raises(TypeError):
        ApplicationError("The round is closed.")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        ApplicationError("The round is closed.", code="")
    with pytest.raises(TypeError):  # one place for it
        ApplicationError("No.", code="a", data={"code": "b"})


def test_a_validation_error_keeps_the_one_shape_and_lists_the_fields():
    error = exceptions.ValidationError({"ref": ["Not a grid reference."]})
    response = api_exception_handler(error, {})
    assert response.status_code == 400
    assert response.data["detail"] == "reference: Not a grid reference."  # the field in words
    assert response.data["fields"] == {"ref": ["Not a grid reference."]}


def test_django_errors_are_rendered_the_same_way():
    assert api_exception_handler(Http404(), {}).data == {
        "detail": "Not found.",
        "code": "not_found",
    }
    response = api_exception_handler(DjangoValidationError("Bad rack."), {})
    assert response.status_code == 400
    assert response.data["detail"] == "Bad rack."


def test_a_domain_error_carries_a_message_and_data_never_a_status():
    error = ApplicationError("The deadline has passed.", code="deadline_passed")
    assert (error.message, error.data, error.code) == (
        "The deadline has passed.",
        {"code": "deadline_passed"},
        "deadline_passed",
    )
    assert not hasattr(error, "status_code")


def test_the_api_maps_not_found_to_404_and_everything_else_to_400():
    assert api_exception_handler(NotFound("No round 9.", code="not_found"), {}).status_code == 404
    refused = ApplicationError("Round 3 is not open.", code="round_not_open")
    response = api_exception_handler(refused, {})
    assert (response.status_code, response.data) == (
        400,
        {"detail": "Round 3 is not open.", "code": "round_not_open"},
    )


def test_the_player_api_answers_a_refused_slip_with_the_status_of_its_code():
    statuses = {
        "deadline_passed": 409,
        "round_not_open": 409,
        "revoked": 403,
        "not_your_event": 403,
        "malformed_word": 400,
    }
    for code, status in statuses.items():
        response = play_exception_handler(ApplicationError("No.", code=code), {})
        assert (response.status_code, response.data["code"]) == (status, code)
    assert (
        play_exception_handler(NotFound("No round 9.", code="not_found"), {}).data["code"]
        == "not_found"
    )


def test_the_staff_api_says_drf_s_refusals_with_their_code_too():
    assert api_exception_handler(exceptions.NotAuthenticated(), {}).data["code"] == (
        "not_authenticated"
    )
    from django.core.exceptions import PermissionDenied

    denied = api_exception_handler(PermissionDenied("This needs the director role."), {})
    assert (denied.status_code, denied.data) == (
        403,
        {"detail": "This needs the director role.", "code": "permission_denied"},
    )
    invalid = api_exception_handler(exceptions.ValidationError({"ref": ["Bad."]}), {})
    assert invalid.data["code"] == "invalid"
