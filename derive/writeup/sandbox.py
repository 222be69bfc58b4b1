"""The Jinja sandbox that templates and live sources run in, with a budget for every render.

Templates (``--templates DIR``) and live sources are user text. Jinja's own sandbox stops them from
reaching Python's internals; this one also stops them from exhausting the machine:

- ``*`` and ``**`` may not build more than :data:`MAX_ITEMS` items or :data:`MAX_DIGITS` digits;
- format widths and precisions (``'%1000000000d' % 1``, ``'{:>1000000000}'.format(1)``, the ``format``
  filter, a message's ``{value:>1000000000}``) are at most :data:`MAX_WIDTH`;
- string-growing filters and methods (``center``, ``indent``, ``wordwrap``, ``replace``, ``ljust``, ...)
  and ``~`` may not make a string longer than :data:`MAX_STRING`; ``lipsum`` is gone;
- ``+`` may not make a string longer than :data:`MAX_STRING` or a list longer than :data:`MAX_ITEMS`, nor
  may ``sum``, ``join`` (the filter and ``str.join``, given any iterable) or ``list.extend``; ``tojson``'s
  indent is at most :data:`MAX_WIDTH`;
- nothing is turned into text that would be longer than :data:`MAX_STRING`, checked *before* the text is
  made (:func:`~derive.writeup.text_size.text_size`, an upper bound found without making it): a value written
  with ``{{ }}`` or ``~``, the value of every filter but those that only rearrange it (``length``,
  ``sort``, ``map``, ...), the arguments of ``%``, ``str.format`` and the ``format`` filter (times the
  fields that show them), ``str.translate`` and ``str.expandtabs`` (from their tables and tab counts);
  ``tojson`` and ``pprint`` stop as soon as what they wrote passes it, and every filter's and method's
  result is checked again once made;
- every render has a budget (:class:`Budget`): :data:`MAX_SECONDS` of CPU time of its thread, checked
  at each loop iteration and each call (so nested loops stop), :data:`MAX_OUTPUT` characters of output,
  and :data:`MAX_MEMORY` bytes of memory: the process's peak memory may grow by at most that much
  (checked as the render goes; a loop keeping a million-character string per iteration reached gigabytes
  well within the CPU budget), and where the system allows (Linux) the process's address space is capped
  at its size when the render began plus :data:`MAX_MEMORY`, so that a single operation that would go
  past it fails with ``MemoryError`` (reported as the render's) instead of taking the machine's memory.

Going over any bound raises :class:`jinja2.exceptions.SecurityError` (reported by the renderers as the
template's mistake, with its file and line).
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import os
import re
import string
import sys
import threading
import time
import types
from functools import lru_cache
from typing import Any, Iterator

__all__ = ["MAX_DIGITS", "MAX_ITEMS", "MAX_MEMORY", "MAX_OUTPUT", "MAX_SECONDS", "MAX_STRING", "MAX_WIDTH", "Budget",
           "budget", "check_format_spec", "render_bounded", "sandbox", "uncapped_address_space"]

MAX_ITEMS = 1_000_000      # characters or items one expression may build with * ("x" * 10**10)
MAX_DIGITS = 1000          # digits of a number built with ** (9**9**9)
MAX_WIDTH = 1000           # a format width or precision, a filter's width or count
MAX_STRING = 10_000_000    # characters of any string a template builds
MAX_OUTPUT = 50_000_000    # characters one render may write
MAX_SECONDS = 60.0         # CPU seconds (of the rendering thread) one render may take
MAX_MEMORY = 2**30         # bytes by which one render may raise the process's peak memory


def _security_error(message: str) -> Exception:
    from jinja2.exceptions import SecurityError

    return SecurityError(message)


def _peak_memory() -> int | None:
    """The peak memory (resident set) of this process so far, in bytes; None where it cannot be read."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


