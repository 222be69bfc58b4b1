"""Engine rules of issue 29: literals inside inline ``--require`` inequalities, and printed bounds that
never pass their edge (a largest value rounds down, a smallest up; a count prints in full)."""

from __future__ import annotations

import pytest
import sympy

from derive import InputError, solve
from derive.symbolic.units import format_number


@pytest.mark.parametrize("text, edge", [
    ("params <= 150e9", 150_000_000_000),
    ("params <= 1e3", 1000),
    ("params <= 1.5E+3", 1500),
    ("params <= 2**30", 2**30),
])
def test_number_literals_inside_require(catalog, text, edge):
    # the bound on params is the literal itself: 150e9 = 150,000,000,000, 2**30 = 1,073,741,824
    assert solve("params", bound="max", require=[text], catalog=catalog).value == edge


def test_a_power_with_a_unit_inside_require(catalog):
    # weight_bytes = params · bytes per param: 2**30 B / 2 B = 536,870,912 parameters at most
    sol = solve("params", {"weight_bytes_per_param": 2}, bound="max", require=["weight_bytes <= 2**30 B"],
                catalog=catalog)
    assert sol.value == 2**29
    # the same with spaces round the power, and a decimal exponent before a unit: 1.5e9 B / 2 B = 7.5e8
    assert solve("params", {"weight_bytes_per_param": 2}, bound="max", require=["weight_bytes <= 2 ** 30 B"],
                 catalog=catalog).value == 2**29
    assert solve("params", {"weight_bytes_per_param": 2}, bound="max", require=["weight_bytes <= 1.5e9 B"],
                 catalog=catalog).value == 750_000_000


def test_a_word_after_a_number_is_still_refused_when_it_is_no_unit(catalog):
    with pytest.raises(InputError, match="not a unit"):
        solve("params", bound="max", require=["params <= 150 apples"], catalog=catalog)


def test_a_largest_count_prints_in_full_and_never_above_its_edge(catalog):
    # 120 GB / 2.8 B per parameter = 42,857,142,857.14...: at most 42,857,142,857 parameters (not 4.286e10,
    # which is above the edge)
    sol = solve("params", {"weight_bytes_per_param": 2.8}, bound="max", require=["weight_bytes <= 120 GB"],
                catalog=catalog)
    assert sol.value == 42_857_142_857
    assert sol.display() == "42,857,142,857"
    assert sol.to_dict()["display"] == "42,857,142,857"


def test_a_bound_on_a_rate_rounds_towards_its_inside(catalog):
    # memory_time = bytes / hbm_bw <= 1 ms with 3.3333333 GB: hbm_bw >= 3.3333333 TB/s, printed 3.334 (up),
    # never 3.333 (below the least bandwidth that meets it)
    low = solve("hbm_bw", {"bytes_moved": "3.3333333 GB"}, bound="min", require=["memory_time <= 1 ms"],
                catalog=catalog)
    assert low.value == 3_333_333_300_000          # 3.3333333e9 B / 1e-3 s, in B/s
    assert low.display() == "3.334 TB/s"
    # memory_time >= 1 ms with 3.3336666 GB: hbm_bw <= 3.3336666 TB/s, printed 3.333 (down), not 3.334
    high = solve("hbm_bw", {"bytes_moved": "3.3336666 GB"}, bound="max", require=["memory_time >= 1 ms"],
                 catalog=catalog)
    assert high.display() == "3.333 TB/s"


def test_directed_rounding_of_numbers():
    # 42,857,142,857.14 to four figures: 4.285e10 down, 4.286e10 up
    edge = sympy.Rational(300_000_000_000, 7)
    assert format_number(edge, 4, direction="down") == "4.285e10"
    assert format_number(edge, 4, direction="up") == "4.286e10"
    # 1/7 = 0.142857...: 0.1429 up, 0.1428 down (to nearest it would be 0.1429)
    assert format_number(sympy.Rational(1, 7), 4, direction="up") == "0.1429"
    assert format_number(sympy.Rational(1, 7), 4, direction="down") == "0.1428"
    # 10^6/7 = 142,857.142...: not whole, so two decimals, cut down for a largest value and up for a smallest
    assert format_number(sympy.Rational(10**6, 7), 4, direction="down") == "142,857.14"
    assert format_number(sympy.Rational(10**6, 7), 4, direction="up") == "142,857.15"
    # a short decimal is exact, so it needs no direction: 123,456.7 either way
    assert format_number(sympy.Rational(1234567, 10), 4, direction="down") == "123,456.7"


def test_a_free_draft_is_accepted(catalog):
    # c = 0: speedup = (1 − α^(γ+1)) / ((1 − α)(γ·c + 1)) = (1 − 0.8^5)/0.2 = (1 − 0.32768)/0.2 = 3.3616
    sol = solve("spec_speedup", {"spec_accept_rate": 0.8, "spec_draft_tokens": 4, "spec_draft_cost_ratio": 0},
                catalog=catalog)
    assert sol.value == sympy.Rational(33616, 10000)
