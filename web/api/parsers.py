"""The API's JSON parser: DRF's, refusing what no client of this API sends, with a 400 (a 413
for a body over the size limit) instead of a server error.

- a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes (DRF reads the stream itself, so Django's
  own check of that setting never runs for JSON);
- nesting deeper than ``JSON_MAX_DEPTH`` (``json`` recurses: 100,000 ``[`` raise
  ``RecursionError``);
- a document that is not an object (every endpoint takes ``{"field": ...}``);
- control characters in any key or string (``web.inputs``), named by their path;
- ``NaN`` and ``Infinity`` (DRF's strict JSON), a number of more than ``JSON_MAX_DIGITS``
  characters (Python reads a whole number of thousands of digits in quadratic time, then refuses
  4,300) and a decimal number too large for a float (``1e999``, ``-1e999``: named by its path,
  ``predrawn.rounds[0].score``).

Every refusal is a 4xx whose JSON names a ``code`` (``parse_error``, ``too_large``:
``web.api.errors``).
"""

from __future__ import annotations

import codecs
import json
import math
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import gettext
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser
from rest_framework.settings import api_settings
from rest_framework.utils import json as drf_json

from engine.interchange import InterchangeError, check_json_depth, finite_float
from web.inputs import control_character_message

JSON_MAX_DEPTH = 16
JSON_MAX_DIGITS = 30  # characters of one number: no field of this API needs more


class _NumberRefused(ValueError):
    pass


def _parse_int(text: str) -> int:
    if len(text) > JSON_MAX_DIGITS:
        raise _NumberRefused(
            gettext("a number of %(count)s digits: at most %(limit)s")
            % {"count": len(text), "limit": JSON_MAX_DIGITS}
        )
    return int(text)


def _parse_float(text: str) -> float:
    return finite_float(text, max_chars=JSON_MAX_DIGITS)  # refused by json_problem, by its path


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "too_large"


def json_problem(document: Any, *, max_depth: int = JSON_MAX_DEPTH) -> str | None:
    """Why ``document`` (parsed JSON) is refused, naming where, or None when it is acceptable.
    Iterative, so a deep document cannot exhaust the stack here either."""
    if not isinstance(document, dict):
        return f"The body must be a JSON object, not {type(document).__name__}."
    stack: list[tuple[str, Any, int]] = [("", document, 1)]
    while stack:
        path, value, depth = stack.pop()
        if isinstance(value, float) and not math.isfinite(value):
            return gettext("%(where)s: the number %(number)s is too large") % {
                "where": path or "body",
                "number": getattr(value, "written", value),
            }
        if isinstance(value, str):
            message = control_character_message(path or "body", value)
            if message is not None:
                return message
        elif isinstance(value, dict | list):
            if depth > max_depth:
                return f"{path or 'body'}: the JSON is nested more than {max_depth} levels deep."
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if isinstance(key, str):
                    message = control_character_message(f"{path or 'body'} key", key)
                    if message is not None:
                        return message
                    child = f"{path}.{key}" if path else key
                else:
                    child = f"{path}[{key}]"
                stack.append((child, item, depth + 1))
    return None


class StrictJSONParser(JSONParser):
    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        context = parser_context or {}
        encoding = context.get("encoding", settings.DEFAULT_CHARSET)
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(raw) > limit:
            raise RequestTooLarge(
                gettext("The request body is larger than %(limit)s bytes.") % {"limit": limit},
                code="too_large",
            )
        try:
            # The nesting counted in C before a parser builds anything: json would recurse
            # until Python's limit, building what it met on the way.
            check_json_depth(raw, JSON_MAX_DEPTH)
        except InterchangeError as exc:
            raise exceptions.ParseError(
                gettext("JSON parse error - %(exc)s")
                % {"exc": "; ".join(p.text(gettext) for p in exc.problems)},
                code="parse_error",
            ) from None
        try:
            text = codecs.decode(raw, encoding)
            parse_constant = drf_json.strict_constant if api_settings.STRICT_JSON else None
            document = json.loads(
                text,
                parse_constant=parse_constant,
                parse_int=_parse_int,
                parse_float=_parse_float,
            )
        except RecursionError:
            raise exceptions.ParseError(
                gettext("JSON parse error - nested more than %(json_max_depth)s levels deep.")
                % {"json_max_depth": JSON_MAX_DEPTH},
                code="parse_error",
            ) from None
        except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            raise exceptions.ParseError(
                gettext("JSON parse error - %(exc)s") % {"exc": exc}, code="parse_error"
            ) from None
        problem = json_problem(document)
        if problem is not None:
            raise exceptions.ParseError(problem, code="parse_error")
        return document
