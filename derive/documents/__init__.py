"""documents: whole documents: problem files, reports, claims checked in a text, live sources.

``problems`` reads a problem file (questions with their expected answers) and solves it;
``report`` renders problem files as Markdown, HTML, LaTeX, slides and PDF; ``claims`` checks the
numbers a text states (``derive check``); ``live`` renders a Markdown/LaTeX/HTML source whose
numbers are engine calls; ``datafile`` is the shared reading of these YAML files.

Imports: every wing below it. To extend: a new document kind is a module here and a subcommand in
:mod:`derive.cli`.
"""
