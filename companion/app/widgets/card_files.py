"""What the card-file browser lists: the folders to open and the card files to choose in a folder,
and where it opens. Pure (os only), tested without a window."""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

# What `companion.cards.import_file` reads (the compression is recognised by content, not by name).
CARD_FILE_SUFFIXES = (".json", ".json.gz", ".json.xz", ".json.bz2", ".zip", ".gz", ".xz", ".bz2")
MAX_ENTRIES = 400           # a huge folder lists its first entries, folders first
# Where downloads land: a desktop's Downloads folder, Android's shared Download folder.
DOWNLOAD_FOLDERS = (Path.home() / "Downloads", Path.home() / "Download", Path("/storage/emulated/0/Download"),
                    Path("/sdcard/Download"))


@dataclass(frozen=True)
class FolderEntry:
    label: str              # "cards/" for a folder, "AtomicCards.json.xz  (112.4 MB)" for a file
    path: str
    is_dir: bool


def _size(size: int) -> str:
    return f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{max(1, round(size / 1e3))} kB"


def folder_entries(folder: Path, suffixes=CARD_FILE_SUFFIXES) -> list[FolderEntry]:
    """The folder's subfolders (hidden ones aside), then its card files, each sorted by name; [] for
    a folder that cannot be read."""
    folders, files = [], []
    try:
        with os.scandir(folder) as scan:
            for item in scan:
                if item.name.startswith("."):
                    continue
                try:
                    if item.is_dir():
                        folders.append(FolderEntry(item.name + "/", item.path, True))
                    elif item.name.lower().endswith(suffixes):
                        files.append(FolderEntry(f"{item.name}  ({_size(item.stat().st_size)})", item.path, False))
                except OSError:
                    continue
    except OSError:
        return []
    order = lambda e: e.label.casefold()  # noqa: E731
    return (sorted(folders, key=order) + sorted(files, key=order))[:MAX_ENTRIES]


def start_folder(typed: str) -> Path:
    """Where the browser opens: the folder of the path typed so far, else the Downloads folder, else home."""
    if typed.strip():
        path = Path(os.path.expanduser(typed.strip()))
        for candidate in (path, path.parent):
            if candidate.is_dir():
                return candidate
    return next((folder for folder in DOWNLOAD_FOLDERS if folder.is_dir()), Path.home())
