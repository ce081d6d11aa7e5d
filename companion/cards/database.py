"""The trimmed card database: one SQLite file in the app's data folder, written whole and swapped in.

A new database is always written to a temporary file beside the old one and moved over it
only when complete (`os.replace`, atomic): a failed, cancelled or killed import leaves the
previous data as it was. The file opens read-only, so a copy on a tablet is never changed.
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from pathlib import Path
from typing import Callable, Iterable

from companion.cards.model import Card, CardDataError, PlaneText, Progress, Suggestion
from companion.cards.search import SCHEMA as SEARCH_SCHEMA, NameSearch, index_rows
from companion.cards.text import fold

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


def database_path(folder: str | os.PathLike) -> Path:
    """Where the card database lives in a data folder (the app's `user_data_dir`)."""
    return Path(folder) / DATABASE_NAME


def write_database(path: Path, faces: Iterable[Card], meta: dict, *,
                   progress: Callable[[Progress], None] | None = None) -> dict:
    """Write every face and the search indexes to a new file at `path` (which must not exist:
    the caller moves it into place). `meta` is read once the faces are consumed (the reader
    of the file fills in what it learns on the way). Returns what went into the file."""
    connection = sqlite3.connect(path)
    try:
        # Small pages: the posting lists are blobs of a few kB, each wasting half a page on average.
        connection.executescript("PRAGMA page_size = 1024; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
                                 + SCHEMA)
        names: list[tuple[int, int, str]] = []
        name_rows = []
        counts = {"faces": 0, "cards": set(), "french_names": 0, "planes": 0}
        batch = []
        for face_id, face in enumerate(faces, start=1):
            batch.append((face_id, face.name, face.card_name if face.card_name != face.name else None, face.name_fr, face.layout, face.side,
                          face.mana_cost, face.mana_value, face.colours, face.power, face.toughness,
                          face.loyalty, face.type_line, face.type_line_fr if face.is_plane else "", " ".join(face.types),
                          "|".join(face.keywords), int(face.unblockable), face.text, face.text_fr,
                          face.popularity))
            seen = set()
            for lang, name in [("en", face.name), *(("fr", n) for n in face.names_fr)] + (
                    [("en", face.card_name)] if face.side in ("", "a") and face.card_name != face.name else []):
                folded = fold(name)
                if folded and folded not in seen:
                    seen.add(folded)
                    name_rows.append((len(name_rows) + 1, face_id, lang, name))
                    names.append((len(name_rows), face_id, folded))
            counts["faces"] += 1
            counts["cards"].add(face.card_name)
            counts["french_names"] += bool(face.names_fr)
            counts["planes"] += face.is_plane
            if len(batch) >= 2000:
                connection.executemany(f"INSERT INTO faces VALUES ({','.join('?' * 20)})", batch)
                batch.clear()
        connection.executemany(f"INSERT INTO faces VALUES ({','.join('?' * 20)})", batch)
        if progress:
            progress(Progress("cards.step.indexing", 0.92, {"names": len(name_rows)}))
        connection.executemany("INSERT INTO names VALUES (?, ?, ?, ?)", name_rows)
        prefixes, grams, typecode = index_rows(names)
        prefixes.sort()
        connection.executemany("INSERT INTO prefixes VALUES (?, ?, ?)", prefixes)
        connection.executemany("INSERT INTO grams VALUES (?, ?)", sorted(grams))
        info = {**meta, "schema": SCHEMA_VERSION, "faces": counts["faces"], "cards": len(counts["cards"]),
                "french_names": counts["french_names"], "planes": counts["planes"], "names": len(name_rows),
                "gram_ids": typecode,
                "imported_at": time.strftime("%Y-%m-%d %H:%M:%S")}
        connection.executemany("INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in info.items()])
        connection.commit()
        if progress:
            progress(Progress("cards.step.compacting", 0.97, {}))
        connection.execute("VACUUM")
    finally:
        connection.close()
    return info


class CardDatabase:
    """The imported cards, read-only: search, card faces, planes.

    Open with `open_database(folder)`; safe to use from one thread at a time (open one per
    thread otherwise)."""

    def __init__(self, path: Path):
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
            rows = self.db.execute("SELECT key, value FROM meta").fetchall()
        except sqlite3.DatabaseError as exc:
            raise CardDataError("cards.errors.damaged_database",
                                f"{self.path}: not a card database the app can read ({exc}); import the "
                                f"card file again", path=str(self.path)) from None
        self.info = {key: json.loads(value) for key, value in rows}
        if self.info.get("schema") != SCHEMA_VERSION:
            raise CardDataError("cards.errors.old_database",
                                f"{self.path}: card database of another version; import the card file again",
                                path=str(self.path))
        self._names = NameSearch(self.db, self.info["gram_ids"])
        self._planes = NameSearch(self.db, self.info["gram_ids"], PLANES_ONLY)

    def close(self) -> None:
        self.db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- search ---------------------------------------------------------
    def suggest(self, text: str, limit: int = 8) -> list[Suggestion]:
        """Cards whose French or English name begins (or nearly begins, with typos) like `text`."""
        return self._suggestions(self._names, text, limit)

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
                           h.typos, faces[h.face][4], faces[h.face][5]) for h in hits]

    # -- cards ----------------------------------------------------------
    def card(self, card_id: int) -> Card:
        """The face with this id (from a Suggestion)."""
        row = self.db.execute(f"SELECT id, {', '.join(_FACE_COLUMNS)} FROM faces WHERE id = ?",
                              (card_id,)).fetchone()
        if row is None:
            raise KeyError(card_id)
        return self._card(row)

    def find(self, name: str) -> Card | None:
        """The face whose French or English name is `name` (accents and case aside), else None."""
        row = self.db.execute("SELECT n.face FROM prefixes k JOIN names n ON n.id = k.name WHERE k.key = ? "
                              "AND k.whole ORDER BY n.lang = 'en' DESC LIMIT 1", (fold(name),)).fetchone()
        return self.card(row[0]) if row else None

    def faces_of(self, card_name: str) -> list[Card]:
        """Every face of a multi-faced card, side a first."""
        rows = self.db.execute(f"SELECT id, {', '.join(_FACE_COLUMNS)} FROM faces WHERE "
                               "coalesce(card_name, name) = ? ORDER BY side", (card_name,)).fetchall()
        return [self._card(row) for row in rows]

    def plane_text(self, name: str, lang: str) -> PlaneText | None:
        """The text of the plane or phenomenon called `name` (French or English), in `lang` when
        the data has it, else in English; None when no plane has that name."""
        row = self.db.execute(
            "SELECT n.face FROM prefixes k JOIN names n ON n.id = k.name JOIN faces f ON f.id = n.face "
            f"WHERE k.key = ? AND k.whole AND {PLANES_ONLY} LIMIT 1", (fold(name),)).fetchone()
        if row is None:
            return None
        plane = self.card(row[0])
        if lang == "fr" and plane.text_fr:
            return PlaneText(plane.name_fr or plane.name, plane.type_line_fr or plane.type_line, plane.text_fr, "fr")
        return PlaneText(plane.display_name(lang), plane.type_line, plane.text, "en")

    @staticmethod
    def _card(row) -> Card:
        (face_id, name, card_name, name_fr, layout, side, mana_cost, mana_value, colours, power, toughness,
         loyalty, type_line, type_line_fr, types, keywords, unblockable, text, text_fr, popularity) = row
        return Card(name=name, card_name=card_name or name, names_fr=(name_fr,) if name_fr else (), layout=layout,
                    side=side, mana_cost=mana_cost, mana_value=mana_value, colours=colours, power=power,
                    toughness=toughness, loyalty=loyalty, type_line=type_line, type_line_fr=type_line_fr,
                    types=tuple(types.split()), keywords=tuple(k for k in keywords.split("|") if k),
                    unblockable=bool(unblockable), text=text, text_fr=text_fr, popularity=popularity,
                    id=face_id)


def open_database(folder: str | os.PathLike) -> CardDatabase | None:
    """The card database of a data folder, or None when nothing was imported there yet
    (then `no_data_line(lang)` says how). Raises CardDataError for a damaged file."""
    path = database_path(folder)
    return CardDatabase(path) if path.is_file() else None
