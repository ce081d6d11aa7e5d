"""Benchmark of the card look-up: `tactical bench cards [--cards 30000] [--repeat 3] [--queries 600]`.

- Import of a generated AtomicCards file of 30 000 cards (companion.cards.synthetic, ~93 MB, about
  the size of the real file): time and peak memory (resident set size of a fresh process), as
  plain JSON and as .json.xz (what `tactical cards update` downloads); the database size.
- Search latency as the table types: prefixes of 2–12 letters of English and French names, a
  third with one typo and a sixth with two; median and p95 of the time per `suggest` call
  (this process's CPU time, one core, and wall-clock time), and how often the intended card is
  among the 8 suggestions.
- Baseline in the same run: the same suggestions served by SQLite FTS5 instead of the plain
  index (unicode61 with prefix indexes for exact prefixes, the trigram tokenizer ORed and ranked
  by bm25 for typos, the same edit-distance check), with the size its tables add.
"""
from __future__ import annotations

import argparse
import json
import lzma
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.bench.common import machine_summary
from companion.cards import open_database
from companion.cards.search import CANDIDATES, prefix_distance, trigrams, typo_budget
from companion.cards.synthetic import atomic_cards, typed_queries
from companion.cards.text import fold, word_starts

GOAL_P95_MS = 20.0
# The child reads its own high-water mark (VmHWM): ru_maxrss would still hold the forked parent's.
_IMPORT = ("import json, sys, time\n"
           "from companion.cards import import_file\n"
           "t = time.perf_counter(); r = import_file(sys.argv[1], sys.argv[2])\n"
           "hwm = next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM'))\n"
           "print(json.dumps({'s': time.perf_counter() - t, 'rss_mb': hwm / 1024, 'size': r.size_bytes, "
           "'cards': r.cards}))")


def _import_once(source: Path, folder: Path) -> dict:
    shutil.rmtree(folder, ignore_errors=True)
    done = subprocess.run([sys.executable, "-c", _IMPORT, str(source), str(folder)], check=True,
                          capture_output=True, text=True)
    return json.loads(done.stdout)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


class Fts5Search:
    """The FTS5 alternative, on a copy of the database (see the module docstring)."""

    def __init__(self, path: Path):
        self.db = sqlite3.connect(path)
        names = [(i, fold(n)) for i, n in self.db.execute("SELECT id, name FROM names")]
        self.db.executescript("CREATE VIRTUAL TABLE words USING fts5(folded, prefix='2 3', detail=column);"
                              "CREATE VIRTUAL TABLE grams3 USING fts5(folded, tokenize='trigram', detail=none);")
        self.db.executemany("INSERT INTO words(rowid, folded) VALUES (?, ?)", names)
        self.db.executemany("INSERT INTO grams3(rowid, folded) VALUES (?, ?)", [(i, " " + f) for i, f in names])
        self.db.commit()
        self.db.execute("VACUUM")

    def suggest(self, text: str, limit: int = 8) -> list[int]:
        query = fold(text)
        if not query:
            return []
        words = query.split()
        match = " ".join(f'"{w}"' for w in words[:-1]) + f' "{words[-1]}"*'
        best: dict[int, tuple] = {}
        for name_id, face, folded in self.db.execute(
                "SELECT n.id, n.face, w.folded FROM words w JOIN names n ON n.id = w.rowid "
                "WHERE words MATCH ? ORDER BY rank LIMIT ?", (match, limit * 8)):
            if any(s.startswith(query) for s in word_starts(folded)):
                best.setdefault(face, (0, not folded.startswith(query), len(folded)))
        budget = typo_budget(query)
        if budget and len(best) < limit:
            grams = " OR ".join(f'"{g}"' for g in sorted(trigrams(query)))
            for name_id, face, folded in self.db.execute(
                    "SELECT n.id, n.face, g.folded FROM grams3 g JOIN names n ON n.id = g.rowid "
                    "WHERE grams3 MATCH ? ORDER BY rank LIMIT ?", (grams, CANDIDATES)):
                distance = min(prefix_distance(query, s, budget) for s in word_starts(folded.strip()))
                if distance <= budget:
                    best[face] = min(best.get(face, (9,)), (distance, 0, len(folded)))
        return [face for face, _ in sorted(best.items(), key=lambda item: item[1])[:limit]]


