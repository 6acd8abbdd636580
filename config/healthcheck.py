"""``python -m config.healthcheck [PATH]``: the web container's healthcheck (docker/compose.yaml).

Asks the server on this machine (127.0.0.1, port ``PORT``, 8000 by default) for ``PATH``
(``/healthz?checks=database,broker`` by default) with a Host header the site accepts: the
first of ``ALLOWED_HOSTS`` (read as the settings read it, ``config.env``), or the host of
``PUBLIC_URL``, so the probe passes whatever ``ALLOWED_HOSTS`` says; a request to
``127.0.0.1`` under its own name would be refused (400) by a site that answers only to
``scrabble.example.org``. Exit 0 on a 200; otherwise 1, with one line saying what came back.
Loads no Django (it runs every 10 s).
"""

from __future__ import annotations

import http.client
import sys

from config.env import LOCAL_HOSTS, env_int, env_list, env_public_url, url_host

DEFAULT_PATH = "/healthz?checks=database,broker"


def probe_host(allowed_hosts: list[str], public_url: str | None) -> str:
    """A host name the site accepts: the first concrete one of ALLOWED_HOSTS (``.example.org``
    stands for example.org and its subdomains; ``*`` for any), else PUBLIC_URL's."""
    for host in allowed_hosts:
        if host != "*":
            return host.lstrip(".")
    if public_url is not None:
        return url_host(public_url)
    return "localhost"


def probe(path: str, *, port: int, host: str, timeout: float = 3.0) -> tuple[int, str]:
    """The status and the first 200 characters of the body of GET ``path`` on 127.0.0.1."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"Host": f"{host}:{port}"})
        response = connection.getresponse()
        return response.status, response.read(200).decode("utf-8", "replace")
    finally:
        connection.close()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    path = args[0] if args else DEFAULT_PATH
    port = env_int("PORT", 8000, minimum=1, maximum=65535)
    host = probe_host(env_list("ALLOWED_HOSTS", LOCAL_HOSTS), env_public_url("PUBLIC_URL"))
    try:
        status, body = probe(path, port=port, host=host)
    except OSError as error:
        print(f"healthcheck: 127.0.0.1:{port} did not answer: {error}", file=sys.stderr)
        return 1
    if status != 200:
        print(f"healthcheck: {path} as {host} answered {status}: {body}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
