"""symbolic: text to SymPy, units and dimensions, and exact arithmetic on expressions.

``expressions`` is the one parser from text to SymPy (a whitelist: no text is executed);
``units`` and ``dimensions`` parse and format units exactly; ``dimension_check`` balances a
relation's units; ``exact`` compares numbers exactly; ``interval`` is an exact range of values;
``asymptotic`` takes leading terms; ``budget`` stops a SymPy call that runs too long.

There are three evaluators, each for a different caller: ``evaluate`` (exact, at rational
values, for the engine's answers and checks), ``program`` (a formula as plain NumPy operations,
for sweeps and plots over millions of points) and SymPy's own ``subs`` (for the rare forms the
other two do not cover). All three must agree; the sweep's ``agreement`` checks that they do.

Imports: :mod:`derive.errors`, ``storage``. To extend: a new function a formula may use is one
entry in ``expressions``' whitelist (and in ``program``'s operations, if sweeps should see it).
"""
