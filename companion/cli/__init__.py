"""The `tactical` command line: one module per subcommand."""
from __future__ import annotations

from pathlib import Path


def data_dir_problem(folder: Path | None) -> str | None:
    """What is wrong with a `--data-dir` before anything is written there (None: nothing): a file
    where the data folder should be (mkdir would say FileExistsError)."""
    if folder is not None and folder.exists() and not folder.is_dir():
        return f"--data-dir {folder}: this is a file; the data folder must be a folder (or a name not yet used)"
    return None
