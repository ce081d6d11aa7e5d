"""The trimmed card database: one SQLite file in the app's data folder, written whole and swapped in.

A new database is always written to a temporary file beside the old one and moved over it
only when complete (`os.replace`, atomic): a failed, cancelled or killed import leaves the
previous data as it was. The file opens read-only, so a copy on a tablet is never changed.
"""
from __future__ import annotations

import functools
import json
import math
import os
import sqlite3
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, ParamSpec, Sequence, TypeVar

from companion.cards.model import Card, CardDataError, PlaneText, Progress, Suggestion
from companion.cards.search import PREFIX_KEY_CHARS, SCHEMA as SEARCH_SCHEMA, NameSearch, index_rows
from companion.cards.text import fold

P = ParamSpec("P")
R = TypeVar("R")
DATABASE_NAME = "cards.sqlite"
SCHEMA_VERSION = 1
_FACE_COLUMNS = ("name", "card_name", "name_fr", "layout", "side", "mana_cost", "mana_value", "colours",
                 "power", "toughness", "loyalty", "type_line", "type_line_fr", "types", "keywords",
                 "unblockable", "text", "text_fr", "popularity")
SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE faces (id INTEGER PRIMARY KEY, name TEXT NOT NULL, card_name TEXT, name_fr TEXT,
    layout TEXT NOT NULL, side TEXT NOT NULL, mana_cost TEXT NOT NULL, mana_value REAL NOT NULL,
    colours TEXT NOT NULL, power TEXT, toughness TEXT, loyalty TEXT, type_line TEXT NOT NULL,
    type_line_fr TEXT NOT NULL, types TEXT NOT NULL, keywords TEXT NOT NULL, unblockable INTEGER NOT NULL,
    text TEXT NOT NULL, text_fr TEXT NOT NULL, popularity INTEGER);
{SEARCH_SCHEMA}"""
PLANES_ONLY = "(' ' || f.types || ' ' LIKE '% Plane %' OR ' ' || f.types || ' ' LIKE '% Phenomenon %')"


def database_path(folder: str | os.PathLike[str]) -> Path:
    """Where the card database lives in a data folder (the app's `user_data_dir`)."""
    return Path(folder) / DATABASE_NAME


def write_database(path: Path, faces: Iterable[Card], meta: dict[str, object], *,
                   progress: Callable[[Progress], None] | None = None,
                   french_names: Mapping[tuple[str, str], Sequence[str]] | None = None) -> dict[str, Any]:
    """Write every face and the search indexes to a new file at `path` (which must not exist:
    the caller moves it into place). `meta` and `french_names` ((English card name, side) →
    French names, from a Scryfall file's French printings) are read once the faces are consumed
    (the reader of the file fills them in on the way). Returns what went into the file."""
    connection = sqlite3.connect(path)
    try:
        # Small pages: the posting lists are blobs of a few kB, each wasting half a page on average.
        connection.executescript("PRAGMA page_size = 1024; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
                                 + SCHEMA)
        names = _Names()
        card_names: set[str] = set()
        counts = {"faces": 0, "french_names": 0, "planes": 0}
        batch: list[tuple[object, ...]] = []
        for face_id, face in enumerate(faces, start=1):
            batch.append((face_id, face.name, face.card_name if face.card_name != face.name else None, face.name_fr,
                          face.layout, face.side, face.mana_cost, face.mana_value, face.colours, face.power,
                          face.toughness, face.loyalty, face.type_line, face.type_line_fr if face.is_plane else "",
                          " ".join(face.types), "|".join(face.keywords), int(face.unblockable), face.text,
                          face.text_fr, face.popularity))
            whole_card = [face.card_name] if face.side in ("", "a") and face.card_name != face.name else []
            names.add(face_id, [("en", face.name), *(("fr", n) for n in face.names_fr), *(("en", n) for n in whole_card)])
            counts["faces"] += 1
            card_names.add(face.card_name)
            counts["french_names"] += bool(face.names_fr)
            counts["planes"] += face.is_plane
            if len(batch) >= 2000:
                connection.executemany(f"INSERT INTO faces VALUES ({','.join('?' * 20)})", batch)
                batch.clear()
        connection.executemany(f"INSERT INTO faces VALUES ({','.join('?' * 20)})", batch)
        if french_names:
            counts["french_names"] += _add_french_names(connection, names, french_names)
        if progress:
            progress(Progress("cards.step.indexing", 0.92, {"names": len(names.rows)}))
        connection.executemany("INSERT INTO names VALUES (?, ?, ?, ?)", names.rows)
        prefixes, grams, typecode = index_rows(names.folded)
        prefixes.sort()
        connection.executemany("INSERT INTO prefixes VALUES (?, ?, ?)", prefixes)
        connection.executemany("INSERT INTO grams VALUES (?, ?)", sorted(grams))
        info: dict[str, Any] = {
            **meta, "schema": SCHEMA_VERSION, "faces": counts["faces"], "cards": len(card_names),
            "french_names": counts["french_names"], "planes": counts["planes"], "names": len(names.rows),
            "gram_ids": typecode, "imported_at": time.strftime("%Y-%m-%d %H:%M:%S")}
        connection.executemany("INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in info.items()])
        connection.commit()
        if progress:
            progress(Progress("cards.step.compacting", 0.97, {}))
        connection.execute("VACUUM")
    finally:
        connection.close()
    return info


def _add_french_names(connection: sqlite3.Connection, names: _Names,
                      french_names: Mapping[tuple[str, str], Sequence[str]]) -> int:
    """Give the faces already written the French names found apart from them ((English card name,
    side) → names); how many faces got their first French name. Faces are found through an index
    made for this and dropped after (the database keeps no more than it needs)."""
    connection.execute("CREATE INDEX faces_by_card ON faces (coalesce(card_name, name), side)")
    given = 0
    for (card_name, side), french in french_names.items():
        row = connection.execute("SELECT id, name, card_name, name_fr FROM faces WHERE coalesce(card_name, name) = ? "
                                 "AND side = ? LIMIT 1", (card_name, side)).fetchone()
        if row is None or not french:
            continue
        face_id, name, whole_card, name_fr = row
        known = [name] + ([whole_card] if whole_card and side in ("", "a") else []) + ([name_fr] if name_fr else [])
        if names.add(face_id, [("fr", n) for n in french], known) and name_fr is None:
            connection.execute("UPDATE faces SET name_fr = ? WHERE id = ?", (french[0], face_id))
            given += 1
    connection.execute("DROP INDEX faces_by_card")
    return given


class _Names:
    """The searchable names of the faces being written: rows of the `names` table and the folded
    names the indexes are built from, each folded name once per face."""

    def __init__(self) -> None:
        self.rows: list[tuple[int, int, str, str]] = []       # (name id, face id, lang, name)
        self.folded: list[tuple[int, int, str]] = []          # (name id, face id, folded name)

    def add(self, face_id: int, names: Iterable[tuple[str, str]], known: Iterable[str] = ()) -> bool:
        """Add (lang, name) pairs of a face whose `known` names are already there; whether any was new."""
        seen = {fold(name) for name in known}
        added = False
        for lang, name in names:
            folded = fold(name)
            if folded and folded not in seen:
                seen.add(folded)
                self.rows.append((len(self.rows) + 1, face_id, lang, name))
                self.folded.append((len(self.rows), face_id, folded))
                added = True
        return added


# What every card database's meta table holds, and of which type: checked when it is opened, so a
# damaged or edited file is said to be damaged there, not found out by a KeyError in a search.
_META_TYPES: dict[str, type | tuple[type, ...]] = {
    "schema": int, "source": str, "file": str, "faces": int, "cards": int, "french_names": int, "planes": int,
    "names": int, "gram_ids": str, "imported_at": str, "skipped": int}
_TABLES = {"meta", "faces", "names", "prefixes", "grams"}


def damaged(path: Path, reason: str) -> CardDataError:
    """The one error of a card database that cannot be read: "import it again" (the games are elsewhere)."""
    return CardDataError("cards.errors.damaged_database", f"{path}: the card data is damaged ({reason}); "
                         "import it again", path=str(path), reason=reason)


def not_a_database_file(path: Path) -> CardDataError:
    """The error of a `cards.sqlite` that is a folder (or anything but a file): said as such, neither
    taken for "no card data yet" nor left to fail at the import's final rename."""
    return CardDataError("cards.errors.not_a_database_file", f"{path}: not a file (a folder?); move it away so "
                         "the cards can be imported", path=str(path))


def _guarded(method: Callable[P, R]) -> Callable[P, R]:
    """A query of an open database: SQLite finding the file damaged (changed since it was opened, or
    damage the open-time check could not see) raises CardDataError, as a damaged file at opening does."""
    @functools.wraps(method)
    def query(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except sqlite3.DatabaseError as exc:
            raise damaged(_path_of(args[0]), str(exc)) from None
        except (TypeError, ValueError, AttributeError) as exc:  # a value not of its column's type
            raise damaged(_path_of(args[0]), f"a value of the wrong type ({exc})") from None
    return query


def _path_of(database: object) -> Path:
    assert isinstance(database, CardDatabase)
    return database.path


class CardDatabase:
    """The imported cards, read-only: search, card faces, planes.

    Open with `open_database(folder)`; safe to use from one thread at a time (open one per
    thread otherwise). Opening checks the file (SQLite's quick_check: every page and index entry
    readable; the tables there; the meta rows JSON of the right types); any query that finds
    damage later raises CardDataError (`cards.errors.damaged_database`) too, never sqlite3's."""

    def __init__(self, path: Path):
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, str(exc)) from None
        try:
            self.info = self._checked_meta()
        except BaseException:
            self.db.close()
            raise
        self._names = NameSearch(self.db, str(self.info["gram_ids"]))
        self._planes = NameSearch(self.db, str(self.info["gram_ids"]), PLANES_ONLY)

    def _checked_meta(self) -> dict[str, object]:
        try:
            tables = {name for (name,) in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if "meta" not in tables:
                raise damaged(self.path, "no meta table: not a card database")
            info: dict[str, object] = {}
            for key, value in self.db.execute("SELECT key, value FROM meta"):
                try:
                    info[str(key)] = json.loads(value)
                except (TypeError, ValueError):
                    raise damaged(self.path, f"meta {key!r} is not JSON") from None
            if info.get("schema") != SCHEMA_VERSION:
                raise CardDataError("cards.errors.old_database",
                                    f"{self.path}: card database of another version; import the card file again",
                                    path=str(self.path))
            missing = _TABLES - tables
            if missing:
                raise damaged(self.path, f"no table {', '.join(sorted(missing))}")
            for key, wanted in _META_TYPES.items():
                if not isinstance(info.get(key), wanted) or isinstance(info.get(key), bool):
                    raise damaged(self.path, f"meta {key!r} missing or not {getattr(wanted, '__name__', wanted)}")
            if info["gram_ids"] not in ("H", "i"):
                raise damaged(self.path, "meta 'gram_ids' is not a posting list type")
            problems = [row[0] for row in self.db.execute("PRAGMA quick_check(3)")]
            if problems != ["ok"]:
                raise damaged(self.path, "; ".join(str(p) for p in problems))
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, str(exc)) from None
        return info

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> CardDatabase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- search ---------------------------------------------------------
    @_guarded
    def suggest(self, text: str, limit: int = 8) -> list[Suggestion]:
        """Cards whose French or English name begins (or nearly begins, with typos) like `text`."""
        return self._suggestions(self._names, text, limit)

    @_guarded
    def suggest_planes(self, text: str, limit: int = 8) -> list[Suggestion]:
        """Planes and phenomena only (the planar-deck entry of the New game form)."""
        return self._suggestions(self._planes, text, limit)

    def _suggestions(self, search: NameSearch, text: str, limit: int) -> list[Suggestion]:
        hits = search.hits(text, limit)
        if not hits:
            return []
        faces = {row[0]: row for row in self.db.execute(
            f"SELECT id, name, name_fr, coalesce(card_name, name), type_line, mana_cost FROM faces "
            f"WHERE id IN ({','.join('?' * len(hits))})", [h.face for h in hits])}
        return [Suggestion(h.face, faces[h.face][1], faces[h.face][2], faces[h.face][3], h.name, h.lang,
                           h.typos, faces[h.face][4], faces[h.face][5]) for h in hits if h.face in faces]

    # -- cards ----------------------------------------------------------
    @_guarded
    def card(self, card_id: int) -> Card:
        """The face with this id (from a Suggestion)."""
        row = self.db.execute(f"SELECT id, {', '.join(_FACE_COLUMNS)} FROM faces WHERE id = ?",
                              (card_id,)).fetchone()
        if row is None:
            raise KeyError(card_id)
        return self._card(row)

    @_guarded
    def find(self, name: str) -> Card | None:
        """The face whose French or English name is `name` (accents and case aside), else None."""
        face = self._named(name, "")
        return self.card(face) if face is not None else None

    def _named(self, name: str, condition: str) -> int | None:
        """The face whose whole folded name is `name`'s (English first), under an SQL `condition` on `faces f`."""
        folded = fold(name)
        rows = self.db.execute(
            "SELECT n.face, n.name FROM prefixes k JOIN names n ON n.id = k.name JOIN faces f ON f.id = n.face "
            f"WHERE k.key = ? AND k.whole{' AND ' + condition if condition else ''} ORDER BY n.lang = 'en' DESC",
            (folded[:PREFIX_KEY_CHARS],))
        return next((int(face) for face, found in rows if fold(found) == folded), None)

    @_guarded
    def faces_of(self, card_name: str) -> list[Card]:
        """Every face of a multi-faced card, side a first."""
        rows = self.db.execute(f"SELECT id, {', '.join(_FACE_COLUMNS)} FROM faces WHERE "
                               "coalesce(card_name, name) = ? ORDER BY side", (card_name,)).fetchall()
        return [self._card(row) for row in rows]

    @_guarded
    def plane_text(self, name: str, lang: str) -> PlaneText | None:
        """The text of the plane or phenomenon called `name` (French or English), in `lang` when
        the data has it, else in English; None when no plane has that name."""
        face = self._named(name, PLANES_ONLY)
        if face is None:
            return None
        plane = self.card(face)
        if lang == "fr" and plane.text_fr:
            return PlaneText(plane.name_fr or plane.name, plane.type_line_fr or plane.type_line, plane.text_fr, "fr")
        return PlaneText(plane.display_name(lang), plane.type_line, plane.text, "en")

    @staticmethod
    def _card(row: Sequence[object]) -> Card:
        """A face from its row, each value of its column's type (TypeError otherwise: a damaged file)."""
        (face_id, name, card_name, name_fr, layout, side, mana_cost, mana_value, colours, power, toughness,
         loyalty, type_line, type_line_fr, types, keywords, unblockable, text, text_fr, popularity) = row
        if not (isinstance(face_id, int) and isinstance(mana_value, (int, float)) and math.isfinite(mana_value)
                and (popularity is None or isinstance(popularity, int))):
            raise TypeError(f"face {face_id!r} has values of the wrong type")
        fr = _optional_text(name_fr)
        return Card(name=_text(name), card_name=_optional_text(card_name) or _text(name), names_fr=(fr,) if fr else (),
                    layout=_text(layout), side=_text(side), mana_cost=_text(mana_cost), mana_value=mana_value,
                    colours=_text(colours), power=_optional_text(power), toughness=_optional_text(toughness),
                    loyalty=_optional_text(loyalty), type_line=_text(type_line), type_line_fr=_text(type_line_fr),
                    types=tuple(_text(types).split()), keywords=tuple(k for k in _text(keywords).split("|") if k),
                    unblockable=bool(unblockable), text=_text(text), text_fr=_text(text_fr), popularity=popularity,
                    id=face_id)


def _text(value: object) -> str:
    """A text column's value; TypeError for anything else (a damaged file)."""
    if not isinstance(value, str):
        raise TypeError(f"text expected, found {type(value).__name__}")
    return value


def _optional_text(value: object) -> str | None:
    return None if value is None else _text(value)


def open_database(folder: str | os.PathLike[str]) -> CardDatabase | None:
    """The card database of a data folder, or None when nothing was imported there yet
    (then `no_data_line(lang)` says how). Raises CardDataError for a damaged file, or for a
    `cards.sqlite` that is not a file (a folder of that name: "No card data yet" would hide it)."""
    path = database_path(folder)
    if not os.path.lexists(path):
        return None
    if not path.is_file():
        raise not_a_database_file(path)
    return CardDatabase(path)
