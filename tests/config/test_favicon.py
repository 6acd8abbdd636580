"""Every browser asks a site for ``/favicon.ico``: the site answers with its icon, never a 404
(which filled the console's log and the browsers' consoles on every page)."""

from __future__ import annotations

import struct


def test_the_icon_is_an_ico_holding_a_16_pixel_png_to_anyone(client, db) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/x-icon"
    body = response.content
    reserved, kind, count = struct.unpack("<HHH", body[:6])
    assert (reserved, kind, count) == (0, 1, 1)
    width, height, *_rest, size, offset = struct.unpack("<BBBBHHII", body[6:22])
    assert (width, height, offset, size) == (16, 16, 22, len(body) - 22)
    assert body[22:30] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", body[38:46]) == (16, 16)  # the PNG's own size
