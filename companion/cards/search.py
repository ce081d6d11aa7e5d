"""Search as you type over every French and English name, in a few milliseconds, from SQLite.

Two indexes, both written at import (`index_rows`) and read per keystroke (`NameSearch`):

- `prefixes(key, name)`: every word-start suffix of every folded name ("ange de serra",
  "de serra", "serra"), ordered, so "serr" is one range scan of a B-tree: the exact matches,
  which always rank first.
- `grams(gram, faces)`: for each trigram of " " + folded name, the ids of the card faces with a
  name holding it (a packed array: 16-bit ids while there are fewer than 65 536 faces — the
  whole card pool has about 33 000). A query with typos shares most of its trigrams with the
  name it means; counting them over a few posting lists picks a few dozen faces, and a
  bit-parallel edit distance (Myers/Hyyrö, with transpositions) keeps those within one typo
  (queries of 4–6 letters) or two (7 and more) of the beginning of a word.

Why not SQLite's FTS5: `tactical bench cards` measures both on the same names; FTS5's trigram
tokenizer finds substrings only, so typos need an OR of trigrams ranked by bm25 over every
name holding any of them, which is slower at p95 and needs FTS5 compiled into the sqlite3
library (not guaranteed on Android). The figures are in docs/cards.md.
"""
from __future__ import annotations

import sqlite3
from array import array
from collections import Counter
from dataclasses import dataclass

from companion.cards.text import fold, word_starts

MAX_TYPOS = 2
# Prefix keys are cut to this many characters: each word start of a name costs at most this much
# index, so the index grows linearly with the names (12 000 one-letter words made a 150 MB index
# when every key ran to the end of the name). Real names are told apart well before: a longer query
# is looked up by its first PREFIX_KEY_CHARS characters, the rest checked on the names found.
PREFIX_KEY_CHARS = 32
CANDIDATES = 48          # names verified per fuzzy query, the ones sharing the most trigrams
_UPPER = "{"             # sorts after every character a folded name holds ([0-9a-z ])


def typo_budget(folded_query: str) -> int:
    """How many typos a query of this length may hold: none under 4 letters (too many names
    are one letter away), one up to 6, two from 7."""
    letters = len(folded_query.replace(" ", ""))
    return 0 if letters < 4 else 1 if letters < 7 else MAX_TYPOS


def trigrams(folded: str) -> set[str]:
    """Trigrams of a folded name, the first one anchored by a space (" se", "ser", …)."""
    padded = " " + folded
    return {padded[i:i + 3] for i in range(len(padded) - 2)}


def prefix_distance(query: str, text: str, limit: int = MAX_TYPOS) -> int:
    """The fewest edits (insertion, deletion, substitution, swap of two neighbours) turning
    `query` into some beginning of `text` — the distance to what the typist meant so far.

    Bit-parallel (Myers 1999, Hyyrö 2003 for the swaps): one pass over `text`, one machine
    word per column. Results above `limit` are only known to be above it."""
    m = len(query)
    if m == 0:
        return 0
    peq: dict[str, int] = {}
    for i, c in enumerate(query):
        peq[c] = peq.get(c, 0) | (1 << i)
    mask, high = (1 << m) - 1, 1 << (m - 1)
    vp, vn, d0, previous_eq = mask, 0, 0, 0
    score = best = m
    for c in text[:m + limit]:
        eq = peq.get(c, 0)
        d0 = (((~d0 & eq) << 1) & previous_eq) | (((eq & vp) + vp) ^ vp) | eq | vn
        hp = vn | (~(d0 | vp) & mask)
        hn = vp & d0
        if hp & high:
            score += 1
        elif hn & high:
            score -= 1
        hp = ((hp << 1) | 1) & mask
        hn = (hn << 1) & mask
        vp = hn | (~(d0 | hp) & mask)
        vn = hp & d0
        d0 &= mask
        previous_eq = eq
        if score < best:
            best = score
    return best


def begins_a_word(query: str, folded: str, at_start: bool) -> bool:
    """Whether the folded `query` begins `folded` (at_start) or one of its later words: the check
    of a match found by a cut key."""
    starts = word_starts(folded)
    return any(s.startswith(query) for s in (starts[:1] if at_start else starts[1:]))


def id_typecode(largest_face_id: int) -> str:
    """The array type code of the posting lists: 16-bit ids while they fit."""
    return "H" if largest_face_id < 1 << 16 else "i"


