"""calibration.numeric: small helpers the finder's and the verification's stages share (issue 28: speed)."""
from __future__ import annotations

import numpy as np
import pytest

from calibration.numeric import median_along, nanmedian_last


def test_nanmedian_last_is_numpys_nanmedian_on_short_rows_with_gaps_issue_28():
    """The verification's per-edge medians moved from np.nanmedian (masked arrays, ~0.5 ms a call) to
    `nanmedian_last`: the same values and dtype on float32 rows with NaN gaps, ties, odd and even counts
    (a scan's answers must not move), NaN where a row has none."""
    rng = np.random.default_rng(28)
    for trial in range(200):
        rows = rng.normal(20, 10, (int(rng.integers(1, 30)), int(rng.integers(1, 12)))).astype(np.float32)
        if trial % 2:
            rows = np.round(rows)   # ties
        rows[rng.random(rows.shape) < 0.3] = np.nan
        some = np.isfinite(rows).any(axis=1)
        mine, numpys = nanmedian_last(rows[some]), np.nanmedian(rows[some], axis=1)
        assert mine.dtype == numpys.dtype and np.array_equal(mine, numpys)
    assert np.isnan(nanmedian_last(np.full((1, 4), np.nan, np.float32)))[0]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8, np.int32])
@pytest.mark.parametrize("count", [1, 2, 7, 196, 255])
def test_median_along_is_numpys_median_issue_28(dtype, count):
    """The squares' medians (line contrast, edge steps, a foreign board's typical colour) moved from
    np.median to `median_along`: the very same numbers and dtype over any axis, odd and even counts,
    ties and integers included (a scan's answers must not move)."""
    rng = np.random.default_rng(count)
    values = rng.integers(0, 12, (5, count, 3)).astype(dtype)   # few levels: many ties
    for axis in (1, -1, 0):
        assert np.array_equal(median_along(values, axis), np.median(values, axis=axis))
        assert median_along(values, axis).dtype == np.median(values, axis=axis).dtype
