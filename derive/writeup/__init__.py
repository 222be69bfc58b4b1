"""writeup: answers as text people read, in English, Chinese or both.

``formats`` is the one table of output formats and markups (escaping, image format, template and
source suffixes); ``present`` turns a Solution into plain data (its view); ``render`` renders the
Jinja templates in ``templates/`` through the one sandbox builder (``sandbox``); ``escape``,
``mathml``, ``asides``, ``quotes`` and ``text_size`` are the markup helpers; ``latex_build``
compiles LaTeX with xelatex; ``precompile`` makes the built-in templates' code at wheel build.

Imports: ``storage``, ``symbolic``, ``records``, ``catalog``, ``engine``. To extend: a new format is
one entry in ``formats.FORMATS`` plus its templates; a new markup is one ``formats.MARKUPS`` entry.
"""
