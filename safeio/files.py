"""File operations that never follow a link planted in a data folder.

A table's data folder (saves, card data, downloads) may hold a symbolic link that someone put
there; writing through it would overwrite whatever it points at. These are the operations the
save store (`companion.game.journal`) and the card downloads (`companion.cards.download`) share.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def link_problem(path: Path) -> str | None:
    """Why `path` must not be opened: a symbolic link, or not a regular file (None: it is fine)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        return f"{path.name} is a symbolic link (never followed in the data folder)"
    if not stat.S_ISREG(info.st_mode):
        return f"{path.name} is not a regular file"
    return None


def fsync_dir(folder: Path) -> None:
    """Make the folder's entries durable (a rename is not, until its folder is synced)."""
    if os.name == "nt":  # Windows cannot open a folder; NTFS journals the rename itself
        return
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def remove(path: Path) -> None:
    """Delete a name (a link itself, never its target); a name already gone is fine."""
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
