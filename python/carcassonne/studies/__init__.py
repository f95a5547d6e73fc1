"""Studies: many whole games under rule variants, skill levels and player counts, one results
table, one analysis and one report, whichever command plays them (``simulate`` and
``compare`` are the quick forms of ``study``).

Modules: plan (what a study plays), table (the results table: rows, writer, reader),
stats (intervals), analysis (metrics, paired differences, the answer in words), play
(running a study, going on with one), report (HTML, plots, summary), executors (Dask, Ray).
"""

from carcassonne.studies.analysis import CellStats, Difference, SkillContrast, Study
from carcassonne.studies.plan import CellKey, Plan, StudyError
from carcassonne.studies.play import compare, load, run, study

__all__ = [
    "CellKey",
    "CellStats",
    "Difference",
    "Plan",
    "SkillContrast",
    "Study",
    "StudyError",
    "compare",
    "load",
    "run",
    "study",
]
