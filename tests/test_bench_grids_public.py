"""The grids-public bench's speed report (issue 28): the photos over the worst-ratio goal are broken down into
the scan's stages, so that the figure says where a slow scan's time goes; the others are not measured again."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.bench.grids_public import SPEED_WORST_GOAL, print_speed


@dataclass(frozen=True)
class _DrawnChessboard:
    """A photo as the bench sees one: a name, its set, the chequer's size in squares, and its pixels."""
    name: str
    set: str = "drawn"
    grid: tuple[int, int] = (7, 5)

    def image(self) -> np.ndarray:
        side, margin = 24, 40
        w, h = self.grid
        page = np.full((h * side + 2 * margin, w * side + 2 * margin, 3), 235, np.uint8)
        for y in range(h):
            for x in range(w):
                if (x + y) % 2 == 0:
                    page[margin + y * side: margin + (y + 1) * side, margin + x * side: margin + (x + 1) * side] = 20
        return page


def test_only_the_photos_over_the_worst_ratio_goal_are_broken_down_into_the_scans_stages(capsys):
    slow, fast = _DrawnChessboard("slow.png"), _DrawnChessboard("fast.png")
    rows = [(slow.name, slow.set, (248, 200), 10.0, 10.0 * SPEED_WORST_GOAL * 1.5),
            (fast.name, fast.set, (248, 200), 10.0, 10.0 * SPEED_WORST_GOAL * 0.5)]
    print_speed(rows, 1, verbose=False, photos=[slow, fast])
    out = capsys.readouterr().out
    breakdown = out[out.index("where the time"):]
    line = next(text for text in breakdown.splitlines() if "slow.png" in text)
    sb, finding, total = (float(line.split(label)[1].split()[0]) for label in ("SB", "finding", "="))
    assert sb > 0 and finding > 0 and total > 0   # measured on the photo itself, not copied from the rows
    assert "fast.png" not in breakdown


def test_no_breakdown_when_every_photo_is_within_the_goal(capsys):
    photo = _DrawnChessboard("fast.png")
    print_speed([(photo.name, photo.set, (248, 200), 10.0, 10.0)], 1, verbose=False, photos=[photo])
    assert "where the time" not in capsys.readouterr().out