class Budget:
    """What one render may still spend: CPU time of its thread, characters of output and memory."""

    __slots__ = ("deadline", "output", "ticks", "seconds", "memory_limit")

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = MAX_SECONDS if seconds is None else seconds
        self.deadline = time.thread_time() + self.seconds
        self.output = 0
        self.ticks = 0
        start = _peak_memory()
        self.memory_limit = None if start is None else start + MAX_MEMORY

    def tick(self) -> None:
        self.ticks += 1
        if self.ticks & 63 == 0:
            self.check_now()

    def check_now(self) -> None:
        if time.thread_time() > self.deadline:
            raise _security_error(f"the render took more than {self.seconds:g} s of CPU time")
        self.check_memory()

    def check_memory(self) -> None:
        if self.memory_limit is not None:
            peak = _peak_memory()
            if peak is not None and peak > self.memory_limit:
                raise _security_error(f"the render used more than {MAX_MEMORY / 2**30:g} GiB of memory")

    def spend_output(self, n: int) -> None:
        self.output += n
        if self.output > MAX_OUTPUT:
            raise _security_error(f"the render wrote more than {MAX_OUTPUT:,} characters")


_CURRENT: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("derive_render_budget", default=None)


@contextlib.contextmanager
def budget(seconds: float | None = None) -> Iterator[Budget]:
    """The budget of a render; a render inside another (a solution in a live source) shares the outer one."""
    outer = _CURRENT.get()
    if outer is not None:
        yield outer
        return
    b = Budget(seconds)
    token = _CURRENT.set(b)
    try:
        with _address_space_cap():
            yield b
    except MemoryError:
        raise _security_error(f"the render used more than {MAX_MEMORY / 2**30:g} GiB of memory") from None
    finally:
        _CURRENT.reset(token)


_CAP_LOCK = threading.Lock()
_cap_state: dict[str, Any] = {"renders": 0, "before": None}


def _address_space() -> int | None:
    """This process's address space now, in bytes (Linux); None where it cannot be read."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            pages = int(fh.read().split()[0])
        return pages * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


@contextlib.contextmanager
def _address_space_cap() -> Iterator[None]:
    """Within the block, allocations past the address space at its start plus :data:`MAX_MEMORY` fail
    with MemoryError (RLIMIT_AS, Linux; only ever lowered, and restored after the last render ends), when
    the process's owner allows process-wide guards (:mod:`derive.storage.process`)."""
    from ..storage.process import guards_on

    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    if not guards_on():        # a library call: the process's limits are its owner's (storage/process.py)
        yield
        return
    with _CAP_LOCK:
        if _cap_state["renders"] == 0:
            now = _address_space()
            before = resource.getrlimit(resource.RLIMIT_AS)
            if now is not None:
                soft, hard = before
                cap = now + MAX_MEMORY
                if hard != resource.RLIM_INFINITY:
                    cap = min(cap, hard)
                try:
                    if soft == resource.RLIM_INFINITY or cap < soft:
                        resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
                        _cap_state["before"] = before
                except (ValueError, OSError):
                    pass
        _cap_state["renders"] += 1
    try:
        yield
    finally:
        with _CAP_LOCK:
            _cap_state["renders"] -= 1
            if _cap_state["renders"] == 0 and _cap_state["before"] is not None:
                try:
                    resource.setrlimit(resource.RLIMIT_AS, _cap_state["before"])
                except (ValueError, OSError):  # pragma: no cover - raising a soft limit back to where it was
                    pass
                _cap_state["before"] = None


def uncapped_address_space() -> tuple[int, int] | None:
    """The address-space limit the process had before a render capped it (for a process started during a
    render, such as a TeX build, which has budgets of its own), or None when no cap is in force."""
    with _CAP_LOCK:
        return _cap_state["before"]


def _tick() -> None:
    b = _CURRENT.get()
    if b is not None:
        b.tick()


def render_bounded(template: Any, context: dict[str, Any]) -> str:
    """``template.render(**context)`` within a budget: output counted as it is written."""
    with budget() as b:
        parts = []
        for chunk in template.generate(**context):
            b.spend_output(len(chunk))
            parts.append(chunk)
        b.check_now()
        return "".join(parts)


# ---------------------------------------------------------------------------
# bounds on strings and formats

