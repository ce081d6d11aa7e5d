"""Images are measured before they are decoded (calibration.imagefile, issue 19's audit): a small file that
declares a huge image is refused with its size, and `scan --debug-image` says when its name is no image."""
from __future__ import annotations

import os
import struct
import zlib

import cv2
import numpy as np
import pytest

from calibration.imagefile import MAX_IMAGE_PIXELS, image_size
from calibration.sources import SourceError, read_image
from companion.cli.main import main


def png_declaring(width: int, height: int) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = zlib.compress(b"\x00" * 1000)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", rows) + chunk(b"IEND", b""))


def test_a_small_png_declaring_a_billion_pixels_is_refused_before_decoding(tmp_path, monkeypatch):
    """Audit: a 121 KB PNG declaring 40 000 × 25 000 pixels made a scan grow to 6.6 GB."""
    path = tmp_path / "bomb.png"
    path.write_bytes(png_declaring(40_000, 25_000))
    monkeypatch.setattr(cv2, "imdecode", lambda *a: pytest.fail("decoded before its size was checked"))
    with pytest.raises(SourceError, match=r"40000 × 25000 pixels \(1,000 Mpx\): more than the 120 Mpx"):
        read_image(path)


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".bmp", ".webp", ".tiff"])
@pytest.mark.parametrize("size", [(1, 1), (37, 5), (640, 480), (3001, 17)])
def test_the_header_states_the_real_size_of_every_format(tmp_path, suffix, size):
    image = np.random.default_rng(1).integers(0, 255, (size[1], size[0], 3), np.uint8)
    ok, encoded = cv2.imencode(suffix, image)
    assert ok
    assert image_size(encoded.tobytes()) == size
    path = tmp_path / f"x{suffix}"
    path.write_bytes(encoded.tobytes())
    assert read_image(path).shape[:2] == (size[1], size[0])


def test_the_limit_is_the_largest_phone_photo():
    assert 12_000 * 9_000 <= MAX_IMAGE_PIXELS


def test_a_fifo_is_not_read_as_an_image(tmp_path):
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    with pytest.raises(SourceError, match="no such image file"):
        read_image(fifo)


def test_scan_debug_image_with_a_name_that_is_no_image_is_one_clear_line(tmp_path, capsys):
    """Audit: `tactical scan … --debug-image x.txt` ended in cv2.error."""
    photo = tmp_path / "p.png"
    cv2.imwrite(str(photo), np.full((60, 80, 3), 255, np.uint8))
    assert main(["scan", str(photo), "--debug-image", str(tmp_path / "x.txt")]) == 2
    err = capsys.readouterr().err
    assert "--debug-image" in err and "not an image file name (use .png or .jpg)" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
