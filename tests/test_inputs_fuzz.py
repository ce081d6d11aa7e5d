"""Every file reader (boards, event decks, house rules, vision configs) against issue 19's audit:
the regression corpus in tests/fixtures/inputs/ (each file's first line says the error expected), and a
property-based fuzz — whatever the bytes, a reader returns its value or raises its own located error,
on one line, naming the file; never another exception, never unbounded time or memory."""
from __future__ import annotations

import datetime
import re
import tempfile
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boards import BoardFileError, library_boards, load_board
from calibration.config import ConfigError, VisionConfig
from companion.game import EventDeckError, load_event_deck
from companion.game.events import PREBUILT_PATH
from companion.rules import HouseRules, HouseRulesError

CORPUS = Path(__file__).parent / "fixtures" / "inputs"
READERS = {"boards": (load_board, BoardFileError), "decks": (load_event_deck, EventDeckError),
           "house": (HouseRules.load, HouseRulesError), "config": (VisionConfig.load, ConfigError)}
SEEDS = {"boards": [p.read_bytes() for p in library_boards().values()],
         "decks": [PREBUILT_PATH.read_bytes()],
         "house": [b"metric: chebyshev\ndie_sides: 12\nmana_burn: true\nextra_die_threshold: 3\n"],
         "config": [b"colour:\n  min_cover: 0.2\n  px_per_square: 24\nregistration:\n  min_markers: 3\n"
                    b"symbols:\n  glyph_min_score: 0.5\n"]}
WORK = Path(tempfile.mkdtemp(prefix="fuzz-inputs-"))


def corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("*/*.yaml"))


def read(kind: str, path: Path):
    reader, error = READERS[kind]
    try:
        return reader(path)
    except error as caught:
        text = str(caught)
        assert text.startswith(str(path)) and "\n" not in text and len(text) < 1000, text
        raise


def test_the_corpus_covers_every_reader():
    assert {p.parent.name for p in corpus_files()} == set(READERS)


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_audit_inputs_give_one_located_error(path):
    """Each input of the audit (alias bombs, deep nesting, 5 000-digit numbers, dates, .inf, lists where a
    word is expected) raises the reader's own error naming the file, the line and the field."""
    expect = path.read_text(encoding="utf-8").splitlines()[0].removeprefix("# expect: ")
    reader, error = READERS[path.parent.name]
    with pytest.raises(error) as caught:
        read(path.parent.name, path)
    assert re.search(expect, str(caught.value)), str(caught.value)


# -- fuzz --------------------------------------------------------------------------------------
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-10 ** 40, 10 ** 40), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30), st.dates(min_value=datetime.date(1, 1, 1)),
    st.sampled_from(["common", "mythic", "magical", "manhattan", "chebyshev", "D10", "W U", "WU@ B*", 12, 10]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.sampled_from(["name", "cards", "count", "rarity", "turns", "text", "metric", "die_sides", "colour",
                     "px_per_square", "min_cover", "rows", "players", "dice", "x"]), inner, max_size=4), max_leaves=12)
YAML_BYTES = st.sampled_from(list(b"#:-\"'[]{}&*!|>%,.@ 0123456789\n\t\x00\xc3\xa9\xff"))


@st.composite
def mutated(draw, kind: str) -> bytes:
    """A seed file with random values put in its mappings, then a few bytes changed."""
    data = yaml.safe_load(draw(st.sampled_from(SEEDS[kind])))
    for _ in range(draw(st.integers(0, 3))):
        target = data
        while isinstance(target, (dict, list)) and target and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(target, key=str) if isinstance(target, dict) else range(len(target))))
            if not isinstance(target[key], (dict, list)):
                break
            target = target[key]
        if isinstance(target, dict):
            target[draw(st.sampled_from(sorted(target, key=str) or ["x"]))] = draw(VALUES)
        elif isinstance(target, list) and target:
            target[draw(st.integers(0, len(target) - 1))] = draw(VALUES)
    raw = bytearray(yaml.safe_dump(data, allow_unicode=True).encode())
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, max(0, len(raw) - 1)))
        if draw(st.booleans()):
            raw[at:at] = bytes(draw(st.lists(YAML_BYTES, min_size=1, max_size=4)))
        else:
            del raw[at:at + draw(st.integers(1, 12))]
    return bytes(raw)


def fuzz_one(kind: str, raw: bytes) -> None:
    path = WORK / f"{kind}.yaml"
    path.write_bytes(raw)
    try:
        read(kind, path)
    except READERS[kind][1]:
        pass


@pytest.mark.parametrize("kind", sorted(READERS))
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzz_every_reader_only_raises_its_own_located_error(kind, data):
    fuzz_one(kind, data.draw(mutated(kind)))


@pytest.mark.parametrize("kind", sorted(READERS))
@settings(max_examples=60, deadline=None)
@given(raw=st.binary(max_size=200))
def test_fuzz_random_bytes_only_raise_the_readers_error(kind, raw):
    fuzz_one(kind, raw)
