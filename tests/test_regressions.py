"""One test per bug found by the property and fuzz tests, named for what broke (as pint's test_issues.py).

Each docstring says what went wrong before the fix; the test fails on the old code.
"""

from __future__ import annotations

import time

import pytest

from derive import ExpressionError, solve
from derive._expr import parse_number


@pytest.mark.parametrize("text", [
    "(1+10**-400)**4096",            # close to 1, but 1.6 million digits in the numerator and denominator
    "((1+10**-400)**4096)**4096",    # would need billions of digits
    "(1+10**-399)*(1+10**-399)",     # a product whose denominator has 798 digits
])
def test_value_whose_exact_fraction_is_huge_is_refused_quickly(text):
    """`peak_flops=(1+10**-400)**4096` hung the CLI: the exponent guard bounded the magnitude of
    the result (about 1) instead of the digits of its numerator and denominator."""
    start = time.perf_counter()
    with pytest.raises(ExpressionError, match="out of range"):
        parse_number(text)
    with pytest.raises(ExpressionError, match="out of range"):
        solve("critical_ai", {"peak_flops": text, "hbm_bw": "2 TB/s"})
    assert time.perf_counter() - start < 2


def test_large_but_short_exact_numbers_still_parse():
    assert parse_number("10**400") == 10**400
    assert parse_number("10**-400") * 10**400 == 1
    assert parse_number("2**1000") == 2**1000