def _check_string(value: Any, what: str = "a string") -> Any:
    if isinstance(value, (str, bytes, bytearray)) and len(value) > 100_000:
        if len(value) > MAX_STRING:
            raise _security_error(f"{what} of {len(value):,} characters is too long (more than {MAX_STRING:,})")
        b = _CURRENT.get()
        if b is not None:          # many big strings kept (a list of them) grow memory between ticks
            b.check_memory()
    return value


def _size(value: Any) -> int:
    """An upper bound on the length of ``value``'s text (past :data:`MAX_STRING`: ``MAX_STRING + 1``)."""
    from .text_size import text_size

    return text_size(value, MAX_STRING)


def _check_text(value: Any, what: str) -> Any:
    """Refuse to turn ``value`` into text when the text would be longer than :data:`MAX_STRING`, before
    it is made (a list of a million references to one long string is small; its text is not)."""
    if not isinstance(value, str) and _size(value) > MAX_STRING:
        raise _security_error(f"the text of {what} would be longer than {MAX_STRING:,} characters")
    return value


def _check_fields(fmt: str, fields: int, args: Any) -> None:
    """Refuse formatting ``args`` into ``fmt`` (with ``fields`` fields, each of at most :data:`MAX_WIDTH` and
    the text of one argument) when the result could be longer than :data:`MAX_STRING`."""
    if not fields:
        return
    largest = max((_size(a) for a in args), default=0)
    if len(fmt) + fields * (largest + MAX_WIDTH) > MAX_STRING:
        raise _security_error(f"formatting that would make a string longer than {MAX_STRING:,} characters")


def _check_length(total: int, kind: str) -> None:
    """Refuse a string of more than :data:`MAX_STRING` characters or a sequence of more than :data:`MAX_ITEMS`."""
    limit = MAX_STRING if kind == "str" else MAX_ITEMS
    if total > limit:
        what = "a string of {:,} characters" if kind == "str" else f"a {kind} of {{:,}} items"
        raise _security_error(f"that would make {what.format(total)} (more than {limit:,})")


def _joined_length(separator: str, items: list) -> int:
    total = len(separator) * max(0, len(items) - 1)
    for x in items:
        total += len(x) if isinstance(x, str) else _size(x)
        if total > MAX_STRING:
            break
    return total


def _check_int(value: Any, what: str, limit: int = MAX_WIDTH) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > limit:
        raise _security_error(f"{what} {value} is too large (more than {limit})")


_SPEC_NUMBER = re.compile(r"\d+")


def check_format_spec(spec: str) -> None:
    """Refuse a ``str.format`` spec whose width or precision is above :data:`MAX_WIDTH` (``>1000000000``)."""
    for n in _SPEC_NUMBER.findall(spec or ""):
        if len(n) > 6 or int(n) > MAX_WIDTH:
            raise _security_error(f"format width or precision {n} is too large (more than {MAX_WIDTH})")


_PERCENT_SPEC = re.compile(r"%(?:\([^)]*\))?[#0\- +]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?[a-zA-Z%]")


def _check_percent(fmt: str, args: Any) -> None:
    """Refuse ``'%1000000000d' % x``, ``'%*d' % (10**9, x)`` and ``'%s%s' % (big, big)``."""
    star = False
    fields = 0
    for m in _PERCENT_SPEC.finditer(fmt):
        fields += 1
        for part in m.groups():
            if part == "*":
                star = True
            elif part:
                check_format_spec(part)
    values = args if isinstance(args, tuple) else (args,)
    if star:
        for a in values:
            _check_int(a, "format width", MAX_WIDTH)
    _check_fields(fmt, fields, values)


def _check_format_string(fmt: str, args: tuple = (), kwargs: Any = None) -> None:
    """Check the literal specs of a ``str.format`` string, nested ones included, and the size of what its
    fields would show."""
    try:
        parsed = list(string.Formatter().parse(fmt))
    except ValueError:
        return  # str.format raises the same error itself
    fields = 0
    for _literal, name, spec, _conv in parsed:
        if name is not None:
            fields += 1
        if spec:
            check_format_spec(spec)
    _check_fields(fmt, fields, [*args, *(kwargs.values() if isinstance(kwargs, dict) else [kwargs or ()])])


