"""The size of an image, read from its header before anything is decoded; and its decoding, reduced
to what a scan needs.

A 121 KB PNG can declare 40 000 × 25 000 pixels: decoding it first and checking after made a scan
grow to 6.6 GB before OpenCV gave up. `image_size` reads the width and height that PNG, JPEG, BMP,
WebP and TIFF files state in their first bytes, so that `calibration.sources.read_image` refuses an
image over MAX_IMAGE_PIXELS (or a format it does not know) without decoding a single pixel.
OpenCV's own guard (OPENCV_IO_MAX_IMAGE_PIXELS) is read once, when OpenCV loads, so it cannot be
relied on from here.

A photo the reader accepts may have 120 Mpx in a small file (a drawing's PNG of 440 KB, a WebP of
5 KB): decoded whole and scanned, such a photo took 1.1 GB (`tactical bench memory`). No stage of a
scan needs that many pixels — the grid finder works on at most 2000 px, the verification on 1600 px,
the squares on a warp of ≤ 960 px, tokens at 1080p (20×12) to 4K (40×25) — so `decode_image` reads
a photo of more than READ_PIXELS (16 Mpx, a 4608 × 3456 phone photo) reduced to READ_PIXELS, without
holding it whole: a baseline JPEG is decoded by libjpeg at 1/2, 1/4 or 1/8 of its size, a PNG
(8 or 16 bits, grey, RGB or RGBA, not interlaced) row band by row band, each band reduced as it
comes. The other formats (progressive JPEG — libjpeg keeps all its coefficients —, WebP, BMP, TIFF,
palette or interlaced PNG) can only be decoded whole: those are accepted up to WHOLE_DECODE_PIXELS
(40 Mpx), which keeps a scan of any photo the reader accepts under 400 MB.
"""
from __future__ import annotations

import math
import struct
import zlib

import cv2
import numpy as np

MAX_IMAGE_PIXELS = 120_000_000   # above the largest phone photo (108 MP, 12 000 × 9 000)
MAX_IMAGE_BYTES = 160 << 20      # a 108 MP photo's PNG (~ 180 MB with 16 bits) is refused: its bytes are held while decoding
READ_PIXELS = 16_000_000         # larger photos are decoded reduced to this (module docstring)
WHOLE_DECODE_PIXELS = 40_000_000  # formats decoded whole: at most this (~ 250 MB while decoding)
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


def _png_header(data: bytes) -> tuple[int, int, int, int, int] | None:
    """(width, height, bit depth, colour type, interlace) of a PNG, or None."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR" or len(data) < 29:
        return None
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", data[16:29])
    return width, height, depth, colour, interlace


_PNG_CHANNELS = {0: 1, 2: 3, 6: 4}   # grey, RGB, RGBA: the colour types read band by band


def _png_in_bands(data: bytes) -> bool:
    header = _png_header(data)
    return header is not None and header[2] in (8, 16) and header[3] in _PNG_CHANNELS and header[4] == 0


def _baseline_jpeg(data: bytes) -> bool:
    """A JPEG whose frame is sequential (libjpeg decodes it reduced in its DCT, row by row)."""
    if data[:2] != b"\xff\xd8":
        return False
    at = 2
    while at + 4 <= len(data) and data[at] == 0xFF:
        marker = data[at + 1]
        if marker == 0xFF or 0xD0 <= marker <= 0xD7 or marker == 0x01:
            at += 1 if marker == 0xFF else 2
            continue
        if marker in _SOF:
            return marker in (0xC0, 0xC1)
        if marker == 0xDA:
            return False
        at += 2 + struct.unpack(">H", data[at + 2:at + 4])[0]
    return False


def decoded_whole(data: bytes) -> bool:
    """Whether `decode_image` must hold these bytes' image whole while decoding (module docstring)."""
    return not (_baseline_jpeg(data) or _png_in_bands(data))


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
    if width * height > WHOLE_DECODE_PIXELS and decoded_whole(data):
        return (f"{width} × {height} pixels ({width * height / 1e6:,.0f} Mpx): an image in this form (progressive "
                f"JPEG, WebP, BMP, TIFF, palette or interlaced PNG) is decoded whole, and may have at most "
                f"{WHOLE_DECODE_PIXELS / 1e6:.0f} Mpx here (save it as an ordinary JPEG or PNG, or make it smaller)")
    return None


_REDUCED = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
            8: cv2.IMREAD_REDUCED_COLOR_8}


def reduction(pixels: int) -> int:
    """The largest of 1, 2, 4, 8 by which a photo of `pixels` can be decoded and keep READ_PIXELS."""
    factor = 1
    while factor < 8 and pixels / (2 * factor) ** 2 >= READ_PIXELS:
        factor *= 2
    return factor


