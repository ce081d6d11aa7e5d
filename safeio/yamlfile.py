"""Bounded, type-checked reading of the project's YAML files: board files, event decks, house
rules, vision configs. Every file reader goes through here, so that no file — a mistake or a
trap — can crash, hang or exhaust memory, and every error names the file, the line and the field.

A file is read in steps, each with a limit (`Limits`, said in the error when it is exceeded):

1. bytes: a regular file only (never a FIFO or `/dev/zero`, which would block or never end),
   at most `max_bytes`; UTF-8 (a BOM is tolerated);
2. YAML events (a linear pass): nesting at most `max_depth`, at most `max_values` values;
3. the node graph: aliases expanded at most `max_values` values in all (a 1 KB "billion laughs"
   file stops here), no alias to itself, no key given twice, no text over `max_text` characters;
4. plain data, by PyYAML's safe constructor only (nothing read from a file is ever executed);
5. the reader's schema (`Record`, `Text`, `Whole`, `Number`, …) checks every field's type and
   range, so that nothing downstream sees a date where a metric was expected or a 5 000-digit count.

Errors are `FileError`s (a ValueError); each reader raises its own subclass (BoardFileError,
EventDeckError, HouseRulesError, ConfigError). Field paths read like `cards[3].rarity`, items
counted from 1 as people count.
"""
from __future__ import annotations

import difflib
import math
import os
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Generic, TypeVar

import yaml

SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when the wheel has it: ~60× faster


@dataclass(frozen=True)
class Limits:
    """What one file may hold. The defaults are generous for every file of the project."""

    max_bytes: int = 1 << 20      # 1 MiB
    max_depth: int = 32           # lists and mappings inside one another
    max_values: int = 100_000     # scalars, lists and mappings, aliases expanded
    max_text: int = 20_000        # characters in one text value


DEFAULT_LIMITS = Limits()


class FileError(ValueError):
    """A file that cannot be used: `path`, `line` (from 1), `field` (e.g. "cards[3].rarity")."""

    def __init__(self, message: str, *, path: object = None, line: int | None = None,
                 field: str | None = None) -> None:
        self.message, self.path, self.line, self.field = message, path, line, field
        super().__init__(message)

    def __str__(self) -> str:
        where: list[str] = []
        if self.path is not None:
            where.append(f"{self.path}" + (f":{self.line}" if self.line else ""))
        elif self.line:
            where.append(f"line {self.line}")
        if self.field is not None:
            where.append(f"field '{self.field}'")
        return (", ".join(where) + ": " if where else "") + self.message


FieldPath = tuple[str | int, ...]  # keys (str) and list indices (int, from 0) from the document's root
ErrorFactory = Callable[..., Exception]  # (message, *, path, line, at: FieldPath) -> the reader's error


def field_name(at: FieldPath) -> str | None:
    """("cards", 2, "rarity") -> "cards[3].rarity" (items counted from 1)."""
    text = ""
    for part in at:
        text += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or None


def file_error(cls: type[FileError] = FileError) -> ErrorFactory:
    """The error factory of a FileError subclass whose constructor takes (message, path, line, field)."""
    def make(message: str, *, path: object = None, line: int | None = None, at: FieldPath = ()) -> Exception:
        return cls(message, path=path, line=line, field=field_name(at))
    return make


def brief(value: object, limit: int = 60) -> str:
    """A value as an error message may quote it: never long (a repr of an alias bomb is gigabytes)."""
    if isinstance(value, (dict, list, tuple, set)):
        return {dict: "a mapping", list: "a list", tuple: "a list", set: "a set"}[type(value)]
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, date):
        return f"a date ({value.isoformat()[:32]})"
    if isinstance(value, int):
        digits = len(str(abs(value))) if abs(value) < 10 ** 30 else None
        return repr(value) if digits else "a number with more than 30 digits"
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


