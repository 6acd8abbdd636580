"""Players' secret tokens never reach a log: the join link ``/play/<token>/`` is written
``/play/<redacted>/`` by Django's loggers (``RedactTokensFilter``, on ``django.request`` and
``django.server`` and the console handler) and by gunicorn's access log
(``config/gunicorn.py``). The API's ``/api/v1/play/...`` paths carry no token and stay as
they are; the ``Authorization`` header (a Bearer token) is never logged.
"""

from __future__ import annotations

import logging
import re

# "/play/<something>" at the start of a path: after the start of the text, a space, a quote or
# a scheme and host; "/api/v1/play/state" does not match (a "1" stands before it).
_JOIN_LINK = re.compile(r"""(^|[\s"'(]|://[^/\s"']+)/play/(?!<redacted>)[^/\s?"']+""")
REDACTED = "<redacted>"


def redact(text: str) -> str:
    """``text`` with the token of every join link replaced by ``<redacted>``."""
    return _JOIN_LINK.sub(rf"\1/play/{REDACTED}", text)


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
