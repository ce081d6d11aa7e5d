"""The app's card data: the database in the app's data folder (opened on first use, again after an
import), the demo's small card set, and the import run in a worker thread. No kivy here.

The screens use it from the UI thread only (`companion.cards.CardDatabase` wants one thread at a
time); an import writes a new database file from its own thread (`companion.cards.import_file`
opens its own connection) and the UI thread reopens the library when it is done.
"""
from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Callable

from companion import cards
from companion.cards import CardDatabase, CardDataError, ImportReport, PlaneText, Progress
from companion.i18n import translate

log = logging.getLogger(__name__)

# The project's own card fixture (36 real cards, French names, a plane): what the demo searches when
# the app's data folder holds no cards yet. Only in a checkout of the project (not in the APK).
DEMO_CARD_FILE = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "cards" / "AtomicCards.fixture.json"


class CardLibrary:
    """The card database of the app's data folder, or — in the demo, when that folder has none —
    the demo's own card set, imported from `demo_file` into `demo_folder` (never into the app's
    folder: a newcomer's real app must not end up with 36 cards and no word on how to import)."""

    def __init__(self, folder: Path, *, demo_file: Path | None = None, demo_folder: Path | None = None):
        self.folder = Path(folder)
        self.demo_file = demo_file
        self.demo_folder = demo_folder
        self.problem: CardDataError | None = None   # the app folder's database cannot be read
        self.demo = False                            # the open data is the demo's card set
        self._db: CardDatabase | None = None
        self._opened = False
        self._planes: dict[tuple[str, str], PlaneText | None] = {}

    @property
    def db(self) -> CardDatabase | None:
        """The open database, or None when there are no cards (then `hint` says how to import)."""
        if not self._opened:
            self._open()
        return self._db

    def _open(self) -> None:
        self._opened, self.problem, self.demo = True, None, False
        try:
            self._db = cards.open_database(self.folder)
        except CardDataError as problem:
            log.error("card database: %s", problem)
            self._db, self.problem = None, problem
            return
        if self._db is None and self.demo_file is not None and self.demo_folder is not None \
                and self.demo_file.is_file():
            try:
                if not cards.database_path(self.demo_folder).is_file():
                    cards.import_file(self.demo_file, self.demo_folder)
                self._db, self.demo = cards.open_database(self.demo_folder), True
            except CardDataError as problem:  # the checkout's fixture is broken: the demo goes without
                log.error("demo cards: %s", problem)

    def damaged(self, problem: CardDataError) -> None:
        """A query found the open database damaged (`cards.errors.damaged_database`): close it and say
        so in the hint, as when it was found damaged at opening; the app and its games go on."""
        log.error("card database: %s", problem)
        self.close()
        self._opened, self.problem, self.demo = True, problem, False
        self._planes.clear()

    def reopen(self) -> None:
        """After an import: the next use opens the new database."""
        self.close()
        self._opened = False
        self._planes.clear()

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    # -- what the screens show ----------------------------------------------------------------
    def hint(self, lang: str) -> str:
        """The line shown by the card search: how to import when there is nothing to search, what
        the demo searches, what is wrong with a damaged database; "" when real cards are there."""
        db = self.db
        if self.problem is not None:
            return cards.error_text(self.problem, lang)
        if db is None:
            return cards.no_data_line(lang)
        if self.demo:
            return translate(lang, "cards.app.demo_data", cards=db.info.get("cards", 0))
        return ""

    def summary(self, lang: str) -> str:
        """What is there, for the settings: the cards imported (how many, when, from which file), or
        the hint."""
        db = self.db
        if db is None or self.demo:
            return self.hint(lang)
        info = db.info
        return translate(lang, "cards.summary", cards=info.get("cards", 0), french=info.get("french_names", 0),
                               planes=info.get("planes", 0), date=info.get("imported_at", "?"),
                               file=info.get("file", "?"))

    def plane_text(self, name: str, lang: str) -> PlaneText | None:
        """The text of the plane or phenomenon `name` (remembered: the Table screen asks on every redraw)."""
        key = (name, lang)
        if key not in self._planes:
            db = self.db
            try:
                self._planes[key] = db.plane_text(name, lang) if db is not None and name else None
            except CardDataError as problem:
                self.damaged(problem)
                return None
        return self._planes[key]


class ImportJob:
    """One import of a card file into a folder, in a worker thread: the UI thread never waits.

    `on_progress(Progress)` and `on_done(report, error)` are called FROM THE WORKER THREAD (the
    app hands them to its UI thread); exactly one of `report` / `error` is None. `cancel()` stops
    the import at its next step; the previous cards then stay (`cards.errors.cancelled`)."""

    def __init__(self, path: str | Path, folder: Path, *, on_progress: Callable[[Progress], None],
                 on_done: Callable[[ImportReport | None, CardDataError | None], None]):
        self.path, self.folder = Path(path), Path(folder)
        self.on_progress, self.on_done = on_progress, on_done
        self._cancel = threading.Event()
        self.thread = threading.Thread(target=self._run, name="card-import", daemon=True)

    def start(self) -> ImportJob:
        self.thread.start()
        return self

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def running(self) -> bool:
        return self.thread.is_alive()

    def _run(self) -> None:
        try:
            report = cards.import_file(self.path, self.folder, progress=self.on_progress, cancel=self._cancel)
        except CardDataError as error:
            self.on_done(None, error)
        except Exception as exc:  # a bug, or the disk: said as a damaged file would be, the old cards stay
            log.exception("card import of %s failed", self.path)
            self.on_done(None, CardDataError("cards.errors.import_failed", f"{self.path}: {exc}",
                                             path=str(self.path)))
        else:
            self.on_done(report, None)