def _bounded_method(obj: Any, args: tuple, kwargs: dict) -> tuple:
    """Pre-check the str and list methods that can make a huge string or list from small arguments;
    returns the arguments to call with (an iterable to join is read once, here)."""
    name = getattr(obj, "__name__", "")
    owner = getattr(obj, "__self__", None)
    if isinstance(owner, list) and name in ("extend", "__iadd__") and args:
        items = args[0]
        if hasattr(items, "__len__"):
            _check_length(len(owner) + len(items), "list")
        return args
    if not isinstance(owner, str):
        return args
    if name == "join" and args:
        items = list(args[0]) if not isinstance(args[0], list) else args[0]
        _check_length(_joined_length(owner, items), "str")
        return (items, *args[1:])
    _bounded_str_method(owner, name, args, kwargs)
    return args


def _bounded_str_method(owner: str, name: str, args: tuple, kwargs: dict) -> None:
    """Pre-check the str methods that can make a huge string from small arguments."""
    if name in ("ljust", "rjust", "center", "zfill"):
        if args:
            _check_int(args[0], f"str.{name} width", MAX_STRING)
    elif name == "expandtabs":
        size = args[0] if args else kwargs.get("tabsize", 8)
        _check_int(size, "tab size", MAX_WIDTH)
        if isinstance(size, int) and len(owner) + owner.count("\t") * max(size, 0) > MAX_STRING:
            raise _security_error(f"expandtabs would make a string longer than {MAX_STRING:,} characters")
    elif name == "translate" and args:
        if len(owner) * _longest_replacement(args[0]) > MAX_STRING:
            raise _security_error(f"translate would make a string longer than {MAX_STRING:,} characters")
    elif name == "replace" and len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
        _check_replace(owner, args[0], args[1])


def _longest_replacement(table: Any) -> int:
    """The longest text ``str.translate`` may put for one character with ``table`` (at least 1)."""
    values = table.values() if isinstance(table, dict) else table if isinstance(table, (list, tuple, str)) else ()
    longest = 1
    for v in values:
        _tick()
        if isinstance(v, str):
            longest = max(longest, len(v))
    if not isinstance(table, (dict, list, tuple, str)):
        longest = MAX_STRING + 1     # a table the check cannot read: refused unless the string is empty
    return longest


def _check_replace(text: str, old: str, new: str) -> None:
    count = text.count(old) if old else len(text) + 1
    if len(text) + count * (len(new) - len(old)) > MAX_STRING:
        raise _security_error(f"replace would make a string longer than {MAX_STRING:,} characters")


# ---------------------------------------------------------------------------
# bounded filters


