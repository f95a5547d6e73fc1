"""Statistics for studies, in one place: intervals and tests (``intervals``), the running
summary of one set of games (``tally``) and the paired comparison of rule variants
(``pairing``). Every name stays importable as ``carcassonne.stats.NAME``.

Summaries are streaming: a :class:`Tally` or a :class:`Comparison` takes results chunk by
chunk and keeps only exact sums (integer sums and sums of squares, and how many games had
each score), so a study of any length summarises in constant memory, and to the same numbers
however it was chunked.
"""

from carcassonne.stats.intervals import (
    Z95,
    Estimate,
    clip01,
    estimate,
    holm,
    mean_interval,
    spread_interval,
    wilson,
)
from carcassonne.stats.pairing import Comparison, Paired, format_differences
from carcassonne.stats.tally import Moments, Tally

__all__ = [
    "Z95",
    "Comparison",
    "Estimate",
    "Moments",
    "Paired",
    "Tally",
    "clip01",
    "estimate",
    "format_differences",
    "holm",
    "mean_interval",
    "spread_interval",
    "wilson",
]
