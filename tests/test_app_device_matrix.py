"""Issue #27's matrix: every screen and every pop-up of the real app, for each device class (phone, 7–8"
tablet, 10–12" tablet) at its real pixel size and density, held upright and turned, for 2, 4 and 5
players and the Horde (five panels: four players and the City; five players is the most, MT 9.02.a), in
French and in English: no touch target under 48 dp, no two targets overlapping, no text cut or spilling
over its box, nothing outside the window (`companion.app.layout_audit`).

One app process per class (Kivy reads the density once). Set UPDATE_SCREENSHOTS=1 to also write one
screenshot per class, orientation and screen (4 players, French) to docs/screenshots/devices/."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.device import DEVICE_CLASSES
from companion.app.layout_matrix import TABLES
from companion.app.screens import SCREENS

pytestmark = pytest.mark.slow  # the whole app, hundreds of layouts per class: the second step of ./run.sh test

DOCS = Path(__file__).resolve().parents[1] / "docs" / "screenshots" / "devices"


@pytest.fixture(scope="module", params=DEVICE_CLASSES)
def matrix(request, tmp_path_factory) -> tuple[str, dict[str, list[str]]]:
    device = request.param
    tmp = tmp_path_factory.mktemp(f"matrix-{device}")
    report = tmp / "report.json"
    command = [sys.executable, "-m", "companion.app.layout_matrix", device, str(report)]
    if os.environ.get("UPDATE_SCREENSHOTS"):
        command += ["--shots", str(tmp / "shots")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=1500,
                          env={**os.environ, "KIVY_NO_ARGS": "1"})
    assert done.returncode == 0, done.stderr[-3000:]
    if os.environ.get("UPDATE_SCREENSHOTS"):
        for folder in (tmp / "shots").iterdir():  # one picture per class, orientation and screen
            shutil.rmtree(DOCS / folder.name, ignore_errors=True)
            (DOCS / folder.name).mkdir(parents=True)
            for png in folder.glob("*.png"):
                if "." not in png.stem:
                    shutil.copy(png, DOCS / folder.name / png.name)
    return device, json.loads(report.read_text(encoding="utf-8"))


def test_every_point_of_the_matrix_was_measured(matrix):
    """Both orientations × every table × both languages × every screen and the pop-ups they declare."""
    device, report = matrix
    points = {key.rsplit("/", 1)[0] for key in report}
    assert points == {f"{device}-{orientation}/{table}/{lang}" for orientation in ("portrait", "landscape")
                      for table in TABLES for lang in ("fr", "en")}
    cases = {key.rsplit("/", 1)[1] for key in report}
    assert set(SCREENS) <= cases
    assert len(cases) > len(SCREENS), "the screens' pop-ups are measured too"


def test_no_screen_or_pop_up_has_a_defect_at_any_point(matrix):
    """#27: no touch target under 48 dp, no overlap, no cut text, nothing outside the window."""
    device, report = matrix
    defects = [f"{key}: {problem}" for key, problems in report.items() for problem in problems]
    assert defects == [], f"{len(defects)} defects on the {device}, e.g.:\n" + "\n".join(defects[:40])
