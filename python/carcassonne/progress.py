"""The one-line progress display shared by ``simulate``, ``compare`` and ``study``: redrawn in
place on a terminal and cut to its width; on a log, one line at most every ``every`` seconds
and the last state when the run ends."""

from __future__ import annotations

import shutil
import sys
import time
from typing import TextIO


class ProgressLine:
    def __init__(self, stream: TextIO | None = None, every: float = 5.0) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.every = every
        self.tty = self.stream.isatty()
        self.columns = shutil.get_terminal_size((80, 24)).columns if self.tty else 80
        self._shown = time.perf_counter()  # when a line was last written to a log
        self._pending: str | None = None  # a log line not written yet

    def show(self, line: str, final: bool = False) -> None:
        """Show ``line``; ``final`` (the run is complete) writes it to a log at once."""
        if self.tty:
            room = max(self.columns - 1, 20)  # one column spare: no wrap at the edge
            self.stream.write("\r" + line[:room].ljust(room))
            self.stream.flush()
            return
        now = time.perf_counter()
        if not final and now - self._shown < self.every:
            self._pending = line
            return
        self._shown, self._pending = now, None
        self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
        elif self._pending is not None:
            self.stream.write(self._pending + "\n")
            self._pending = None
        self.stream.flush()
