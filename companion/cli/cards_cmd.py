"""`tactical cards import|update|search|show|info`: the offline card data the app searches.

The database goes where the app looks for it: the app's data folder (Kivy's `user_data_dir`
for the app "tactical") unless `--data-dir` says otherwise.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from companion import cards
from companion.cli import data_dir_problem
from companion.cli.output import say, shown
from companion.i18n import decimal, translate


def app_data_dir() -> Path:
    """The folder Kivy gives the app as `user_data_dir` on a desktop (the app is called "tactical"),
    found without importing Kivy."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA", Path.home()))
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "tactical"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", type=Path, metavar="DIR",
                        help=f"the app's data folder holding {cards.DATABASE_NAME} (default: {app_data_dir()})")
    parser.add_argument("--lang", choices=("fr", "en"), default="en", help="language of names and messages")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    imp = sub.add_parser("import", help="import MTGJSON AtomicCards or Scryfall oracle-cards "
                                        "(.json, .json.gz, .json.xz, .json.bz2, .zip)")
    imp.add_argument("file", type=Path)
    upd = sub.add_parser("update", help="download the current AtomicCards (resumable, checksum checked), "
                                        "then import it")
    upd.add_argument("--url", help="file to download (default: MTGJSON's AtomicCards.json.xz)")
    search = sub.add_parser("search", help="names as the app suggests them while typing")
    search.add_argument("text", nargs="+")
    search.add_argument("--limit", type=int, default=8)
    show = sub.add_parser("show", help="a card and the piece it becomes")
    show.add_argument("name", nargs="+")
    sub.add_parser("info", help="what the card database holds")


class ProgressLine:
    """One self-rewriting progress bar on a terminal; plain lines, a few per job, elsewhere."""

    def __init__(self, lang: str, stream=None):
        self.lang, self.stream = lang, stream or sys.stderr
        self.tty = self.stream.isatty()
        self._last = (None, -1.0, 0.0)

    def __call__(self, progress: cards.Progress) -> None:
        text = shown(cards.progress_text(progress, self.lang))   # a host name from --url, escaped
        step, fraction, shown_at = self._last
        now = time.monotonic()
        if self.tty:
            if now - shown_at < 0.1 and progress.fraction < 1.0 and step == progress.step:
                return
            filled = int(30 * progress.fraction)
            self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {progress.fraction:4.0%} {text[:70]:<70}")
            if progress.fraction >= 1.0:
                self.stream.write("\n")
        elif step != progress.step or progress.fraction - fraction >= 0.25 or progress.fraction >= 1.0:
            self.stream.write(f"{progress.fraction:4.0%} {text}\n")
        else:
            return
        self.stream.flush()
        self._last = (progress.step, progress.fraction, now)


def run(args: argparse.Namespace) -> int:
    problem = data_dir_problem(args.data_dir)
    if problem:
        say(f"error: {problem}", file=sys.stderr)
        return 2
    folder = args.data_dir or app_data_dir()
    try:
        if args.action == "import":
            report = cards.import_file(args.file, folder, progress=ProgressLine(args.lang))
            return _print_report(report, args.lang)
        if args.action == "update":
            from companion.cards.download import DEFAULT_URL, update

            report = update(folder, args.url or DEFAULT_URL, progress=ProgressLine(args.lang))
            return _print_report(report, args.lang)
        database = cards.open_database(folder)
        if database is None:
            say(cards.no_data_line(args.lang), file=sys.stderr)
            return 1
        with database:
            return _query(database, args)
    except cards.CardDataError as error:
        say("\n" + translate(args.lang, "cards.cli.error", error=cards.error_text(error, args.lang)), file=sys.stderr)
        return 1


def _print_report(report: cards.ImportReport, lang: str) -> int:
    say(translate(lang, "cards.cli.imported", cards=report.cards, faces=report.faces,
                   french=report.french_names, planes=report.planes, skipped=report.skipped,
                   source=report.source, seconds=decimal(report.seconds, lang), path=report.path,
                   size=decimal(report.size_bytes / 1e6, lang)))
    return 0


def _query(database: cards.CardDatabase, args: argparse.Namespace) -> int:
    lang = args.lang
    if args.action == "info":
        info = database.info
        say(translate(lang, "cards.summary", cards=info["cards"], french=info["french_names"],
                       planes=info["planes"], date=info["imported_at"], file=info["file"]))
        say(translate(lang, "cards.cli.database", path=database.path, names=info["names"],
                       size=decimal(database.path.stat().st_size / 1e6, lang), source=info["source"]))
        return 0
    if args.action == "search":
        started = time.perf_counter()
        found = database.suggest(" ".join(args.text), args.limit)
        elapsed = (time.perf_counter() - started) * 1000
        for s in found:
            other = s.subtitle(lang)
            typos = f"  ({translate(lang, 'cards.typos', count=s.typos)})" if s.typos else ""
            say(f"{s.title(lang)}{' — ' + other if other else ''}  {s.mana_cost}  {s.type_line}{typos}")
        say(translate(lang, "cards.cli.searched", count=len(found), ms=decimal(elapsed, lang)), file=sys.stderr)
        return 0 if found else 1
    name = " ".join(args.name)
    found = database.find(name) or next((database.card(s.card_id) for s in database.suggest(name, 1)), None)
    if found is None:
        say(translate(lang, "cards.cli.not_found", name=name), file=sys.stderr)
        return 1
    draft = cards.card_to_piece(found, lang)
    say(f"{found.name}{' / ' + found.name_fr if found.name_fr else ''}  {found.mana_cost}  {found.type_line}")
    kind = translate(lang, f"kinds.{draft.kind}") if draft.kind else translate(lang, "cards.not_on_grid")
    pt = f"{found.power}/{found.toughness}" if found.power is not None else ""
    keywords = ", ".join(translate(lang, f"keywords.{k}") for k in sorted(draft.keywords))
    piece = translate(lang, "cards.cli.piece", kind=kind, mana_value=draft.mana_value,
                      colours="".join(sorted(draft.colours)) or "-")
    say(f"{piece}{', ' + pt if pt else ''}{', ' + keywords if keywords else ''}")
    if draft.x_in_cost:
        say(translate(lang, "cards.x_cost"))
    for field in draft.variable:
        say(translate(lang, f"pieces.{field}") + ": "
             + translate(lang, "cards.variable", printed=getattr(draft, f"printed_{field}")))
    if found.is_plane:
        plane = database.plane_text(found.name, lang)
        say(plane.text)
    return 0