# -- reading -------------------------------------------------------------------------------
def read_bytes(path: str | os.PathLike[str], *, limits: Limits = DEFAULT_LIMITS,
               error: ErrorFactory = file_error()) -> bytes:
    """The bytes of a regular file of at most `limits.max_bytes`; anything else raises `error`."""
    try:
        # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise error(f"cannot read the file: {exc.strerror or exc}", path=path) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error("not a regular file (a folder, a device or a pipe cannot be read as a file)", path=path)
        if info.st_size > limits.max_bytes:
            raise error(f"the file is {info.st_size:,} bytes; the limit is {limits.max_bytes:,}", path=path)
        chunks: list[bytes] = []
        size = 0
        while size <= limits.max_bytes:  # the file may grow while it is read
            chunk = os.read(fd, limits.max_bytes + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limits.max_bytes:
            raise error(f"the file is over {limits.max_bytes:,} bytes, the limit", path=path)
        return b"".join(chunks)
    except OSError as exc:
        raise error(f"cannot read the file: {exc.strerror or exc}", path=path) from None
    finally:
        os.close(fd)


def decode_text(raw: bytes, *, path: object = None, error: ErrorFactory = file_error()) -> str:
    """UTF-8 text (a BOM, which some Windows editors add, is tolerated)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line_start = raw.rfind(b"\n", 0, exc.start) + 1
        raise error(f"not UTF-8 text: byte 0x{raw[exc.start]:02X} at byte {exc.start - line_start + 1} of the line; "
                    "save the file as UTF-8", path=path, line=raw.count(b"\n", 0, exc.start) + 1) from None


def _line_of(item: yaml.Node | yaml.Event) -> int:
    """The line (from 1, as people count) where a node or a parser event starts; PyYAML counts from 0
    and ships no types, so this is also where its line number becomes an `int` for the type checker."""
    line: int = item.start_mark.line
    return line + 1


# PyYAML can fail outside YAMLError on ordinary bad text: 'name: 2024-13-45' (ValueError from its
# date constructor), an int of 5 000 digits (ValueError), '[[[[…' in the pure-Python loader
# (RecursionError). All of them mean "this is not a valid YAML document".
_YAML_FAILURES = (yaml.YAMLError, ValueError, TypeError, OverflowError, RecursionError)


@dataclass(frozen=True)
class YamlDocument:
    """A parsed file: its plain `data`, its node tree (for line numbers) and where it came from."""

    data: object
    root: yaml.Node | None
    path: object
    error: ErrorFactory

    def node(self, at: FieldPath) -> yaml.Node | None:
        """The node at a field path (None when it is not in the file)."""
        node = self.root
        for part in at:
            if isinstance(node, yaml.MappingNode):
                node = next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == str(part)),
                            None)
            elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
                node = node.value[part]
            else:
                return None
        return node

    def line(self, at: FieldPath) -> int | None:
        """The line (from 1) where a field is written: its key's line for a mapping entry; for a
        field that is missing, the line of the nearest enclosing value that is there."""
        if self.root is None:
            return None
        while at:
            if isinstance(at[-1], str):
                parent = self.node(at[:-1])
                if isinstance(parent, yaml.MappingNode):
                    for key, _ in parent.value:
                        if isinstance(key, yaml.ScalarNode) and key.value == at[-1]:
                            return _line_of(key)
            node = self.node(at)
            if node is not None:
                return _line_of(node)
            at = at[:-1]
        return _line_of(self.root)

    def fail(self, message: str, at: FieldPath = ()) -> Exception:
        """The reader's error for a field, located (file, line, field)."""
        return self.error(message, path=self.path, line=self.line(at), at=at)


def _syntax_error(exc: BaseException, path: object, error: ErrorFactory) -> Exception:
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or (str(exc).splitlines() or [type(exc).__name__])[0]
    if isinstance(exc, RecursionError):
        problem = "nested too deeply"
    elif "integer string conversion" in problem:
        problem = "a number with thousands of digits"
    return error(f"not valid YAML: {problem[:200]}", path=path, line=mark.line + 1 if mark else None)


class _Refused(Exception):
    """Carries the reader's own error out of the PyYAML calls (it may be a ValueError too)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


def _check_events(text: str, path: object, limits: Limits, error: ErrorFactory) -> None:
    """Nesting depth and the number of values, in one linear pass over the parser's events (the
    parser keeps a stack, not a recursion, so it cannot itself be driven too deep)."""
    depth = count = 0
    for event in yaml.parse(text, Loader=SafeLoader):
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > limits.max_depth:
                raise _Refused(error(f"nested more than {limits.max_depth} levels deep", path=path,
                                     line=_line_of(event)))
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
        if isinstance(event, (yaml.ScalarEvent, yaml.AliasEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            count += 1
            if count > limits.max_values:
                raise _Refused(error(f"more than {limits.max_values:,} values", path=path,
                                     line=_line_of(event)))


def _check_graph(root: yaml.Node, path: object, limits: Limits, error: ErrorFactory) -> None:
    """Aliases expanded (each node counted as often as it is reached, computed once per node),
    recursive aliases, duplicate keys and long texts; iterative, so no input drives it deep."""
    size: dict[int, int] = {}
    depth_of: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool, FieldPath]] = [(root, False, ())]

    def fail(message: str, node: yaml.Node, at: FieldPath) -> Exception:
        return _Refused(error(message, path=path, line=_line_of(node), at=at))

    while stack:
        node, children_done, at = stack.pop()
        key = id(node)
        if children_done:
            on_path.discard(key)
            children = [child for child, _ in _children(node, at)]
            size[key] = 1 + sum(size[id(c)] for c in children)
            depth_of[key] = 1 + max((depth_of[id(c)] for c in children), default=0)
            if size[key] > limits.max_values:
                raise fail(f"more than {limits.max_values:,} values once its aliases (*name) are expanded", node, at)
            if depth_of[key] > limits.max_depth:
                raise fail(f"nested more than {limits.max_depth} levels deep once its aliases are expanded", node, at)
            continue
        if key in size:
            continue
        if key in on_path:
            raise fail("an alias (*name) refers to the value that contains it", node, at)
        if isinstance(node, yaml.ScalarNode):
            if len(node.value) > limits.max_text:
                raise fail(f"a value of {len(node.value):,} characters; the limit is {limits.max_text:,}", node, at)
            size[key], depth_of[key] = 1, 0
            continue
        if isinstance(node, yaml.MappingNode):
            seen: dict[str, int] = {}
            for k, _ in node.value:
                if isinstance(k, yaml.ScalarNode):
                    if k.value in seen:
                        raise fail(f"key given twice (first on line {seen[k.value]})", k, (*at, k.value[:40]))
                    seen[k.value] = _line_of(k)
        on_path.add(key)
        stack.append((node, True, at))
        stack.extend((child, False, child_at) for child, child_at in _children(node, at) if id(child) not in size)


def _children(node: yaml.Node, at: FieldPath) -> list[tuple[yaml.Node, FieldPath]]:
    if isinstance(node, yaml.MappingNode):
        pairs = []
        for k, v in node.value:
            name = k.value[:40] if isinstance(k, yaml.ScalarNode) else "?"
            pairs += [(k, (*at, name)), (v, (*at, name))]
        return pairs
    if isinstance(node, yaml.SequenceNode):
        return [(item, (*at, i)) for i, item in enumerate(node.value)]
    return []


def parse_yaml(source: bytes | str, *, path: object = None, limits: Limits = DEFAULT_LIMITS,
               error: ErrorFactory = file_error()) -> YamlDocument:
    """A YAML document from bytes or text, within `limits` (steps 2–4 of the module doc)."""
    text = decode_text(source, path=path, error=error) if isinstance(source, bytes) else source
    if len(text) > limits.max_bytes:
        raise error(f"the document is over {limits.max_bytes:,} characters, the limit", path=path)
    try:
        _check_events(text, path, limits, error)
        loader = SafeLoader(text)
        try:
            root = loader.get_single_node()
            if root is None:
                return YamlDocument(None, None, path, error)
            _check_graph(root, path, limits, error)
            return YamlDocument(loader.construct_document(root), root, path, error)
        finally:
            loader.dispose()
    except _Refused as refused:
        raise refused.error from None
    except _YAML_FAILURES as exc:
        raise _syntax_error(exc, path, error) from None


def read_yaml_file(path: str | os.PathLike[str], *, limits: Limits = DEFAULT_LIMITS,
                   error: ErrorFactory = file_error()) -> YamlDocument:
    """Read and parse a YAML file within `limits` (steps 1–4 of the module doc)."""
    return parse_yaml(read_bytes(path, limits=limits, error=error), path=path, limits=limits, error=error)


# -- schema: every field type-checked ---------------------------------------------------------
def plain_document(data: object, *, path: object = None, error: ErrorFactory = file_error()) -> YamlDocument:
    """Data that did not come from a YAML file (built in code, read from JSON), to check with a schema."""
    return YamlDocument(data, None, path, error)


Checked = TypeVar("Checked")


class Kind(Generic[Checked]):
    """What a value must be: `check` returns the value (texts stripped) or raises the reader's
    located error, "expected <what>, got <value>"; `say` words <what> instead (e.g. with a rule).
    `Checked` is the type `check` returns, so a reader's code after the check is type-checked too."""

    say = ""

    @property
    def expected(self) -> str:
        raise NotImplementedError

    def check(self, value: object, doc: YamlDocument, at: FieldPath = ()) -> Checked:
        raise NotImplementedError

    def refuse(self, value: object, doc: YamlDocument, at: FieldPath) -> Exception:
        return doc.fail(f"expected {self.say or self.expected}, got {brief(value)}", at)


