"""The exceptions `derive` raises, one class per kind of user mistake.

Every error a user can cause is a :class:`DeriveError`. Each also subclasses the
built-in exception it resembles (as pint's ``DimensionalityError`` is a
``TypeError``), carries the facts of the mistake as attributes, and formats a
one-line message from them that says what to do next. The CLI prints that line
after ``derive: error:`` and exits with status 2.

Hierarchy::

    DeriveError
    ├── UnknownNameError           (KeyError)    a quantity, relation, condition or preset id that does not exist
    ├── UnitError                  (ValueError)  a unit that does not parse, or has the wrong dimensions
    ├── ExpressionError            (ValueError)  a value or expression that is malformed or not allowed
    ├── InputError                 (ValueError)  a NAME=VALUE pair or option that cannot be used
    │   └── QuestionError                        a field of a Question that cannot be used
    ├── MissingInputsError         (ValueError)  the givens do not determine the target
    ├── ContradictoryInputsError   (ValueError)  the givens violate a relation
    ├── NoSolutionError            (ValueError)  no real positive value satisfies the relations or conditions
    ├── NotInvertibleError         (ValueError)  a relation cannot be solved in closed form for a symbol
    ├── TimeBudgetError            (TimeoutError) symbolic work that ran past its time budget
    ├── VerificationError          (ArithmeticError) an answer failed the substitute-back check
    ├── CatalogError               (ValueError)  a malformed catalog, problem or claims file (file and line)
    │   └── UnitBalanceError                     a relation whose two sides have different dimensions
    └── TemplateError              (ValueError)  a template that fails to render (file and line)
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "CatalogError",
    "ContradictoryInputsError",
    "DeriveError",
    "ExpressionError",
    "InputError",
    "MissingInputsError",
    "NoSolutionError",
    "NotInvertibleError",
    "QuestionError",
    "TemplateError",
    "TimeBudgetError",
    "UnitBalanceError",
    "UnitError",
    "UnknownNameError",
    "VerificationError",
]


class DeriveError(Exception):
    """Base of every error a user of `derive` can cause.

    Errors cross process boundaries (multiprocessing, pytest-xdist) whole: pickling keeps
    the message and every structured field, whatever the subclass's constructor takes.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message

    def __reduce__(self) -> tuple:
        return (_restore, (type(self), self.args, dict(self.__dict__)))


def _restore(cls: type, args: tuple, state: dict) -> DeriveError:
    """Rebuild a pickled error without calling its constructor (whose arguments differ per class)."""
    error = cls.__new__(cls, *args)
    BaseException.__init__(error, *args)
    error.__dict__.update(state)
    return error


class UnknownNameError(DeriveError, KeyError):
    """A name that is not in the catalog; suggests the closest ones."""

    def __init__(self, name: str, kind: str = "name", suggestions: Sequence[str] = (), hint: str = "") -> None:
        self.name = name
        self.kind = kind
        self.suggestions = tuple(dict.fromkeys(suggestions))
        if not hint:
            hint = (
                f"did you mean {', '.join(repr(s) for s in self.suggestions)}?"
                if self.suggestions
                else "run 'derive list' to see every name"
            )
        self.hint = hint
        super().__init__(f"unknown {kind} {name!r}; {hint}")


class UnitError(DeriveError, ValueError):
    """A unit that does not parse, or whose dimensions do not fit the quantity."""

    def __init__(self, message: str, *, unit: str | None = None, quantity: str | None = None,
                 expected: str | None = None, got: str | None = None) -> None:
        self.unit = unit
        self.quantity = quantity
        self.expected = expected
        self.got = got
        super().__init__(message)


class ExpressionError(DeriveError, ValueError):
    """An expression or value string that is malformed or uses something not allowed."""

    def __init__(self, message: str, *, text: str | None = None) -> None:
        self.text = text
        super().__init__(message)


class InputError(DeriveError, ValueError):
    """A command-line or API input that cannot be used as given; ``name`` is the input or option."""

    def __init__(self, message: str, *, name: str | None = None) -> None:
        self.name = name
        super().__init__(message)


