"""WSGI entry point, for a WSGI server (``gunicorn config.wsgi -k gthread``): everything but the
live stream (``web.live``), whose phones then poll. The product runs on ASGI (config/asgi.py)."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()