def decode_image(data: bytes) -> np.ndarray | None:
    """The image as BGR (as `cv2.imdecode(…, IMREAD_COLOR)` reads it), reduced to READ_PIXELS when it
    has more (INTER_AREA, after decoding at 1/2, 1/4 or 1/8 where the format allows); None when
    unreadable. Call it on bytes `size_problem` accepted."""
    size = image_size(data)
    buffer = np.frombuffer(data, np.uint8)
    if size is None or size[0] * size[1] <= READ_PIXELS:
        return cv2.imdecode(buffer, cv2.IMREAD_COLOR)
    factor = reduction(size[0] * size[1])
    image = _png_bands(data, factor) if _png_in_bands(data) else cv2.imdecode(buffer, _REDUCED[factor])
    if image is None:
        return None
    height, width = image.shape[:2]   # JPEG: turned upright by its EXIF orientation
    if width * height <= READ_PIXELS:
        return image
    scale = math.sqrt(READ_PIXELS / (width * height))
    return cv2.resize(image, (max(1, int(width * scale)), max(1, int(height * scale))), interpolation=cv2.INTER_AREA)


_BAND_BYTES = 8 << 20   # decoded bytes per band of a PNG


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _png_idat(data: bytes):
    """The PNG's IDAT bodies, in order, as views of `data`."""
    view, at = memoryview(data), 8
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"IDAT":
            yield view[at + 8:at + 8 + length]
        elif kind == b"IEND":
            return
        at += 12 + length


def _png_bands(data: bytes, factor: int) -> np.ndarray | None:
    """A PNG (`_png_in_bands`) decoded band by band, each band reduced `factor` times (INTER_AREA: the
    mean of factor × factor blocks), so that neither the image nor its inflated rows are ever whole.
    Each band is handed to OpenCV as a PNG of its own, after the previous band's last row unfiltered
    (PNG's filters read the row above): its rows decode exactly as in the whole file."""
    header = _png_header(data)
    if header is None:  # not a PNG after all: the caller decodes it whole
        return None
    width, height, depth, colour, _ = header
    channels, sample = _PNG_CHANNELS[colour], depth // 8
    row_bytes = 1 + width * channels * sample
    band = max(factor, _BAND_BYTES // row_bytes // factor * factor)
    out = np.empty((height // factor, width // factor, 3), np.uint8)
    inflater, idat = zlib.decompressobj(), _png_idat(data)
    pending, above = bytearray(), b""
    for top in range(0, height, band):
        rows = min(band, height - top)
        while len(pending) < rows * row_bytes:
            source = inflater.unconsumed_tail or next(idat, None)
            if source is None:
                return None   # truncated
            pending += inflater.decompress(source, rows * row_bytes - len(pending))
        filtered = bytes(pending[:rows * row_bytes])
        del pending[:rows * row_bytes]
        lead = 1 if above else 0
        band_header = struct.pack(">IIBBBBB", width, rows + lead, depth, colour, 0, 0, 0)
        mini = (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", band_header)
                + _png_chunk(b"IDAT", zlib.compress((b"\x00" + above if above else b"") + filtered, 1))
                + _png_chunk(b"IEND", b""))
        rows_read = cv2.imdecode(np.frombuffer(mini, np.uint8), cv2.IMREAD_UNCHANGED)
        if rows_read is None or rows_read.shape[0] != rows + lead:
            return None
        rows_read = rows_read[lead:]
        above = _png_raw_row(rows_read[-1], colour)
        bgr = _as_bgr8(rows_read)
        kept = rows // factor * factor
        if kept:
            block = bgr[:kept, :width // factor * factor]
            out[top // factor:(top + kept) // factor] = block if factor == 1 else cv2.resize(
                block, (width // factor, kept // factor), interpolation=cv2.INTER_AREA)
    return out


def _png_raw_row(row: np.ndarray, colour: int) -> bytes:
    """One row as OpenCV returned it (BGR(A), native 16 bits) back in PNG's sample order."""
    if colour == 2:
        row = row[:, ::-1]
    elif colour == 6:
        row = row[:, [2, 1, 0, 3]]
    return np.ascontiguousarray(row).astype(">u2" if row.dtype == np.uint16 else np.uint8).tobytes()


def _as_bgr8(rows: np.ndarray) -> np.ndarray:
    """Rows read unchanged as IMREAD_COLOR reads them: 8 bits, three channels, no alpha."""
    if rows.dtype == np.uint16:
        rows = (rows >> 8).astype(np.uint8)
    if rows.ndim == 2:
        return cv2.cvtColor(rows, cv2.COLOR_GRAY2BGR)
    return np.ascontiguousarray(rows[..., :3])
