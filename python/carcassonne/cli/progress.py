"""The one-line progress display of every study command (simulate, compare, study): redrawn
in place on a terminal and cut to its width; on a log, one line at most every ``every``
seconds and the last state when the run ends."""

from __future__ import annotations

import shutil
import sys
import time
from typing import TextIO

from carcassonne.studies.stats import Estimate


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


class StudyProgress(ProgressLine):
    """One line: deals done, games/s, time left, and the headline difference's running
    estimate and interval against the stopping target."""

    def __init__(
        self, stream: TextIO | None = None, until: float | None = None, every: float = 5.0
    ) -> None:
        super().__init__(stream, every)
        self.until = until

    def line(self, done: int, total: int, games: int, seconds: float, head: Estimate | None) -> str:
        """The line, fitted to a terminal's width: the bar and then the time left go
        first (a log takes the whole line)."""
        width = 10
        filled = int(width * done / total) if total else width
        bar = "[" + "#" * filled + "." * (width - filled) + "] "
        text = f"{done:,}/{total:,} deals {games / max(seconds, 1e-9):,.0f} games/s"
        left = ""
        if 0 < done < total:
            left = f" {_clock(seconds * (total - done) / done)} left"
        est = ""
        if head is not None and head.n > 1:
            est = f" est {100 * head.mean:+.2f} pp [{100 * head.low:+.2f}, {100 * head.high:+.2f}]"
            if self.until is not None:
                est += f" target ±{self.until:g}"
        room = self.columns - 1 if self.tty else 10_000
        for line in (bar + text + left + est, bar + text + est, text + est, text):
            if len(line) <= room:
                return line
        return text[:room]

    def __call__(
        self, done: int, total: int, games: int, seconds: float, head: Estimate | None
    ) -> None:
        self.show(self.line(done, total, games, seconds, head), final=done >= total)


def _clock(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"
