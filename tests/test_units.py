"""Units: exact, decimal and binary prefixes never confused, bytes and FLOPs kept apart."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from derive import UnitError, solve
from derive.symbolic.units import format_number, format_value


def test_decimal_and_binary_prefixes_are_exact(catalog):
    parse_unit = catalog.units.parse
    assert parse_unit("kB")[0] == 1000
    assert parse_unit("KiB")[0] == 1024
    assert parse_unit("MiB")[0] == 2**20
    assert parse_unit("GB")[0] == 10**9
    assert parse_unit("ns")[0] == Fraction(1, 10**9)
    assert parse_unit("TB/s")[1].unit_string() == "B/s"
    assert parse_unit("TFLOP/s")[1].unit_string() == "FLOP/s"
    assert parse_unit("TFLOPS") == parse_unit("TFLOP/s")
    assert parse_unit("FLOP/B")[1].unit_string() == "FLOP/B"


def test_bytes_and_flops_are_different_dimensions(catalog):
    parse_unit = catalog.units.parse
    assert parse_unit("B")[1] != parse_unit("FLOP")[1]
    with pytest.raises(UnitError, match="peak_flops is in FLOP/s, but 'TB/s' is B/s"):
        solve("critical_ai", {"peak_flops": "312 TB/s", "hbm_bw": "2 TB/s"})


def test_KB_is_ambiguous(catalog):
    parse_unit = catalog.units.parse
    with pytest.raises(UnitError, match="write kB for 1000 B or KiB for 1024 B"):
        parse_unit("KB")


def test_arithmetic_stays_exact_until_formatting():
    # sqrt(128 MiB / 16) = 2048*sqrt(2) = 2896.309...; a float path could land on 2895.99999
    sol = solve("d_model", hw="tpu-v5e", presets=["classic-ffn"], bound="max", require=["ffn_fits_in_vmem"])
    assert sol.exact == 2048 * sympy.sqrt(2)
    assert sol.value == 2896
    # a bound that is exactly an integer is kept, not floored below it
    exact = solve("num_devices", {"params": "70e9", "hbm_capacity": "80 GB"}, bound="min",
                  require=["training_state_fits"])
    assert exact.exact == 14 and exact.value == 14


@pytest.mark.parametrize("value, dims, system, text", [
    (327680, "B", "si", "327.68 kB"),
    (327680, "B", "iec", "320 KiB"),
    (1342177280, "B", "iec", "1.25 GiB"),
    (1342177280, "B", "si", "1.342 GB"),
    (312 * 10**12, "FLOP/s", "si", "312 TFLOP/s"),
    (sympy.Rational(1, 6), "FLOP/B", "si", "0.1667 FLOP/B"),
    (sympy.Rational(256, 10**4), "s", "si", "25.6 ms"),
    (156, "FLOP/B", "si", "156 FLOP/B"),
    (1_500_000_000, "clock", "si", "1.5 GHz"),           # a quantity declared in Hz
    (4_345_000, "1/s", "si", "4.345 M/s"),              # tokens per second are not a frequency
    (6_300_000 * 10**18, "FLOP", "si", "6.3e24 FLOP"),   # past the largest prefix: scientific, not 6,300,000 EFLOP
    (999 * 10**18, "FLOP", "si", "999 EFLOP"),
    (3 * 2**70, "B", "iec", "3.542e21 B"),
    (1_971_905, "s", "si", "22.82 days"),              # a training run in days, not 1,971,905 s
    (2 * 86400, "s", "si", "2 days"),
    (2 * 86400 - 1, "s", "si", "172,799 s"),            # up to two days: seconds, exact to the second
])
def test_readable_prefixes(catalog, value, dims, system, text):
    d = catalog.quantities["gpu_clock"].dims if dims == "clock" else catalog.units.parse(dims)[1]
    assert format_value(sympy.sympify(value), d, system).text == text


def test_format_number():
    assert format_number(1.97e14) == "1.97e14"
    assert format_number(sympy.Integer(4096)) == "4,096"
    assert format_number(sympy.Rational(2896309, 1000), 7) == "2,896.309"