def _bounded_filters(filters: dict[str, Any]) -> dict[str, Any]:
    """The built-in filters that take a width or count, with that number bounded."""
    out: dict[str, Any] = {}

    def widths(name: str, positions: tuple[int, ...], keys: tuple[str, ...]):
        original = filters[name]

        def bounded(*args: Any, **kwargs: Any) -> Any:
            for i in positions:
                if i < len(args):
                    _check_int(args[i], f"{name} width", MAX_WIDTH)
            for k in keys:
                if k in kwargs:
                    _check_int(kwargs[k], f"{name} {k}", MAX_WIDTH)
            return _check_string(original(*args, **kwargs), f"the {name} filter's result")

        bounded.__name__ = original.__name__
        for attr in ("jinja_pass_arg",):
            if hasattr(original, attr):
                setattr(bounded, attr, getattr(original, attr))
        return bounded

    # positions count the filter's own arguments after the value (and the environment/context if passed)
    out["center"] = widths("center", (1,), ("width",))
    out["indent"] = widths("indent", (1,), ("width",))
    out["wordwrap"] = widths("wordwrap", (2,), ("width",))    # (environment, s, width, ...)
    out["truncate"] = widths("truncate", (2,), ("length", "leeway"))
    out["batch"] = widths("batch", (1,), ("linecount",))
    out["slice"] = widths("slice", (1,), ("slices",))
    out["filesizeformat"] = filters["filesizeformat"]

    original_replace = filters["replace"]

    def replace(eval_ctx: Any, s: Any, old: Any, new: Any, count: Any = None) -> Any:
        if isinstance(s, str):
            _check_replace(s, str(old), str(new))
        return original_replace(eval_ctx, s, old, new, count)

    replace.jinja_pass_arg = original_replace.jinja_pass_arg  # type: ignore[attr-defined]
    out["replace"] = replace

    original_format = filters["format"]

    def format_(value: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(value, str):
            _check_percent(value, args or (kwargs,))
        return _check_string(original_format(value, *args, **kwargs), "the format filter's result")

    out["format"] = format_

    original_join = filters["join"]

    def join(eval_ctx: Any, value: Any, d: str = "", attribute: Any = None) -> Any:
        items = list(value)
        if attribute is None:           # (with an attribute the items are looked up, each within the budget)
            _check_length(_joined_length(str(d), items), "str")
        return _check_string(original_join(eval_ctx, items, d, attribute), "the join filter's result")

    join.jinja_pass_arg = original_join.jinja_pass_arg  # type: ignore[attr-defined]
    out["join"] = join

    original_sum = filters["sum"]

    def sum_(environment: Any, iterable: Any, attribute: Any = None, start: Any = 0) -> Any:
        if attribute is not None:
            return original_sum(environment, iterable, attribute, start)
        total = start                   # added one by one: each step ticks and is bounded like a +
        for item in iterable:
            _tick()
            total = _bounded_add(total, item)
        return total

    sum_.jinja_pass_arg = original_sum.jinja_pass_arg  # type: ignore[attr-defined]
    out["sum"] = sum_

    original_tojson = filters["tojson"]

    def tojson(eval_ctx: Any, value: Any, indent: Any = None) -> Any:
        from jinja2 import Undefined

        if isinstance(value, Undefined):
            value._fail_with_undefined_error()      # an undefined name, not "StrictUndefined is not JSON"
        _check_int(indent, "tojson indent", MAX_WIDTH)
        return _bounded_json(eval_ctx, value, indent)

    tojson.jinja_pass_arg = original_tojson.jinja_pass_arg  # type: ignore[attr-defined]
    out["tojson"] = tojson

    def pprint_(value: Any) -> str:
        import pprint

        stream = _BoundedText("the pprint filter's result")
        pprint.PrettyPrinter(stream=stream).pprint(value)  # type: ignore[arg-type]   # repr pieces: bounded by the check of its input
        return stream.getvalue()[:-1]                       # pprint() ends with a line break; pformat does not

    out["pprint"] = pprint_
    return out


class _BoundedText:
    """A text stream that refuses to grow past :data:`MAX_STRING` characters, checked at every write."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.parts: list[str] = []
        self.length = 0

    def write(self, text: str) -> int:
        _tick()
        self.length += len(text)
        if self.length > MAX_STRING:
            raise _security_error(f"{self.what} would be longer than {MAX_STRING:,} characters")
        self.parts.append(text)
        return len(text)

    def getvalue(self) -> str:
        return "".join(self.parts)


def _bounded_json(eval_ctx: Any, value: Any, indent: Any) -> Any:
    """Jinja's ``tojson`` (the environment's JSON options, HTML-safe), written piece by piece and stopped
    as soon as it passes :data:`MAX_STRING` characters."""
    import json

    from jinja2.utils import htmlsafe_json_dumps

    policies = eval_ctx.environment.policies
    options = dict(policies.get("json.dumps_kwargs") or {})
    if indent is not None:
        options["indent"] = indent
    if policies.get("json.dumps_function") not in (None, json.dumps):
        return _check_string(htmlsafe_json_dumps(value, dumps=policies["json.dumps_function"], **options),
                             "the tojson filter's result")
    stream = _BoundedText("the tojson filter's result")
    for piece in json.JSONEncoder(**options).iterencode(value):      # the encoder that yields as it goes
        stream.write(piece)
    return htmlsafe_json_dumps(stream.getvalue(), dumps=lambda text, **_: text)


def _check_add(left: Any, right: Any) -> None:
    """Refuse ``left + right`` when it would make a string or sequence beyond its bound."""
    for kind in (str, list, tuple, bytes):
        if isinstance(left, kind) and isinstance(right, kind):
            _check_length(len(left) + len(right), "str" if kind is bytes else kind.__name__)


def _bounded_add(left: Any, right: Any) -> Any:
    _check_add(left, right)
    return left + right


def _budget_iter(iterable: Any) -> Iterator[Any]:
    """Every loop of a template goes through here: one tick of the budget per item."""
    b = _CURRENT.get()
    if b is None:
        yield from iterable
        return
    for item in iterable:
        b.tick()
        yield item


def _budget_str(value: Any) -> Any:
    """Every ``~`` of a template goes through here: the result may not exceed :data:`MAX_STRING`."""
    _tick()
    return _check_string(value, "a string built with ~")


def _budget_text(value: Any) -> Any:
    """Every value a template writes with ``{{ }}`` or joins with ``~`` goes through here first."""
    return _check_text(value, "a value written out")


#: filters that rearrange, count or pick from their value without turning it into text
STRUCTURAL_FILTERS = frozenset({
    "abs", "attr", "batch", "bool", "count", "d", "default", "dictsort", "first", "float", "groupby", "int",
    "items", "join", "last", "length", "list", "map", "max", "min", "random", "reject", "rejectattr", "round",
    "select", "selectattr", "slice", "sort", "sum", "unique"})
_BUDGET_FILTERS = ("_budget_iter", "_budget_str", "_budget_text", "_budget_filter_in", "_budget_filter_out")


def _budget_filter_in(value: Any, name: str) -> Any:
    """The value of every filter a template applies, but :data:`STRUCTURAL_FILTERS`: its text may not be too long."""
    if name not in STRUCTURAL_FILTERS:
        _check_text(value, f"the value of the {name} filter")
    return value


def _budget_filter_out(value: Any, name: str) -> Any:
    """The result of every filter a template applies: not too long a string."""
    return _check_string(value, f"the {name} filter's result")


# ---------------------------------------------------------------------------
# the environment


def sandbox(loader: Any, mode: str, **options: Any):
    """The one builder of the Jinja environments user text runs in (templates and live sources): the
    bounded sandbox (see the module docstring), undefined names as errors, HTML autoescaped in
    ``html``, blocks trimmed; ``options`` adds what one kind of text needs (a live LaTeX source's
    delimiters)."""
    import jinja2

    return _bounded_sandbox()(loader=loader, undefined=jinja2.StrictUndefined, autoescape=mode == "html",
                              trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, **options)


@lru_cache(maxsize=1)
def _bounded_sandbox():
    from jinja2 import nodes
    from jinja2.sandbox import SandboxedEnvironment, SandboxedEscapeFormatter, SandboxedFormatter
    from jinja2.visitor import NodeTransformer
    from markupsafe import Markup

    class _BoundedFormat:
        def format_field(self, value: Any, format_spec: str) -> Any:
            check_format_spec(format_spec)
            return super().format_field(value, format_spec)  # type: ignore[misc]

    class BoundedFormatter(_BoundedFormat, SandboxedFormatter):
        pass

    class BoundedEscapeFormatter(_BoundedFormat, SandboxedEscapeFormatter):
        pass

    class Budgeted(NodeTransformer):
        """Route every loop's iterable and every ``~`` through the budget."""

        def visit_For(self, node: Any) -> Any:
            node = self.generic_visit(node)
            node.iter = nodes.Filter(node.iter, "_budget_iter", [], [], None, None, lineno=node.lineno)
            return node

        def visit_Concat(self, node: Any) -> Any:
            node = self.generic_visit(node)
            node.nodes = [self._text(n) for n in node.nodes]
            return nodes.Filter(node, "_budget_str", [], [], None, None, lineno=node.lineno)

        def visit_Output(self, node: Any) -> Any:
            node = self.generic_visit(node)
            node.nodes = [n if isinstance(n, nodes.TemplateData) else self._text(n) for n in node.nodes]
            return node

        def visit_Filter(self, node: Any) -> Any:
            node = self.generic_visit(node)
            if node.node is None or node.name in _BUDGET_FILTERS:
                return node          # a {% filter %} block's filter (its body is output already checked)
            name = nodes.Const(node.name, lineno=node.lineno)
            node.node = nodes.Filter(node.node, "_budget_filter_in", [name], [], None, None, lineno=node.lineno)
            return nodes.Filter(node, "_budget_filter_out", [name], [], None, None, lineno=node.lineno)

        @staticmethod
        def _text(node: Any) -> Any:
            return nodes.Filter(node, "_budget_text", [], [], None, None, lineno=node.lineno)

    class BoundedSandbox(SandboxedEnvironment):
        intercepted_binops = frozenset({"*", "**", "%", "+"})

        def __init__(self, **options: Any) -> None:
            super().__init__(**options)
            self.globals.pop("lipsum", None)
            self.filters.update(_bounded_filters(self.filters))
            self.filters["_budget_iter"] = _budget_iter
            self.filters["_budget_str"] = _budget_str
            self.filters["_budget_text"] = _budget_text
            self.filters["_budget_filter_in"] = _budget_filter_in
            self.filters["_budget_filter_out"] = _budget_filter_out

        def call_filter(self, name: str, value: Any, *args: Any, **kwargs: Any) -> Any:
            """A filter called by another (``map('string')``) is bounded as one the template applies."""
            if isinstance(name, str):
                _budget_filter_in(value, name)
            return _budget_filter_out(super().call_filter(name, value, *args, **kwargs), str(name))

        def _parse(self, source: str, name: Any, filename: Any) -> Any:
            return Budgeted().visit(super()._parse(source, name, filename))

        def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
            _tick()
            numbers = all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (left, right))
            if operator == "**" and numbers and abs(left) > 1 and right > 0:
                if right * math.log10(abs(left)) > MAX_DIGITS:
                    raise _security_error(f"{left!r} ** {right!r} is too large (more than {MAX_DIGITS} digits)")
            if operator == "*" and numbers and isinstance(left, int) and isinstance(right, int):
                digits = math.log10(abs(left) + 1) + math.log10(abs(right) + 1)
                if digits > MAX_DIGITS:
                    raise _security_error(f"{left!r} * {right!r} is too large (more than {MAX_DIGITS} digits)")
            if operator == "*" and not numbers:
                for seq, count in ((left, right), (right, left)):
                    if isinstance(seq, (str, list, tuple, bytes, bytearray)) and isinstance(count, int) \
                            and len(seq) * count > MAX_ITEMS:
                        raise _security_error(f"repeating {type(seq).__name__} {count} times is too large "
                                              f"(more than {MAX_ITEMS} items)")
            if operator == "%" and isinstance(left, str):
                _check_percent(left, right)
            if operator == "+":
                _check_add(left, right)
            result = super().call_binop(context, operator, left, right)
            return _check_string(result, f"the result of {operator}")

        def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
            b = _CURRENT.get()
            if b is not None:
                b.tick()
            for a in args:
                _check_string(a, "an argument")
            if isinstance(__obj, (types.BuiltinMethodType, types.MethodType)):
                args = _bounded_method(__obj, args, kwargs)
            return _check_string(super().call(__context, __obj, *args, **kwargs),
                                 f"the result of {getattr(__obj, '__name__', 'a call')}")

        def getattr(self, obj: Any, attribute: str) -> Any:
            _tick()
            return _check_string(super().getattr(obj, attribute), f"attribute {attribute!r}")

        def wrap_str_format(self, value: Any) -> Any:
            if not isinstance(value, (types.MethodType, types.BuiltinMethodType)) \
                    or value.__name__ not in ("format", "format_map"):
                return None
            f_self = value.__self__
            if not isinstance(f_self, str):
                return None
            str_type = type(f_self)
            is_format_map = value.__name__ == "format_map"
            formatter: Any = (BoundedEscapeFormatter(self, escape=f_self.escape) if isinstance(f_self, Markup)
                              else BoundedFormatter(self))

            def wrapper(*args: Any, **kwargs: Any) -> str:
                if is_format_map:
                    if kwargs or len(args) != 1:
                        raise TypeError("format_map() takes exactly one argument")
                    kwargs, args = args[0], ()
                _check_format_string(f_self, args, kwargs)
                return _check_string(str_type(formatter.vformat(f_self, args, kwargs)), "a formatted string")

            return wrapper

    return BoundedSandbox
