"""Every numeric setting of the vision YAML has a range (issue #29): `adapt_iterations: 1000000` made
`tactical watch` silent for 20 s and more, `inner_margin: 0.9` an FFT of 0 points, `-5.0` a matmul
shape error. A value out of range is refused with the file, the line and the field."""
from __future__ import annotations

from dataclasses import fields, is_dataclass

import pytest

from calibration.config import RANGES, ConfigError, VisionConfig

TOP = {section.name for section in fields(VisionConfig)}
# the sections, and the stages set inside a section (#28: the grid finder's `grid.segments`, `grid.extent`, ...)
SECTIONS = [(section.name, section.default_factory()) for section in fields(VisionConfig)]
SECTIONS += [(f"{name}.{f.name}", getattr(stage, f.name)) for name, stage in SECTIONS for f in fields(stage)
             if is_dataclass(getattr(stage, f.name)) and f.name not in TOP]
NUMERIC = [(name, f.name, getattr(stage, f.name)) for name, stage in SECTIONS for f in fields(stage)
           if isinstance(getattr(stage, f.name), (int, float)) and not isinstance(getattr(stage, f.name), bool)]


def _setting(section: str, name: str, value) -> str:
    """The YAML of one setting in a (dotted) section, after a comment line."""
    parts = section.split(".")
    return "# a camera's settings\n" + "".join("  " * depth + f"{part}:\n" for depth, part in enumerate(parts)) \
        + "  " * len(parts) + f"{name}: {value}\n"


def _read(config: VisionConfig, section: str, name: str):
    for part in section.split("."):
        config = getattr(config, part)
    return getattr(config, name)


def test_every_numeric_field_of_every_section_has_a_range_holding_its_default():
    assert len(NUMERIC) > 200     # the walk sees the fields (a renamed section must not empty it)
    missing = [f"{section}.{name}" for section, name, _ in NUMERIC if name not in RANGES]
    assert missing == []
    outside = [f"{section}.{name}={value}" for section, name, value in NUMERIC
               if not RANGES[name][0] <= value <= RANGES[name][1]]
    assert outside == []


@pytest.mark.parametrize("section, name, default", NUMERIC, ids=lambda v: str(v))
def test_a_value_past_either_end_of_a_range_names_the_file_the_line_and_the_field(tmp_path, section, name,
                                                                                  default):
    low, high = RANGES[name]
    step = 1 if isinstance(default, int) else 0.5
    path = tmp_path / "vision.yaml"
    line = 2 + section.count(".") + 1
    for wrong in (low - step, high + step):
        path.write_text(_setting(section, name, wrong), encoding="utf-8")
        with pytest.raises(ConfigError) as caught:
            VisionConfig.load(path)
        assert str(caught.value).startswith(f"{path}:{line}") and f"{section}.{name}" in str(caught.value)
    path.write_text(_setting(section, name, high), encoding="utf-8")
    assert _read(VisionConfig.load(path), section, name) == high


def test_a_grid_finder_setting_written_before_its_stage_sections_is_read_into_its_stage(tmp_path):
    """#28: the grid finder's thresholds are grouped by stage (`grid.segments`, `grid.families`,
    `grid.lattice`, `grid.extent`, `grid.result`); a file written before, with them flat under `grid`,
    still reads the same, and one setting given both ways is refused with the line and both names."""
    path = tmp_path / "vision.yaml"
    path.write_text("grid:\n  min_segment_frac: 0.02\n  min_border_support: 0.4\n  min_score: 0.7\n"
                    "  result:\n    min_square_aspect: 0.3\n", encoding="utf-8")
    grid = VisionConfig.load(path).grid_finder()
    assert (grid.segments.min_segment_frac, grid.extent.min_border_support, grid.min_score,
            grid.result.min_square_aspect) == (0.02, 0.4, 0.7, 0.3)
    path.write_text("grid:\n  extent:\n    min_border_support: 0.4\n  min_border_support: 0.5\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        VisionConfig.load(path)
    assert str(caught.value).startswith(f"{path}:4") and "grid.extent.min_border_support" in str(caught.value)


def test_every_grid_finder_threshold_belongs_to_one_stage():
    """#28: a flat (earlier) name finds its stage only when no two stages, nor the section itself, share it."""
    names = [f.name for section, stage in SECTIONS if section.startswith("grid") for f in fields(stage)]
    assert len(names) == len(set(names)) and len(names) > 70


@pytest.mark.parametrize("setting, says", [
    ("colour:\n  adapt_iterations: 1000000\n", "colour.adapt_iterations': expected a whole number from 0 to 10"),
    ("colour:\n  inner_margin: 0.9\n", "colour.inner_margin': expected a number from 0 to 0.35"),
    ("colour:\n  inner_margin: -5.0\n", "colour.inner_margin': expected a number from 0 to 0.35"),
])
def test_the_audits_settings_are_refused_by_tactical_watch_before_it_starts(tmp_path, capsys, setting, says):
    from boards import library_boards
    from companion.cli.main import main

    config = tmp_path / "vision.yaml"
    config.write_text(setting, encoding="utf-8")
    assert main(["watch", str(tmp_path / "none.avi"), "--board", str(library_boards()["duel-20x12"]),
                 "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert f"{config}:2" in err and says in err
