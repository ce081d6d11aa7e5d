"""The incremental JSON reader: same values as json.loads whatever the chunk size, located errors."""
import io
import json

import pytest
from hypothesis import given, settings, strategies as st

from companion.cards.jsonstream import JsonReader, JsonStreamError

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=20)


def members(text: str, path=(), chunk=7):
    return list(JsonReader(io.StringIO(text), chunk_chars=chunk).items(path))


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=6), st.integers(1, 40), st.booleans())
def test_members_of_a_nested_object_equal_json_loads_at_any_chunk_size(data, chunk, indent):
    document = {"meta": {"version": "5"}, "data": data, "after": [1, 2.5, "x"]}
    text = json.dumps(document, indent=1 if indent else None, ensure_ascii=chunk % 2 == 0)
    assert dict(members(text, ("data",), chunk)) == data


@settings(max_examples=100, deadline=None)
@given(st.lists(JSON_VALUES, max_size=8), st.integers(1, 30))
def test_elements_of_a_top_level_array_equal_json_loads(values, chunk):
    assert [v for _, v in members(json.dumps(values), (), chunk)] == values


def test_a_number_cut_by_a_chunk_boundary_is_read_whole():
    text = '{"data": {"a": 1234567, "b": 8}}'
    for chunk in range(1, len(text) + 1):
        assert dict(members(text, ("data",), chunk)) == {"a": 1234567, "b": 8}


@pytest.mark.parametrize("text, message, line, column", [
    ('{"data": {"a": [1, 2], "b": [3', "truncated", 1, 31),
    ('{"data": {"a": "caf\\u00e', "truncated", 1, 21),
    ('{"data": {"a": tr', "truncated", 1, 16),
    ('{"data": {"a": [1, 2]', "truncated", 1, 22),
    ('{"data": {"a": [1, 2]}} x', "unexpected data after the end", 1, 25),
    ('{"data": {"a": [1,, 2]}}', "Expecting value", 1, 19),
    ('{"meta": {}}', "no 'data'", 1, 13),
    ('[1, 2]', "expected an object holding 'data'", 1, 1),
    ('{\n "data": {\n  "a" 1}}', "expected ':'", 3, 7),
])
def test_broken_documents_are_located(text, message, line, column):
    with pytest.raises(JsonStreamError) as caught:
        members(text, ("data",), 4)
    assert message in str(caught.value)
    assert (caught.value.line, caught.value.column) == (line, column)


def test_the_error_names_the_entry_it_was_in():
    text = json.dumps({"data": {"Serra Angel": [{"ok": 1}], "Shivan Dragon": [{"bad": 1}]}})
    broken = text.replace('"bad": 1', '"bad": tru')
    with pytest.raises(JsonStreamError) as caught:
        members(broken, ("data",), 16)
    assert caught.value.path == ("data", "Shivan Dragon")


def test_text_that_is_not_utf8_is_refused_with_its_place():
    raw = io.BytesIO(b'{"data": {"a": "\xff\xfe"}}')
    with pytest.raises(JsonStreamError, match="not UTF-8"):
        list(JsonReader(io.TextIOWrapper(raw, encoding="utf-8")).items(("data",)))


@pytest.mark.parametrize("text, path", [
    ('{"data": {"a": ' + "[" * 100_000 + "]" * 100_000 + "}}", ("data", "a")),
    ('{"meta": ' + '{"m": ' * 50_000 + "1" + "}" * 50_000 + ', "data": {}}', ("meta",)),
])
def test_values_nested_too_deep_are_a_located_error_not_a_recursion_error(text, path):
    """An entry 100 000 arrays deep, or a skipped `meta` 50 000 objects deep, raised RecursionError."""
    with pytest.raises(JsonStreamError) as caught:
        members(text, ("data",), 1 << 16)
    assert caught.value.kind == "too_deep" and caught.value.path == path
    assert (caught.value.line, caught.value.column) == (1, 10 if path == ("meta",) else 16)


class CountingStream(io.StringIO):
    """A text stream that remembers how much of it was read."""

    read_chars = 0

    def read(self, size=-1):
        chunk = super().read(size)
        self.read_chars += len(chunk)
        return chunk


@pytest.mark.parametrize("long_value", ['"' + "😀" * 5000 + '"', "[" + "1," * 5000 + "1]", '"' + "x" * 5000])
def test_a_value_over_the_size_limit_is_refused_while_it_is_read(long_value):
    """The buffer stops growing at the limit: the value is refused before it is held whole (an
    80 M-emoji string peaked at 681 MB when the buffer doubled up to 64 M characters)."""
    stream = CountingStream('{"data": {"a": 1, "b": ' + long_value + ', "c": 2}}')
    reader = JsonReader(stream, chunk_chars=64, max_value_chars=1000)
    with pytest.raises(JsonStreamError) as caught:
        list(reader.items(("data",)))
    assert caught.value.kind == "too_long" and caught.value.path == ("data", "b")
    assert "a value longer than 1,000 characters" in str(caught.value)
    assert (caught.value.line, caught.value.column) == (1, 24)
    assert stream.read_chars <= 2 * 1000 + 2 * 64


def test_a_value_under_the_size_limit_is_read_whole_at_any_chunk_size():
    value = ["x" * 300, {"k": "😀" * 300}]
    for chunk in (1, 7, 64):
        text = json.dumps({"data": {"a": value}}, ensure_ascii=False)
        reader = JsonReader(io.StringIO(text), chunk_chars=chunk, max_value_chars=1000)
        assert dict(reader.items(("data",))) == {"a": value}
