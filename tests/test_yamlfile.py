"""The bounded YAML reader every file reader goes through (safeio.yamlfile): each limit of issue 19's
audit is said in the error with the file, the line and the field, and nothing read grows without bound."""
from __future__ import annotations

import os

import pytest

from safeio.yamlfile import (FileError, Flag, Limits, ListOf, Nullable, Number, OneOf, Record, Text, Whole,
                             parse_yaml, read_bytes, read_yaml_file)


def alias_bomb(levels: int = 9) -> str:
    """The 1 KB "billion laughs": each level lists the previous one nine times."""
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for i in range(1, levels):
        prev, name = chr(96 + i), chr(97 + i)
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def located(text: str, limits: Limits = Limits()) -> FileError:
    with pytest.raises(FileError) as caught:
        parse_yaml(text.encode(), path="f.yaml", limits=limits)
    return caught.value


def test_an_alias_bomb_is_refused_with_a_short_message():
    """Audit: a 1 KB alias bomb made an error message build a 2.7 GB repr; now refused before any walk."""
    error = located(alias_bomb())
    assert "once its aliases (*name) are expanded" in str(error) and error.path == "f.yaml"
    assert len(str(error)) < 200


def test_aliases_within_the_limit_are_expanded():
    document = parse_yaml("base: &b {x: 1}\nother: *b\n")
    assert document.data == {"base": {"x": 1}, "other": {"x": 1}}


def test_an_alias_to_itself_is_refused():
    assert "refers to the value that contains it" in str(located("a: &a [1, *a]\n"))


@pytest.mark.parametrize("text", ["[" * 200 + "]" * 200, "a:\n" + "".join(" " * i + "- \n" for i in range(1, 60))])
def test_deep_nesting_is_refused_before_the_loader_recurses(text):
    """Audit: deep nesting gave RecursionError in the event-deck and house-rules readers."""
    error = located(text)
    assert "nested more than 32 levels deep" in str(error) and error.line is not None


def test_too_many_values_and_too_long_texts():
    assert "more than 10 values" in str(located("[" + ", ".join(["1"] * 11) + "]", Limits(max_values=10)))
    error = located("name: " + "x" * 50 + "\n", Limits(max_text=40))
    assert (error.line, error.field) == (1, "name") and "50 characters; the limit is 40" in str(error)


def test_a_key_given_twice_is_refused_where_it_is():
    error = located("deck:\n  name: A\n  name: B\n")
    assert (error.line, error.field) == (3, "deck.name") and "first on line 2" in str(error)


@pytest.mark.parametrize("text,words", [
    ("a: " + "9" * 5000 + "\n", "thousands of digits"),   # audit: a 5 000-digit integer
    ("a: 2024-13-45\n", "month must be in 1..12"),         # PyYAML's date constructor raises ValueError
    ("a: [\n", "not valid YAML"),
    ("a: 1\n---\nb: 2\n", "another document"),
    ("!!python/object/apply:os.system ['echo x']\n", "could not determine a constructor"),
])
def test_what_pyyaml_raises_becomes_one_located_error(text, words):
    error = located(text)
    assert "not valid YAML" in str(error) and words in str(error) and str(error).startswith("f.yaml")


def test_files_must_be_regular_and_small(tmp_path):
    """Audit: /dev/zero and a FIFO read forever; a file over the limit is refused by its size."""
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    for path in ("/dev/zero", fifo, tmp_path):
        with pytest.raises(FileError, match="not a regular file"):
            read_bytes(path)
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: 1\n" * 300)
    with pytest.raises(FileError, match="the file is 1,500 bytes; the limit is 1,000"):
        read_yaml_file(big, limits=Limits(max_bytes=1000))
    with pytest.raises(FileError, match="cannot read the file: No such file"):
        read_bytes(tmp_path / "absent.yaml")


def test_a_fifo_with_data_waiting_is_not_read(tmp_path):
    """Even a FIFO that holds data (a process keeps it open and writes) is refused at once, never read."""
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    keeper = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)  # Linux: both ends at once, so nothing blocks
    try:
        os.write(keeper, b"name: x\n" * 100)
        with pytest.raises(FileError, match="not a regular file"):
            read_bytes(fifo)
    finally:
        os.close(keeper)


def test_text_is_utf8_with_an_optional_bom(tmp_path):
    path = tmp_path / "x.yaml"
    path.write_bytes("\ufeffnom: Épreuve\n".encode())
    assert read_yaml_file(path).data == {"nom": "Épreuve"}
    path.write_bytes(b"a: 1\nnom: \xe9\n")
    with pytest.raises(FileError) as caught:
        read_yaml_file(path)
    assert caught.value.line == 2 and "not UTF-8" in str(caught.value)


SCHEMA = Record({
    "name": Text(20), "count": Whole(1, 4), "size": Number(0.5, 2), "flag": Flag(),
    "kind": OneOf(("a", "b")), "note": Nullable(Text(10, empty=True)),
    "items": ListOf(Record({"id": Whole(0, 9)}, required=("id",)), max_items=3),
}, required=("name",))


@pytest.mark.parametrize("text,field,line,words", [
    ("name: [x]\n", "name", 1, "expected a non-empty text of at most 20 characters, got a list"),
    ("name: x\ncount: 5\n", "count", 2, "from 1 to 4, got 5"),
    ("name: x\ncount: true\n", "count", 2, "got True"),
    ("name: x\ncount: 2.0\n", "count", 2, "whole number"),
    ("name: x\nsize: .inf\n", "size", 2, "got inf"),          # audit: px_per_square: .inf
    ("name: x\nsize: .nan\n", "size", 2, "got nan"),
    ("name: x\nflag: 1\n", "flag", 2, "true or false, got 1"),
    ("name: x\nkind: [a]\n", "kind", 2, "one of a, b, got a list"),  # audit: rarity: [common] (TypeError)
    ("name: x\nkind: 2024-01-01\n", "kind", 2, "got a date (2024-01-01)"),
    ("name: x\nitems: [{id: 1}, {}]\n", "items[2].id", 2, "missing required key"),
    ("name: x\nitems: [{id: 1, idd: 2}]\n", "items[1].idd", 2, "did you mean id?"),
    ("name: x\nitems: [{id: 1}, {id: 2}, {id: 3}, {id: 4}]\n", "items", 2, "at most 3 items"),
    ("count: 1\n", "name", 1, "missing required key"),
])
def test_every_field_is_type_checked_and_located(text, field, line, words):
    document = parse_yaml(text, path="f.yaml")
    with pytest.raises(FileError) as caught:
        SCHEMA.check(document.data, document)
    assert (caught.value.field, caught.value.line) == (field, line), str(caught.value)
    assert words in str(caught.value) and str(caught.value).startswith("f.yaml")


def test_a_good_document_passes_the_schema_unchanged_but_stripped():
    document = parse_yaml("name: ' Anna '\ncount: 2\nsize: 1\nflag: yes\nkind: b\nitems: [{id: 3}]\n")
    assert SCHEMA.check(document.data, document) == {"name": "Anna", "count": 2, "size": 1, "flag": True,
                                                     "kind": "b", "items": [{"id": 3}]}