@dataclass(frozen=True)
class Text(Kind[str]):
    """A text, stripped of surrounding spaces; at most `max_chars`; empty only when `empty`."""

    max_chars: int = 200
    empty: bool = False
    say: str = ""

    @property
    def expected(self) -> str:
        return f"a{'' if self.empty else ' non-empty'} text of at most {self.max_chars} characters"

    def check(self, value: object, doc: YamlDocument, at: FieldPath = ()) -> str:
        if not isinstance(value, str) or len(value) > self.max_chars or not (self.empty or value.strip()):
            raise self.refuse(value, doc, at)
        return value.strip()


@dataclass(frozen=True)
class Whole(Kind[int]):
    """A whole number (never a boolean) from `min` to `max`."""

    min: int
    max: int
    say: str = ""

    @property
    def expected(self) -> str:
        return f"a whole number from {self.min} to {self.max}"

    def check(self, value: object, doc: YamlDocument, at: FieldPath = ()) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not self.min <= value <= self.max:
            raise self.refuse(value, doc, at)
        return value


@dataclass(frozen=True)
class Number(Kind[float]):
    """A finite number (whole or decimal, never a boolean) from `min` to `max`."""

    min: float
    max: float
    say: str = ""

    @property
    def expected(self) -> str:
        return f"a number from {self.min:g} to {self.max:g}"

    def check(self, value: object, doc: YamlDocument, at: FieldPath = ()) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.refuse(value, doc, at)
        if isinstance(value, int) and abs(value) > 10 ** 30:  # float(value) could overflow
            raise self.refuse(value, doc, at)
        if not math.isfinite(value) or not self.min <= value <= self.max:
            raise self.refuse(value, doc, at)
        return value


