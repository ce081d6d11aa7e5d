"""Making a file or a folder read-only for this process, as a table's tablet may leave it.

Tests run as root in CI, where permission bits stop nothing: for root the immutable flag
(`chattr +i`) is used, which stops root's writes too; permissions for an ordinary user."""
import os
import subprocess
from pathlib import Path


def make_read_only(path: Path) -> None:
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(path)], check=True)
    else:
        path.chmod(0o555 if path.is_dir() else 0o444)


def make_writable(path: Path) -> None:
    if os.geteuid() == 0:
        subprocess.run(["chattr", "-i", str(path)], check=True)
    else:
        path.chmod(0o755 if path.is_dir() else 0o644)
