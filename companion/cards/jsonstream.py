"""An incremental JSON reader: the members of one object (or the elements of one array) deep in a
file, one at a time, in bounded memory.

The card files are 100–160 MB of JSON whose bulk is one object of ~30 000 small entries
(MTGJSON's `data`) or one array of small objects (Scryfall). The standard library parses only
whole documents, so this reader walks the outer structure itself — braces, keys, commas — and
hands each entry to the standard library's C decoder (`JSONDecoder.raw_decode`) as soon as the
entry is complete in its buffer. Memory is the buffer (about a megabyte) plus one entry.

Everything is checked as it goes, including what follows the entries, so a truncated or
malformed file raises `JsonStreamError` with the line, column and key path where it went wrong.

Two limits keep a hostile file from taking the memory or the stack: a value (one card entry, or
anything the reader skips, such as `meta`) longer than `max_value_chars` is refused while it is
still being read — the buffer stops growing there, so a 200 M-character string is never held
whole — and a value nested deeper than the standard decoder follows (Python's recursion limit,
about 1 000 levels; a card entry is 4 deep) is refused with its place instead of a RecursionError.
"""
from __future__ import annotations

import json
from json.decoder import scanstring  # type: ignore[attr-defined]  # public since 2.x, not in typeshed
from typing import Any, Callable, Iterator, TextIO

CHUNK_CHARS = 1 << 20
# The largest AtomicCards entries (cards with many rulings and foreign printings) are tens of kB; a value
# 40 times the largest real one means a broken or hostile file. The buffer grows by doubling up to about
# twice this before the value is refused: at most 8 M characters (32 MB of 4-byte characters) held.
MAX_ENTRY_CHARS = 4 << 20
_WHITESPACE = " \t\n\r"
_AFTER_VALUE = ",]}:" + _WHITESPACE
_DECODER = json.JSONDecoder()


class JsonStreamError(ValueError):
    """A JSON file that is not what it should be, located (1-based line and column).

    `kind` says what went wrong in a word the app can translate (`message` is the English detail):
    "truncated" (the file ends too early), "encoding" (not UTF-8), "missing" (a key that should be
    there is not), "too_long" (an entry beyond the size limit), "too_deep" (nested beyond what the
    decoder follows) or "syntax"."""

    KINDS = ("truncated", "encoding", "missing", "too_long", "too_deep", "syntax")

    def __init__(self, message: str, line: int, column: int, path: tuple[str | int, ...] = (),
                 kind: str = "syntax"):
        self.reason, self.line, self.column, self.path, self.kind = message, line, column, path, kind
        where = "".join(f"[{p!r}]" if isinstance(p, str) else f"[{p}]" for p in path)
        super().__init__(f"line {line}, column {column}{' in ' + where if where else ''}: {message}")


