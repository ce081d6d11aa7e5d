"""What the command line prints: every line through `boards.terminal.printable`, the project's one
escaping function, so that no text read from a file or named by one (a card called
"Evil\x1b]0;pwned\x07\x1b[2J", a path holding an escape sequence) is obeyed by the terminal: it
is shown, escaped. `say` is `print` for the subcommands; only drawings the command makes itself
(`tactical board show`'s colours, a progress bar's carriage return) are written around it."""
from __future__ import annotations

import sys

from boards.terminal import printable


def shown(text: object) -> str:
    """`text` safe for a terminal, line by line (its own line breaks kept, every other control
    character escaped)."""
    return "\n".join(printable(line) for line in str(text).split("\n"))


def say(*parts: object, file=None, sep: str = " ", end: str = "\n", flush: bool = False) -> None:
    """`print`, escaped (see module docstring)."""
    stream = file if file is not None else sys.stdout
    stream.write(shown(sep.join(str(part) for part in parts)) + end)
    if flush:
        stream.flush()
