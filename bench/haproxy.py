"""HAProxy in front of web nodes on this machine, with docker/haproxy.cfg's settings (the
compose balancer's): its ``global`` (the connections this machine's file limit allows) and
``defaults`` as they are, the front bound to
``host:port`` and one ``server`` line per node instead of Docker's DNS. Used by bench/room.py
(``--nodes 2``) and tests/config/test_two_nodes.py."""

from __future__ import annotations

from pathlib import Path

DOCKER_CONFIG = Path(__file__).resolve().parent.parent / "docker" / "haproxy.cfg"


def _maxconn(wanted: int) -> int:
    """As many connections as this machine's file limit lets HAProxy hold (two files each)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    limit = hard if hard != resource.RLIM_INFINITY else wanted * 2 + 100
    return max(256, min(wanted, (limit - 100) // 2))


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
        if stripped.startswith("maxconn ") and section == "global":
            line = f"    maxconn {_maxconn(int(stripped.split()[1]))}"
        elif stripped.startswith("bind "):
            line = f"    bind {host}:{port}"
        elif stripped.startswith("default-server "):
            line = line.replace(" resolvers docker init-addr none", "")
        elif stripped.startswith("server-template "):
            kept += [f"    server n{i} {host}:{p}" for i, p in enumerate(nodes)]
            continue
        kept.append(line)
    return "\n".join(kept) + "\n"