def _latencies(suggest, queries) -> tuple[list[float], list[float], list]:
    for typed, _ in queries[:50]:  # warm the page cache
        suggest(typed)
    cpu, wall, results = [], [], []
    for typed, _ in queries:
        w0, c0 = time.perf_counter(), time.process_time()
        results.append(suggest(typed))
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
    return cpu, wall, results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tactical bench cards")
    parser.add_argument("--cards", type=int, default=30000)
    parser.add_argument("--repeat", type=int, default=3, help="imports per format (medians)")
    parser.add_argument("--queries", type=int, default=600)
    args = parser.parse_args(argv)
    print(f"bench cards — {machine_summary()}; load average {os.getloadavg()[0]:.1f} "
          f"(other jobs share the cores: CPU times are this process's own)")
    with tempfile.TemporaryDirectory(prefix="bench-cards-") as scratch:
        work = Path(scratch)
        document = atomic_cards(args.cards)
        source = work / "AtomicCards.json"
        with open(source, "w", encoding="utf-8") as out:
            json.dump(document, out, ensure_ascii=False, separators=(",", ":"))
        packed = work / "AtomicCards.json.xz"
        with open(source, "rb") as raw, lzma.open(packed, "wb", preset=6) as out:
            shutil.copyfileobj(raw, out)
        print(f"\ngenerated AtomicCards: {args.cards} cards, {source.stat().st_size / 1e6:.0f} MB JSON, "
              f"{packed.stat().st_size / 1e6:.1f} MB .xz")
        print(f"import (fresh process each, median of {args.repeat}):")
        for label, path in (("json", source), ("json.xz", packed)):
            runs = [_import_once(path, work / "data") for _ in range(args.repeat)]
            print(f"  {label:8} {statistics.median(r['s'] for r in runs):6.1f} s   peak RSS "
                  f"{statistics.median(r['rss_mb'] for r in runs):5.0f} MB (goal ≤ 300 MB)   "
                  f"database {runs[0]['size'] / 1e6:.1f} MB (goal ≤ 15 MB), {runs[0]['cards']} cards")
        queries = typed_queries(document, args.queries)
        database = open_database(work / "data")
        index_cpu, index_wall, index_results = _latencies(lambda q: database.suggest(q, 8), queries)
        copy = work / "fts5.sqlite"
        shutil.copy(database.path, copy)
        before = copy.stat().st_size
        fts = Fts5Search(copy)
        fts_size = copy.stat().st_size - before
        fts_cpu, fts_wall, fts_results = _latencies(lambda q: fts.suggest(q, 8), queries)
        face_names = {}
        for face, name in database.db.execute("SELECT face, name FROM names"):
            face_names.setdefault(face, set()).add(name)
        print(f"\nsearch, {len(queries)} typed queries ({sum(1 for q, n in queries if not n.lower().startswith(q.lower()))}"
              f" with typos), 8 suggestions each:")
        for label, cpu, wall, results, hit in (
                ("plain index", index_cpu, index_wall, index_results, lambda r, n: any(n == s.name or n == s.name_fr
                                                                                    for s in r)),
                ("FTS5 (baseline)", fts_cpu, fts_wall, fts_results, lambda r, n: any(n in face_names[f] for f in r))):
            long = [(r, n) for r, (typed, n) in zip(results, queries) if len(typed) >= 8]
            found = sum(hit(r, n) for r, n in long) / max(1, len(long))
            print(f"  {label:16} CPU median {statistics.median(cpu):5.2f} ms  p95 {_percentile(cpu, 0.95):5.2f} ms"
                  f" (goal p95 ≤ {GOAL_P95_MS:.0f} ms)   wall median {statistics.median(wall):5.2f} ms  "
                  f"p95 {_percentile(wall, 0.95):5.2f} ms   intended card among the 8, queries of ≥ 8 "
                  f"letters: {found:.0%}")
        print(f"  FTS5 tables add {fts_size / 1e6:.1f} MB to the database")
        database.close()
        fts.db.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\n(this benchmark process itself peaked at {peak:.0f} MB: it holds the generated document)")
    return 0
