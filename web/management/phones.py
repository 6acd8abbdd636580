"""What ``run_embedded`` prints for the phones in the room (``make run-lan``): the address they
open, its QR code drawn in the terminal (segno), the firewall note, and the machine's other
addresses when it has several (README, "Phones in the room")."""

from __future__ import annotations

import io
import sys

import segno


def phones_lines(public_url: str, port: int, addresses: list[tuple[str, str]]) -> list[str]:
    """What the terminal shows for the phones: their address, its QR code, the firewall note,
    and this machine's other addresses when it has several (``(interface, address)``, from
    ``settings.LAN_ADDRESSES``)."""
    url = f"{public_url}/"
    lines = ["-" * 66, f"  Phones in the room open:  {url}"]
    qr = io.StringIO()
    segno.make(url, error="m").terminal(out=qr, compact=True, border=2)
    encoding = getattr(sys.stdout, "encoding", None) or "utf-8"
    try:
        qr.getvalue().encode(encoding)
    except UnicodeEncodeError:
        lines.append("  (this terminal cannot draw the QR code: type the address)")
    else:
        lines.extend(f"  {row}" for row in qr.getvalue().splitlines())
    lines += [
        "",
        "  A phone that cannot connect: is it on the same Wi-Fi? Does this machine's firewall",
        f"  let other machines in on TCP port {port}? (README, 'Phones in the room')",
    ]
    others = [(name, f"http://{address}:{port}") for name, address in addresses]
    others = [(name, url) for name, url in others if url != public_url]
    if others:
        lines.append(
            "  This machine has other addresses; if the phones cannot reach the one above,"
        )
        lines.append("  stop and start again with the right one:")
        lines += [f"      PUBLIC_URL={url} make run-lan   ({name})" for name, url in others]
    return lines