def index_rows(names: list[tuple[int, int, str]]) -> tuple[list[tuple[str, int, int]], list[tuple[str, bytes]], str]:
    """(prefix rows, gram rows, posting list type code) for the tables `prefixes` and `grams`, from
    (name id, face id, folded name) triples in face order. A prefix row is (key, name id, whether
    the key begins the name); keys are cut to PREFIX_KEY_CHARS."""
    prefixes = []
    for name_id, _, folded in names:
        first, *later = word_starts(folded, PREFIX_KEY_CHARS)
        prefixes.append((first, name_id, 1))
        prefixes += [(key, name_id, 0) for key in set(later) if key != first]
    typecode = id_typecode(max((face for _, face, _ in names), default=0))
    postings: dict[str, array[int]] = {}
    for _, face, folded in names:
        for gram in trigrams(folded):
            ids = postings.setdefault(gram, array(typecode))
            if not ids or ids[-1] != face:
                ids.append(face)
    grams = [(gram, ids.tobytes()) for gram, ids in postings.items()]
    return prefixes, grams, typecode


SCHEMA = """
CREATE TABLE names (id INTEGER PRIMARY KEY, face INTEGER NOT NULL, lang TEXT NOT NULL, name TEXT NOT NULL);
CREATE INDEX names_of_face ON names (face);
CREATE TABLE prefixes (key TEXT NOT NULL, name INTEGER NOT NULL, whole INTEGER NOT NULL,
                       PRIMARY KEY (key, name)) WITHOUT ROWID;
CREATE TABLE grams (gram TEXT PRIMARY KEY, faces BLOB NOT NULL) WITHOUT ROWID;
"""


@dataclass(frozen=True)
class NameHit:
    """One matching name before faces are looked up."""

    name_id: int
    face: int
    lang: str
    name: str
    typos: int
    at_start: bool            # the match begins the name (not a later word)
    popularity: int | None
    length: int

    @property
    def rank(self) -> tuple[int, bool, bool, int, int]:
        return (self.typos, not self.at_start, self.popularity is None, self.popularity or 0, self.length)


class NameSearch:
    """Queries the two indexes of an open card database (see the module docstring)."""

    def __init__(self, connection: sqlite3.Connection, typecode: str, face_filter: str = ""):
        self.db = connection
        self.typecode = typecode        # of the posting lists (id_typecode)
        self.face_filter = face_filter  # an SQL condition on `faces f`, e.g. planes only

    def hits(self, text: str, limit: int) -> list[NameHit]:
        """The best names for `text`, one per face, best first."""
        query = fold(text)
        if not query:
            return []
        best: dict[int, NameHit] = {}
        for hit in self._exact(query, limit):
            best.setdefault(hit.face, hit)
        budget = typo_budget(query)
        if budget and len(best) < limit:
            for hit in self._fuzzy(query, budget):
                if hit.face not in best or hit.rank < best[hit.face].rank:
                    best[hit.face] = hit
        return sorted(best.values(), key=lambda h: h.rank)[:limit]

    def _exact(self, query: str, limit: int) -> list[NameHit]:
        where = f" AND {self.face_filter}" if self.face_filter else ""
        key = query[:PREFIX_KEY_CHARS]
        rows = self.db.execute(
            f"""SELECT n.id, n.face, n.lang, n.name, k.whole, f.popularity, length(n.name)
                FROM prefixes k JOIN names n ON n.id = k.name JOIN faces f ON f.id = n.face
                WHERE k.key >= ? AND k.key < ?{where}
                ORDER BY k.whole DESC, f.popularity IS NULL, f.popularity, length(n.name)
                LIMIT ?""", (key, key + _UPPER, limit * 4)).fetchall()
        return [NameHit(i, face, lang, name, 0, bool(start), pop, length)
                for i, face, lang, name, start, pop, length in rows
                if key == query or begins_a_word(query, fold(name), bool(start))]

    def _fuzzy(self, query: str, budget: int) -> list[NameHit]:
        grams = sorted(trigrams(query))
        counts: Counter[int] = Counter()
        for (blob,) in self.db.execute(
                f"SELECT faces FROM grams WHERE gram IN ({','.join('?' * len(grams))})", grams):
            counts.update(array(self.typecode, blob))
        needed = max(1, len(grams) - 3 * budget)  # one edit spoils at most three trigrams
        candidates = [face for face, n in counts.most_common(CANDIDATES) if n >= needed]
        if not candidates:
            return []
        where = f" AND {self.face_filter}" if self.face_filter else ""
        rows = self.db.execute(
            f"""SELECT n.id, n.face, n.lang, n.name, f.popularity FROM names n
                JOIN faces f ON f.id = n.face WHERE n.face IN ({','.join('?' * len(candidates))}){where}""",
            candidates).fetchall()
        hits = []
        for name_id, face, lang, name, popularity in rows:
            folded = fold(name)
            starts = word_starts(folded)
            distances = [prefix_distance(query, s, budget) for s in starts]
            typos = min(distances)
            if typos <= budget:
                hits.append(NameHit(name_id, face, lang, name, typos, distances[0] == typos, popularity,
                                    len(folded)))
        return hits
