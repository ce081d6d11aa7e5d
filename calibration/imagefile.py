"""The size of an image, read from its header before anything is decoded.

A 121 KB PNG can declare 40 000 × 25 000 pixels: decoding it first and checking after made a scan
grow to 6.6 GB before OpenCV gave up. `image_size` reads the width and height that PNG, JPEG, BMP,
WebP and TIFF files state in their first bytes, so that `calibration.sources.read_image` refuses an
image over MAX_IMAGE_PIXELS (or a format it does not know) without decoding a single pixel.
OpenCV's own guard (OPENCV_IO_MAX_IMAGE_PIXELS) is read once, when OpenCV loads, so it cannot be
relied on from here.
"""
from __future__ import annotations

import struct

MAX_IMAGE_PIXELS = 120_000_000   # above the largest phone photo (108 MP, 12 000 × 9 000)
MAX_IMAGE_BYTES = 400 << 20      # an uncompressed BMP of MAX_IMAGE_PIXELS is 360 MB
FORMATS = "PNG, JPEG, BMP, WebP or TIFF"
_SOF = {0xC0 + n for n in range(16)} - {0xC4, 0xC8, 0xCC}  # JPEG start-of-frame markers


def _png(data: bytes):
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    return None


def _jpeg(data: bytes):
    if data[:2] != b"\xff\xd8":
        return None
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if 0xD0 <= marker <= 0xD7 or marker == 0x01:  # markers without a length
            at += 2
            continue
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        if marker in _SOF and at + 9 <= len(data):
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return width, height
        if marker == 0xDA or length < 2:  # the image data starts: no frame header before it
            return None
        at += 2 + length
    return None


def _bmp(data: bytes):
    if data[:2] != b"BM" or len(data) < 26:
        return None
    header = struct.unpack("<I", data[14:18])[0]
    if header == 12:
        return struct.unpack("<HH", data[18:22])
    width, height = struct.unpack("<ii", data[18:26])
    return abs(width), abs(height)


def _webp(data: bytes):
    if data[:4] != b"RIFF" or data[8:12] != b"WEBP" or len(data) < 30:
        return None
    kind = data[12:16]
    if kind == b"VP8X":
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    if kind == b"VP8L" and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if kind == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    return None


def _tiff(data: bytes):
    order = {b"II*\x00": "<", b"MM\x00*": ">"}.get(data[:4])
    if order is None or len(data) < 8:
        return None
    at = struct.unpack(order + "I", data[4:8])[0]
    if at + 2 > len(data):
        return None
    count = struct.unpack(order + "H", data[at:at + 2])[0]
    found = {}
    for i in range(count):
        entry = data[at + 2 + 12 * i:at + 14 + 12 * i]
        if len(entry) < 12:
            break
        tag, kind = struct.unpack(order + "HH", entry[:4])
        if tag in (256, 257):
            short = kind == 3  # SHORT values sit in the first 2 bytes of the value field
            found[tag] = struct.unpack(order + ("H" if short else "I"), entry[8:10] if short else entry[8:12])[0]
    return (found[256], found[257]) if len(found) == 2 else None


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) as the image's header states it, or None for a format this does not know."""
    for reader in (_png, _jpeg, _bmp, _webp, _tiff):
        try:
            size = reader(data)
        except (struct.error, IndexError):
            size = None
        if size is not None:
            return size
    return None


def size_problem(data: bytes) -> str | None:
    """Why these bytes must not be decoded (unknown format, too many pixels), or None."""
    size = image_size(data)
    if size is None:
        return f"not a readable image (not a {FORMATS} file)"
    width, height = size
    if width * height > MAX_IMAGE_PIXELS:
        return (f"{width} × {height} pixels ({width * height / 1e6:,.0f} Mpx): more than the "
                f"{MAX_IMAGE_PIXELS / 1e6:.0f} Mpx an image may have here (make it smaller)")
    if width == 0 or height == 0:
        return f"an empty image ({width} × {height} pixels)"
    return None
