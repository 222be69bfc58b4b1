"""sweep: one question over a grid of inputs, answered without SymPy at every point.

``grid`` parses the axes and runs the sweep; ``vectorize`` compiles the solved expression into a
NumPy program (:mod:`derive.symbolic.program`); ``agreement`` checks the program against the
exact answer at sample points; ``csv_rows`` writes the rows with exact decimals.

Imports: ``storage``, ``symbolic``, ``records``, ``catalog``, ``engine``. To extend: a new axis
syntax is one branch in ``grid.parse_axis``.
"""
