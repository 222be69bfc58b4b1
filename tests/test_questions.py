"""The engine's headline questions, through the Python API and the CLI's JSON, with exact forms."""

from __future__ import annotations

import sympy

from derive import solve

S = lambda name: sympy.Symbol(name, positive=True)  # noqa: E731


def test_critical_ai_a100(cli):
    sol = solve("critical_ai", hw="a100")
    assert sol.target == "critical_ai_hbm"
    assert sol.value == 156
    assert sol.unit == "FLOP/B"
    assert sol.formula == S("peak_flops") / S("hbm_bw")
    out = cli("solve", "critical_ai", "--hw", "a100", "--format", "json")
    assert out.code == 0, out.err
    data = out.json
    assert data["value"] == 156 and data["unit"] == "FLOP/B"
    assert data["relations_used"] == ["critical_ai_hbm"]
    assert data["given"]["peak_flops"]["value"] == 312 * 10**12
    assert data["steps"][0]["substituted"]


def test_kv_bytes_per_token_llama2_70b(cli):
    sol = solve("kv_bytes_per_token", model="llama2-70b")
    assert sol.value == 327680
    assert sol.unit == "B"
    assert sol.display("iec") == "320 KiB"
    assert sol.display("si") == "327.68 kB"
    out = cli("solve", "kv_bytes_per_token", "--model", "llama2-70b", "--format", "json", "--units", "iec")
    assert out.code == 0, out.err
    assert out.json["value"] == 327680
    assert out.json["display"] == "320 KiB"
    # the bf16 element size was assumed, and the answer says so
    assert out.json["given"]["bytes_per_element"]["origin"] == "default"


def test_largest_d_model_in_vmem_cli(cli):
    base = ["solve", "d_model", "--max", "--require", "ffn_fits_in_vmem", "--hw", "tpu-v5e",
            "--preset", "classic-ffn", "--format", "json"]
    for extra, value in [([], 2896), (["vmem_capacity=128MB"], 2828), (["--multiple-of", "128"], 2816)]:
        out = cli(*base, *extra)
        assert out.code == 0, out.err
        assert out.json["value"] == value
        assert out.json["bound"] == "max"
    # the closed form puts in the pure numbers (2·4 = 8 bytes-per-element products), not the 2 B per element
    assert out.json["reduced_formula"] == "sqrt(2)*sqrt(vmem_capacity)/(4*sqrt(weight_bytes_per_param))"


def test_largest_d_model_in_vmem():
    kwargs = dict(hw="tpu-v5e", presets=["classic-ffn"], bound="max", require=["ffn_fits_in_vmem"])
    sol = solve("d_model", **kwargs)
    assert sol.value == 2896
    assert sol.exact == 2048 * sympy.sqrt(2)          # sqrt(128 MiB / 16), exactly
    assert sympy.simplify(sol.reduced_formula() - sympy.sqrt(S("vmem_capacity") / (8 * S("weight_bytes_per_param")))) == 0
    assert sol.bound == "max"
    assert solve("d_model", {"vmem_capacity": "128 MB"}, **kwargs).value == 2828
    assert solve("d_model", multiple_of=128, **kwargs).value == 2816


def test_smallest_batch_hiding_prefetch(cli):
    sol = solve("batch", {"d_model": 4096}, hw="tpu-v5e", presets=["classic-ffn"], bound="min",
                require=["ffn_prefetch_hidden"])
    assert sol.value == 481
    assert sympy.simplify(sol.reduced_formula() - S("peak_flops") * S("weight_bytes_per_param") / S("hbm_bw")) == 0
    assert "d_model" in sol.cancelled
    assert not sol.formula.has(S("d_model"))
    # D does not even need to be given
    assert solve("batch", hw="tpu-v5e", presets=["classic-ffn"], bound="min",
                 require=["ffn_prefetch_hidden"]).value == 481
    out = cli("solve", "batch", "--min", "--require", "ffn_prefetch_hidden", "--hw", "tpu-v5e",
              "--preset", "classic-ffn", "d_model=4096", "--format", "json")
    assert out.code == 0, out.err
    assert out.json["value"] == 481 and out.json["bound"] == "min"
    assert any(n["kind"] == "cancelled" for n in out.json["notes"])


def test_gpus_to_train_70b(cli):
    sol = solve("num_devices", {"params": "70e9", "hbm_capacity": "80 GB"}, bound="min",
                require=["training_state_fits"])
    assert sol.value == 14
    # the weights' element size follows the one element size (bf16): both are listed as assumed
    assert {g.name for g in sol.assumptions} == {"weight_bytes_per_param", "grad_bytes_per_param",
                                                  "optimizer_bytes_per_param", "bytes_per_element"}
    out = cli("solve", "num_devices", "--min", "--require", "training_state_fits", "params=70e9",
              "hbm_capacity=80GB", "--format", "json")
    assert out.code == 0, out.err
    assert out.json["value"] == 14
    assert solve("num_devices", {"params": "70e9"}, model=None, hw="h100", bound="min",
                 require=["training_state_fits"]).value == 14


def test_every_answer_is_checked():
    sol = solve("d_model", hw="tpu-v5e", presets=["classic-ffn"], bound="max", require=["ffn_fits_in_vmem"])
    kinds = {c.kind for c in sol.checks}
    assert {"condition", "tight"} <= kinds
    assert all(c.holds for c in sol.checks)
