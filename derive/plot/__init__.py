"""plot: figures of the catalog's relations (roofline, memory, KV cache, hierarchy, curves, topology).

``data`` computes what a figure shows (through the engine and the sweep); ``draw`` draws it with
matplotlib; ``figures`` is the entry point (``plot``) and writes PNG, SVG or PDF.

Imports: every wing below it (``storage`` to ``writeup``). To extend: a new kind is one entry in
``figures.KINDS`` with its ``data`` function and its ``draw`` function.
"""