@dataclass(frozen=True)
class Flag(Kind[bool]):
    """true or false (YAML's yes/no/on/off too)."""

    say: str = ""
    expected = "true or false"

    def check(self, value: object, doc: YamlDocument, at: FieldPath = ()) -> bool:
        if not isinstance(value, bool):
            raise self.refuse(value, doc, at)
        return value


@dataclass(frozen=True)
class OneOf(Kind[object]):
    """One of a few values, of the same type as the value given (1 is not True, '10' is not 10)."""

    values: tuple[object, ...]
    say: str = ""

    @property
    def expected(self) -> str:
        return "one of " + ", ".join(str(v) for v in self.values)

    def check(self, value: object, doc: YamlDocument, at: FieldPath = ()) -> object:
        if not any(type(value) is type(v) and value == v for v in self.values):
            raise self.refuse(value, doc, at)
        return value


@dataclass(frozen=True)
class Nullable(Kind[Checked | None]):
    """`kind`, or empty (null)."""

    kind: Kind[Checked]

    def check(self, value: object, doc: YamlDocument, at: FieldPath = ()) -> Checked | None:
        return None if value is None else self.kind.check(value, doc, at)


@dataclass(frozen=True)
class ListOf(Kind[list[Checked]]):
    """A list of `kind`, with `min_items` to `max_items` items."""

    kind: Kind[Checked]
    min_items: int = 0
    max_items: int = 10_000
    say: str = ""

    @property
    def expected(self) -> str:
        return f"a{' non-empty' if self.min_items else ''} list of at most {self.max_items:,} items"

    def check(self, value: object, doc: YamlDocument, at: FieldPath = ()) -> list[Checked]:
        if not isinstance(value, list) or not self.min_items <= len(value) <= self.max_items:
            raise self.refuse(value, doc, at)
        return [self.kind.check(item, doc, (*at, i)) for i, item in enumerate(value)]


@dataclass(frozen=True)
class Record(Kind[dict[str, Any]]):
    """A mapping with known keys: an unknown key is refused (naming the allowed ones), `required`
    keys must be there; returns the checked values of the keys given (typed `Any`: each key has
    its own kind)."""

    fields: Mapping[str, Kind[Any]]
    required: tuple[str, ...] = ()
    say: str = ""
    noun: str = "key"  # what the table calls a key of this mapping ("option" for house rules)

    @property
    def expected(self) -> str:
        return "a mapping of " + ", ".join(self.fields)

    def check(self, value: object, doc: YamlDocument, at: FieldPath = ()) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.refuse(value, doc, at)
        for key in value:
            if not isinstance(key, str) or key not in self.fields:
                name = key[:40] if isinstance(key, str) else brief(key, 40)
                raise doc.fail(self._unknown(key), (*at, name))
        for key in self.required:
            if key not in value:
                raise doc.fail("missing required key", (*at, key))
        return {key: self.fields[key].check(item, doc, (*at, key)) for key, item in value.items()}

    def _unknown(self, key: object) -> str:
        close = difflib.get_close_matches(key, list(self.fields), n=1) if isinstance(key, str) else []
        names = list(self.fields)
        allowed = ", ".join(names[:12]) + (f", … ({len(names)} in all)" if len(names) > 12 else "")
        return f"unknown {self.noun}" + (f"; did you mean {close[0]}?" if close else "") + f" (allowed: {allowed})"
