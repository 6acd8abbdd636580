"""The v1 API: the player endpoints (``views``, token or cookie authentication, throttled per
token), the staff actions (``staff``), and how errors read over HTTP (``errors``)."""