class JsonReader:
    """Reads one JSON document from a text stream, in chunks."""

    def __init__(self, stream: TextIO, chunk_chars: int = CHUNK_CHARS, max_value_chars: int = MAX_ENTRY_CHARS):
        self._stream = stream
        self._chunk = chunk_chars
        self._max_value = max_value_chars
        self._buf = ""
        self._i = 0
        self._eof = False
        self._line = 1          # line number at the start of the buffer
        self._line_start = 0    # absolute offset of that line's first character
        self._offset = 0        # absolute offset of the buffer's first character
        self.path: list[str | int] = []   # keys and indexes leading to where the reader is
        self._value_start = 0   # absolute offset where the last value read began

    # -- public ---------------------------------------------------------
    def first_char(self) -> str:
        """The document's first non-blank character ('' for an empty stream), without consuming it."""
        return self._skip_ws()

    def items(self, path: tuple[str, ...] = ()) -> Iterator[tuple[str | int, Any]]:
        """(key, value) of each member of the object at `path` — or (index, value) of each element
        of the array there — then checks the rest of the document. `path` names object keys from
        the top; every other value is read and dropped."""
        yield from self._walk(tuple(path))
        if self._skip_ws():
            raise self.error("unexpected data after the end of the document")

    def error(self, message: str, at: int | None = None, kind: str = "syntax") -> JsonStreamError:
        """A located error at buffer index `at` (default: where the reader is)."""
        line, column = self._line_column(self._i if at is None else at)
        return JsonStreamError(message, line, column, tuple(self.path), kind)

    @property
    def value_at(self) -> tuple[int, int]:
        """Line and column where the last value read (the entry just yielded) began: still in the
        buffer, which is only cut at the reader's position when the next value is read."""
        return self._line_column(self._value_start - self._offset)

    def _line_column(self, at: int) -> tuple[int, int]:
        line = self._line + self._buf.count("\n", 0, at)
        newline = self._buf.rfind("\n", 0, at)
        start = self._offset + newline + 1 if newline >= 0 else self._line_start
        return line, self._offset + at - start + 1

    # -- structure ------------------------------------------------------
    def _walk(self, path: tuple[str, ...]) -> Iterator[tuple[str | int, Any]]:
        c = self._skip_ws()
        if not path:
            if c == "{":
                for key in self._keys():
                    yield key, self._value()
            elif c == "[":
                yield from self._elements()
            else:
                raise self.error(f"expected an object or an array, found {self._shown(c)}", kind=self._kind(c))
            return
        if c != "{":
            raise self.error(f"expected an object holding {path[0]!r}, found {self._shown(c)}", kind=self._kind(c))
        found = False
        for key in self._keys():
            if key == path[0] and not found:
                found = True
                yield from self._walk(path[1:])
            else:
                self._value()
        if not found:
            raise self.error(f"no {path[0]!r} in this object", kind="missing")

    def _keys(self) -> Iterator[str]:
        """At '{': yields each key with the reader on its value (which the caller consumes)."""
        self._i += 1
        c = self._skip_ws()
        if c == "}":
            self._i += 1
            return
        while True:
            if c != '"':
                raise self.error(f"expected a key in quotes, found {self._shown(c)}", kind=self._kind(c))
            key = self._decode(lambda buf, i: scanstring(buf, i + 1))
            if self._skip_ws() != ":":
                raise self.error(f"expected ':' after the key {key!r}")
            self._i += 1
            self._skip_ws()
            self.path.append(key)
            yield key
            self.path.pop()
            c = self._skip_ws()
            if c == "}":
                self._i += 1
                return
            if c != ",":
                raise self.error(f"expected ',' or '}}' after the value of {key!r}, found {self._shown(c)}",
                                 kind=self._kind(c))
            self._i += 1
            c = self._skip_ws()

    def _elements(self) -> Iterator[tuple[int, Any]]:
        self._i += 1
        if self._skip_ws() == "]":
            self._i += 1
            return
        index = 0
        while True:
            self.path.append(index)
            yield index, self._value()
            self.path.pop()
            c = self._skip_ws()
            if c == "]":
                self._i += 1
                return
            if c != ",":
                raise self.error(f"expected ',' or ']' after element {index}, found {self._shown(c)}",
                                 kind=self._kind(c))
            self._i += 1
            self._skip_ws()
            index += 1

    # -- values ---------------------------------------------------------
    def _value(self) -> Any:
        if not self._skip_ws():
            raise self.error("the file ends where a value should be (truncated?)", kind="truncated")
        self._value_start = self._offset + self._i
        return self._decode(_DECODER.raw_decode)

    def _decode(self, decode: Callable[[str, int], tuple[Any, int]]) -> Any:
        """Run a decoder of the standard library at the reader's position, reading more of the
        file until the value is complete in the buffer (or the file or the size limit ends)."""
        while True:
            try:
                value, end = decode(self._buf, self._i)
            except RecursionError:
                raise self.error("values nested too deep (a card entry is a few levels deep)",
                                 kind="too_deep") from None
            except json.JSONDecodeError as exc:
                if self._eof:
                    if self._cut_short(exc):
                        raise self.error("the file ends in the middle of a value (truncated?)", exc.pos,
                                         "truncated") from None
                    raise self.error(exc.msg, exc.pos) from None
                if len(self._buf) - self._i > self._max_value:
                    raise self.error(f"a value longer than {self._max_value:,} characters (the largest card "
                                     "entry is far shorter)", kind="too_long") from None
                self._fill()
                continue
            except ValueError as exc:  # a number of more than 4 300 digits, which int() refuses
                raise self.error(str(exc)) from None
            if (not self._eof and isinstance(value, (int, float)) and len(self._buf) - end < 32
                    and (end == len(self._buf) or self._buf[end] not in _AFTER_VALUE)):
                self._fill()  # "12" or "0." at the end of the buffer: the number may go on
                continue
            self._i = end
            return value

    def _cut_short(self, exc: json.JSONDecodeError) -> bool:
        """Whether a decoding error at the end of the file is the file being cut (not malformed)."""
        rest = self._buf[exc.pos:].rstrip()
        if exc.pos >= len(self._buf.rstrip()) or exc.msg.startswith("Unterminated"):
            return True
        if exc.msg.startswith("Invalid \\uXXXX"):
            return len(rest) < 6
        return exc.msg.startswith("Expecting value") and any(w.startswith(rest) for w in ("true", "false", "null"))

    def _skip_ws(self) -> str:
        """Skip blanks; the next character, or '' at the end of the document."""
        while True:
            buf, i, n = self._buf, self._i, len(self._buf)
            while i < n and buf[i] in _WHITESPACE:
                i += 1
            self._i = i
            if i < n:
                return buf[i]
            if self._eof:
                return ""
            self._fill()

    def _fill(self) -> None:
        """Read the next chunk, first dropping what is consumed (keeping line numbers right)."""
        if self._i:
            consumed = self._buf[:self._i]
            newlines = consumed.count("\n")
            if newlines:
                self._line += newlines
                self._line_start = self._offset + consumed.rfind("\n") + 1
            self._offset += self._i
            self._buf = self._buf[self._i:]
            self._i = 0
        # Doubles the buffer while an entry is unfinished, never reading past the value size limit.
        wanted = max(self._chunk, min(len(self._buf), self._max_value + 1))
        try:
            chunk = self._stream.read(wanted)
        except UnicodeDecodeError as exc:
            raise self.error(f"the file is not UTF-8 text ({exc.reason})", len(self._buf), "encoding") from None
        if not chunk:
            self._eof = True
        self._buf += chunk

    @staticmethod
    def _kind(c: str) -> str:
        """What an unexpected character means: the file cut short when there is none."""
        return "syntax" if c else "truncated"

    @staticmethod
    def _shown(c: str) -> str:
        return repr(c) if c else "the end of the file (truncated?)"
