"""Every numeric setting of the vision YAML has a range (issue #29): `adapt_iterations: 1000000` made
`tactical watch` silent for 20 s and more, `inner_margin: 0.9` an FFT of 0 points, `-5.0` a matmul
shape error. A value out of range is refused with the file, the line and the field."""
from __future__ import annotations

from dataclasses import fields

import pytest

from calibration.config import RANGES, ConfigError, VisionConfig

SECTIONS = [(section.name, section.default_factory()) for section in fields(VisionConfig)]
NUMERIC = [(name, f.name, getattr(stage, f.name)) for name, stage in SECTIONS for f in fields(stage)
           if isinstance(getattr(stage, f.name), (int, float)) and not isinstance(getattr(stage, f.name), bool)]


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
    for wrong in (low - step, high + step):
        path.write_text(f"# a camera's settings\n{section}:\n  {name}: {wrong}\n", encoding="utf-8")
        with pytest.raises(ConfigError) as caught:
            VisionConfig.load(path)
        assert str(caught.value).startswith(f"{path}:3") and f"{section}.{name}" in str(caught.value)
    path.write_text(f"{section}:\n  {name}: {high}\n", encoding="utf-8")
    assert getattr(getattr(VisionConfig.load(path), section), name) == high


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
