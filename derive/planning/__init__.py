"""Plans: the parallel layout a training run or a serving deployment should use, searched over every layout.

``plan_training`` and ``plan_serving`` enumerate the layouts a question allows (``layouts.py``), put each
axis on the link it would use, evaluate the catalog's layout relations (``formulas/layouts.yaml``) over
all of them at once with the sweep machinery (``evaluate.py``: SymPy once per quantity, then NumPy), and
rank the layouts that fit (``search.py``). ``fleet.py`` runs many such searches in chunks, in process or
on a Dask cluster. The best layout is explained by the engine's own derivation of its step time.
"""
