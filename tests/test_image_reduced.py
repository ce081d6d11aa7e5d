"""Photos larger than a scan needs are decoded reduced (issue 28: a 110 Mpx PNG of 440 KB, a
progressive JPEG, a 5 KB WebP made a scan peak at 0.7–1.1 GB; `tactical bench memory` measures the
peaks). These tests check what is decoded — its size and its pixels — never time or memory."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration import imagefile
from calibration.imagefile import READ_PIXELS, decode_image, decoded_whole
from calibration.sources import SourceError, read_image
from companion.bench.memory import write_png

PHOTO = Path(__file__).parent / "fixtures" / "real_photos" / "chess-8x8-topdown.jpg"


def _photo_like(width: int, height: int) -> np.ndarray:
    """Smooth colours with detail at every scale (a reduction that dropped rows or columns shows)."""
    rng = np.random.default_rng(7)
    coarse = cv2.resize(rng.integers(0, 255, (30, 40, 3), np.uint8), (width, height), interpolation=cv2.INTER_CUBIC)
    return cv2.add(coarse, rng.integers(0, 40, (height, width, 3), np.uint8))


def _reduced_whole(image: np.ndarray, factor: int) -> np.ndarray:
    """What decoding reduced by `factor` must equal: the whole image, factor × factor blocks averaged."""
    h, w = image.shape[:2]
    return cv2.resize(image[:h // factor * factor, :w // factor * factor], (w // factor, h // factor),
                      interpolation=cv2.INTER_AREA)


def test_a_photo_of_more_than_a_scan_needs_is_read_reduced_to_it_issue_28(tmp_path):
    """The bench's 110 Mpx PNG (a 440 KB file): read at READ_PIXELS at most, its shape kept."""
    path = tmp_path / "drawing.png"
    write_png(path, 12_096, 9_072, (8, 8))
    image = read_image(path)
    height, width = image.shape[:2]
    assert READ_PIXELS * 0.99 <= width * height <= READ_PIXELS
    assert abs(width / height - 12_096 / 9_072) < 0.01
    assert image.dtype == np.uint8 and image.shape[2] == 3


@pytest.mark.parametrize("kind", ["rgb", "grey", "rgba", "rgb16", "grey16"])
@pytest.mark.parametrize("factor", [1, 2, 4])
def test_a_png_read_band_by_band_is_the_whole_png_reduced_issue_28(monkeypatch, kind, factor):
    """Each band is decoded after the row above it (PNG filters read it): any slip shows as wrong rows."""
    monkeypatch.setattr(imagefile, "_BAND_BYTES", 20_000)   # bands of a few rows: many seams
    base = _photo_like(503, 411)
    image = {"rgb": base, "grey": cv2.cvtColor(base, cv2.COLOR_BGR2GRAY), "rgba": cv2.cvtColor(base, cv2.COLOR_BGR2BGRA),
             "rgb16": base.astype(np.uint16) * 257 + 100, "grey16": cv2.cvtColor(base, cv2.COLOR_BGR2GRAY).astype(np.uint16) * 250}[kind]
    data = cv2.imencode(".png", image)[1].tobytes()
    assert not decoded_whole(data)
    whole = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert np.array_equal(imagefile._png_bands(data, factor), _reduced_whole(whole, factor))


@pytest.mark.parametrize("suffix,params", [(".png", []), (".jpg", [cv2.IMWRITE_JPEG_QUALITY, 95]), (".webp", [])])
def test_every_format_is_decoded_at_most_at_read_pixels_issue_28(monkeypatch, suffix, params):
    """With READ_PIXELS lowered, a 600 × 450 photo is read as READ_PIXELS and looks like itself."""
    monkeypatch.setattr(imagefile, "READ_PIXELS", 40_000)
    image = _photo_like(600, 450)
    data = cv2.imencode(suffix, image, params)[1].tobytes()
    got = decode_image(data)
    assert 40_000 * 0.98 <= got.shape[0] * got.shape[1] <= 40_000
    expected = cv2.resize(cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR), got.shape[1::-1],
                          interpolation=cv2.INTER_AREA)
    assert np.abs(got.astype(int) - expected).mean() < 3   # JPEG's reduced decoding rounds differently


def test_formats_decoded_whole_are_refused_above_their_limit_issue_28(tmp_path, monkeypatch):
    """A progressive JPEG keeps all its coefficients while decoding: over WHOLE_DECODE_PIXELS it is refused
    with the reason; the same photo as a baseline JPEG is read (reduced)."""
    monkeypatch.setattr(imagefile, "WHOLE_DECODE_PIXELS", 100_000)
    image = _photo_like(640, 480)
    progressive, baseline = tmp_path / "p.jpg", tmp_path / "b.jpg"
    cv2.imwrite(str(progressive), image, [cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    cv2.imwrite(str(baseline), image)
    with pytest.raises(SourceError, match="decoded whole, and may have at most 0 Mpx"):
        read_image(progressive)
    assert read_image(baseline).shape == (480, 640, 3)


def test_a_normal_photo_is_read_and_scanned_as_before_issue_28():
    """A phone photo under READ_PIXELS is decoded as it always was, so its scan is the same."""
    from vision import scan

    image = read_image(PHOTO)
    before = cv2.imread(str(PHOTO), cv2.IMREAD_COLOR)
    assert image.shape[0] * image.shape[1] <= READ_PIXELS
    assert np.array_equal(image, before)
    now, then = scan(image, grid=(8, 8)).to_dict(), scan(before, grid=(8, 8)).to_dict()
    now.pop("timing_ms"), then.pop("timing_ms")
    assert now["found"] and now == then
