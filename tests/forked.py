"""A table's evening in a forked child that a fault may kill mid-way (the save-fault tests and
`scripts/fault_sweep.py`): the parent keeps every screen the child reported before it died."""
from __future__ import annotations

import os
import pickle
from typing import Callable


def forked_reports(child: Callable[[Callable[[object], None]], None]) -> list:
    """Run `child(report)` in a forked process and return, in order, every value it passed to `report`.
    Each value is sent to the parent at once, so a child killed by SIGKILL still leaves all it reported;
    a value cut off by the kill is the one in flight, not a seen one. The child never returns into the
    caller's code (pytest's, a script's): it exits."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            with os.fdopen(write_end, "wb") as out:
                child(lambda value: (pickle.dump(value, out), out.flush()))
        finally:
            os._exit(0)
    os.close(write_end)
    seen = []
    with os.fdopen(read_end, "rb") as reports:
        while True:
            try:
                seen.append(pickle.load(reports))
            except (EOFError, pickle.UnpicklingError):
                break
    os.waitpid(pid, 0)
    return seen
