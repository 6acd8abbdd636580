"""HAProxy in front of web nodes on this machine, with docker/haproxy.cfg's settings (the
compose balancer's): its ``global`` and ``defaults`` as they are, the front bound to
``host:port`` and one ``server`` line per node instead of Docker's DNS. Used by bench/room.py
(``--nodes 2``) and tests/config/test_two_nodes.py."""

from __future__ import annotations

from pathlib import Path

DOCKER_CONFIG = Path(__file__).resolve().parent.parent / "docker" / "haproxy.cfg"


def haproxy_config(host: str, port: int, nodes: list[int]) -> str:
    """docker/haproxy.cfg for ``nodes`` (ports on ``host``), listening on ``host:port``."""
    kept: list[str] = []
    section = ""
    for line in DOCKER_CONFIG.read_text().splitlines():
        if line and not line[0].isspace():
            section = line.split()[0]
        if section == "resolvers" or line.strip().startswith("#"):
            continue
        stripped = line.strip()
        if stripped.startswith("bind "):
            line = f"    bind {host}:{port}"
        elif stripped.startswith("default-server "):
            line = line.replace(" resolvers docker init-addr none", "")
        elif stripped.startswith("server-template "):
            kept += [f"    server n{i} {host}:{p}" for i, p in enumerate(nodes)]
            continue
        kept.append(line)
    return "\n".join(kept) + "\n"
