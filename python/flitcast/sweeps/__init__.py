"""Sweeps: many scenarios, each once, on threads, an executor or a Dask cluster, with a point store that
lets an interrupted sweep resume (docs/sweeps.md).

* ``cartesian.py`` — the points of a sweep (cartesian products over a base scenario);
* ``run.py`` — running them: :func:`sweep`;
* ``threads.py``, ``on_dask.py`` — where points run;
* ``store.py`` — the point store (``DIR/points.sqlite``); ``outdir.py`` — output directories written all
  or nothing; ``rows.py`` — a single run's one-row CSV and Parquet files (the latter through pyarrow,
  without pandas); ``parquet.py`` — results.parquet's column types, the same whichever pandas.

(Named ``sweeps``: ``flitcast.sweep`` is the function.)
"""

from flitcast.sweeps.cartesian import grid
from flitcast.sweeps.run import sweep

__all__ = ["grid", "sweep"]
