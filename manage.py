#!/usr/bin/env python
"""Django's command-line utility: ``python manage.py run_embedded``, ``migrate``, ..."""

from __future__ import annotations

import os
import sys

# The embedded run (``make run``) is the product as a club runs it: Django's debug pages stay off
# (DEBUG=true asks for them), and its secret key is kept under VAR_DIR as the room's network
# run keeps its own (config.secret). Set before the settings are read, and passed on to the
# server and worker it starts.
EMBEDDED_COMMANDS = {"run_embedded"}


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if sys.argv[1:2] and sys.argv[1] in EMBEDDED_COMMANDS:
        os.environ.setdefault("DEBUG", "false")
        os.environ["EMBEDDED_RUN"] = "true"
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