class QuestionError(InputError):
    """A field of a :class:`~derive.Question` that cannot be used; ``name`` is the field.

    The message names fields in backticks (`bound`, `require`) so that each front end can
    spell them its own way (the CLI as ``--max``, ``--require``).
    """


class MissingInputsError(DeriveError, ValueError):
    """The givens do not determine the target; names the inputs to add."""

    def __init__(self, target: str, missing: Sequence[str], hint: str = "") -> None:
        self.target = target
        self.missing = tuple(missing)
        self.hint = hint
        names = ", ".join(self.missing)
        example = f" (e.g. {self.missing[0]}=VALUE)" if self.missing else ""
        more = f"; {hint}" if hint else ""
        super().__init__(
            f"cannot determine {target}: missing {names}; give them as NAME=VALUE{example}{more}"
        )


class ContradictoryInputsError(DeriveError, ValueError):
    """The givens violate a relation; names it and by how much."""

    def __init__(self, relation: str, left: str, right: str, relative_error: float,
                 detail: str = "") -> None:
        self.relation = relation
        self.left = left
        self.right = right
        self.relative_error = relative_error
        extra = f" {detail}" if detail else ""
        super().__init__(
            f"contradictory inputs: relation {relation} does not hold: "
            f"{left} but {right} (off by {relative_error:.3g}){extra}; drop one of the inputs"
        )


class NoSolutionError(DeriveError, ValueError):
    """No real positive value satisfies what was asked, or many do (the value is not determined).

    ``quantity`` is the unknown; ``relations`` the relation or condition ids involved.
    """

    def __init__(self, message: str, *, quantity: str | None = None, relations: Sequence[str] = ()) -> None:
        self.quantity = quantity
        self.relations = tuple(relations)
        super().__init__(message)


class NotInvertibleError(DeriveError, ValueError):
    """A relation that cannot be solved in closed form for the asked symbol."""

    def __init__(self, relation: str, symbol: str, reason: str) -> None:
        self.relation = relation
        self.symbol = symbol
        self.reason = reason
        super().__init__(f"relation {relation} cannot be solved for {symbol}: {' '.join(reason.split())}; "
                         f"give {symbol} as an input, or ask for another quantity")


class TimeBudgetError(DeriveError, TimeoutError):
    """Symbolic work (solving, simplifying, a limit) that ran past its time budget; ``what`` says which."""

    def __init__(self, what: str, seconds: float) -> None:
        self.what = what
        self.seconds = seconds
        super().__init__(f"{what} took longer than {seconds:g} s, the time budget for symbolic work; "
                         "simplify the relation, give that quantity as an input, or raise DERIVE_SYMBOLIC_SECONDS")


class VerificationError(DeriveError, ArithmeticError):
    """An answer did not satisfy a relation when substituted back: never printed as a result."""


class CatalogError(DeriveError, ValueError):
    """A malformed catalog, problem, claims or preset file; names the file and line."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 entry: str | None = None) -> None:
        self.file = file
        self.line = line
        self.entry = entry
        where = ""
        if file:
            where = f"{file}:{line}: " if line else f"{file}: "
        what = f"{entry}: " if entry else ""
        super().__init__(f"{where}{what}{message}")
        self.bare_message = message


class UnitBalanceError(CatalogError):
    """A relation whose two sides have different dimensions; refuses to load."""

    def __init__(self, *, file: str | None, line: int | None, entry: str, left_unit: str,
                 right_unit: str, detail: str = "") -> None:
        self.left_unit = left_unit
        self.right_unit = right_unit
        extra = f" ({detail})" if detail else ""
        super().__init__(
            f"units do not balance: left side is {left_unit}, right side is {right_unit}{extra}; "
            "fix the equation or the quantities' units",
            file=file, line=line, entry=entry,
        )


class TemplateError(DeriveError, ValueError):
    """A template or live-number source that fails to render; names the file and line."""

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None) -> None:
        self.file = file
        self.line = line
        where = f"{file}:{line}: " if file and line else (f"{file}: " if file else "")
        super().__init__(f"{where}{message}")
