"""Secret tokens never reach a log.

- A player's join link ``/play/<token>/`` and a staff invitation ``/invitations/<token>/`` (a
  one-time link granting a director's or an arbiter's role) are written ``/play/<redacted>/``
  and ``/invitations/<redacted>/``: in a path, a full address, or a query string that carries
  one (``/accounts/login/?next=/invitations/<token>/``, also percent-encoded, ``%2F``).
- An ``Authorization`` value (``Token <key>``, a personal API token; ``Bearer <token>``, a
  phone's) is written ``Token <redacted>``; the servers never log that header anyway.

Applied by ``RedactTokensFilter`` on Django's console handler (so on every record it writes:
``django.request``, ``django.server``, django-axes's ``axes.*``), on uvicorn's access log
(``config/gunicorn_worker.py``), and to what django-axes stores of a failed sign-in (its
``AccessAttempt`` rows: ``web.auth``). The API's ``/api/v1/play/...`` paths carry no token and
stay as they are.
"""

from __future__ import annotations

import logging
import re

REDACTED = "<redacted>"
# "/play/<something>" or "/invitations/<something>" at the start of a path: after the start of
# the text, a space, a quote, "(", "=" (a query's value) or a scheme and host; the slashes may
# be percent-encoded. "/api/v1/play/state" does not match (a "1" stands before it).
_LINK = re.compile(
    r"""(^|[\s"'(=]|://[^/\s"']+)(/|%2[fF])(play|invitations)(/|%2[fF])"""
    r"""(?!<redacted>|%3[cC]redacted)[^/\s?&#"'%]+""",
)
_AUTHORIZATION = re.compile(r"\b(Token|Bearer)(\s+)(?!<redacted>)[A-Za-z0-9._~+/=-]{20,}")


def redact(text: str) -> str:
    """``text`` with every join link's and invitation's token and every Authorization
    credential replaced by ``<redacted>``."""
    text = _LINK.sub(rf"\1\2\3\4{REDACTED}", text)
    return _AUTHORIZATION.sub(rf"\1\2{REDACTED}", text)


class RedactTokensFilter(logging.Filter):
    """Rewrites a record's message and string arguments with ``redact``; drops nothing."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {
                k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()
            }
        return True
