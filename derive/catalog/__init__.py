"""catalog: the YAML files in ``formulas/`` read into a :class:`~derive.records.catalog.Catalog`.

``schema`` checks each entry and builds its record (it owns every "unknown field, did you mean"
message); ``loader`` finds the files, merges a user's own, and caches the built catalog
(``records_json``: records as JSON, never pickle); ``formula_text`` turns a formula's text into
SymPy lazily; ``values`` reads a typed value ("2 TB/s") for a quantity; ``follow`` resolves a
preset value that follows another quantity (``same_as``).

Imports: ``storage``, ``symbolic``, ``records``. To extend: a new relation family is a YAML file
in ``formulas/`` (no code); a new field of an entry is a record field plus its rule in ``schema``.
"""
