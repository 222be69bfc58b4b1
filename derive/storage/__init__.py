"""storage: where derive reads and writes files, and nothing else.

Atomic writes and output plans (``atomic``), reading user files safely (``files``), the built-in
data folders (``resources``: the catalog and templates, from the checkout or the wheel), YAML
with line numbers (``yamlio``) and the on-disk cache of data that cannot run code (``cache``).

Imports: :mod:`derive.errors` only. The bottom floor: every other wing may use it.
To extend: a new kind of file derive keeps goes here, written through ``atomic.write_atomic``.
"""
