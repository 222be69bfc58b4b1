"""records: the plain data every other wing passes around.

Catalog entries (``entries``: quantities, relations, conditions, presets, references, examples),
the loaded catalog's tables and the memo it owns (``catalog``), a question (``question``: the one
list of a question's fields), an answer (``solution``: value, steps, notes), the log of a user's
catalog overrides (``overrides``), and the answer's displays (``display``).

Imports: :mod:`derive.errors`, ``storage``, ``symbolic``. The one exception to the order: the
display mixin (``display``) defers an import of ``writeup`` so that a Solution can show itself
in Jupyter; nothing else here reaches up. To extend: a new field of a record is added here and
in the schema that fills it (:mod:`derive.catalog.schema`).
"""
