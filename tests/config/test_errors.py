from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions

from config.errors import ApplicationError, api_exception_handler


def test_an_application_error_is_a_400_with_its_message_as_detail():
    response = api_exception_handler(ApplicationError("The round is closed."), {})
    assert response.status_code == 400
    assert response.data == {"detail": "The round is closed."}


def test_a_validation_error_keeps_the_one_shape_and_lists_the_fields():
    error = exceptions.ValidationError({"ref": ["Not a grid reference."]})
    response = api_exception_handler(error, {})
    assert response.status_code == 400
    assert response.data["detail"] == "ref: Not a grid reference."
    assert response.data["fields"] == {"ref": ["Not a grid reference."]}


def test_django_errors_are_rendered_the_same_way():
    assert api_exception_handler(Http404(), {}).data == {"detail": "Not found."}
    response = api_exception_handler(DjangoValidationError("Bad rack."), {})
    assert response.status_code == 400
    assert response.data["detail"] == "Bad rack."
