"""engine: a question answered: which relations to use, solved exactly, checked, explained.

``solver`` is the entry point (``solve``, ``growth``); ``plan`` picks the relations a question
needs; ``blocks`` solves a set of relations together; ``steps`` turns the plan into the answer's
steps; ``bounds`` and ``optimize`` answer inequalities and min/max questions;
``step_functions`` inverts ``ceil``/``floor``; ``premises`` checks a question's conditions;
``replay`` answers a question of a shape seen before without planning again; ``feasibility`` weighs
the memory per device a time, rate or cost of a configuration needs (its ``fits`` verdict).

Imports: ``storage``, ``symbolic``, ``records``, ``catalog``. To extend: a new kind of question is
a field of :class:`~derive.records.question.Question` and its branch in ``solver``.
"""
