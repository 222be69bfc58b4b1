"""sharding: a sharded matmul in the Scaling Book's notation, its collectives and their cost.

``notation`` parses ``A[I_X, J] @ B[J, K_Y]`` and a mesh; ``matmul`` plans the matmul (which
collectives, over which axes, and their times through the engine); ``view`` turns a plan into
plain data and text for ``derive shard``.

Imports: every wing below it (``storage`` to ``writeup``). To extend: a new collective is a rule
in ``matmul`` and a relation in ``formulas/``.
"""
