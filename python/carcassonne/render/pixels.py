"""Pictures as pixel arrays (``render_mode="rgb_array"``): resvg's PNG decoded with zlib and
numpy, so no image library is needed. resvg writes 8-bit RGBA, not interlaced, choosing a
filter per row; rows filtered with None, Sub or Up are undone with numpy, Average and Paeth
(sequential along the row) byte by byte."""

from __future__ import annotations

import struct
import zlib

import numpy as np

from carcassonne.render.png import png

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def rgb(svg_text: str) -> np.ndarray:
    """The picture of an SVG document on a white background: (height, width, 3) uint8."""
    return decode(png(svg_text, background="#ffffff"))[:, :, :3]


def decode(data: bytes) -> np.ndarray:
    """(height, width, 4) uint8 of an 8-bit RGBA, non-interlaced PNG (what resvg writes);
    ValueError for any other PNG."""
    if data[:8] != SIGNATURE:
        raise ValueError("not a PNG")
    pos, idat, header = 8, [], None
    while pos + 8 <= len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + n]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + n
    if header is None or header[2:] != (8, 6, 0, 0, 0):
        raise ValueError(f"only 8-bit RGBA non-interlaced PNGs are read, not {header}")
    width, height = header[0], header[1]
    stride = 4 * width
    raw = np.frombuffer(zlib.decompress(b"".join(idat)), np.uint8)
    rows = raw.reshape(height, stride + 1)
    out = np.zeros((height + 1, stride), np.uint8)  # row 0: the zero row above the picture
    for y in range(height):
        kind, f, up = rows[y, 0], rows[y, 1:], out[y]
        if kind == 0:
            out[y + 1] = f
        elif kind == 1:  # Sub: a running sum per channel
            out[y + 1] = np.cumsum(f.reshape(width, 4), axis=0, dtype=np.uint64).reshape(-1) % 256
        elif kind == 2:  # Up
            out[y + 1] = f + up
        elif kind in (3, 4):
            out[y + 1] = _sequential(kind, f.tolist(), up.tolist())
        else:
            raise ValueError(f"unknown PNG filter {kind} in row {y}")
    return out[1:].reshape(height, width, 4)


def _sequential(kind: int, f: list[int], b: list[int]) -> list[int]:
    """Undo the Average (3) or Paeth (4) filter of one row; ``b`` is the row above."""
    r = f[:]
    for i in range(len(r)):
        a = r[i - 4] if i >= 4 else 0
        if kind == 3:
            r[i] = (r[i] + ((a + b[i]) >> 1)) & 255
            continue
        c = b[i - 4] if i >= 4 else 0
        p = a + b[i] - c
        pa, pb, pc = abs(p - a), abs(p - b[i]), abs(p - c)
        pred = a if pa <= pb and pa <= pc else b[i] if pb <= pc else c
        r[i] = (r[i] + pred) & 255
    return r
