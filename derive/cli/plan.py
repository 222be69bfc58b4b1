"""``derive plan train|serve NAME=VALUE ...``: the best parallel layout, searched over every layout.

The search is :mod:`derive.planning`; this module reads the options, prints the top layouts (text),
the plan as data (json), every evaluated layout (csv, npz), or the write-up of the winner (md, html,
tex, beamer, pdf: :mod:`derive.documents.plan_report`).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ._options import add_common, add_model_config, catalog_of, input_files, model_of, parse_assignments, to_stdout

if TYPE_CHECKING:  # pragma: no cover
    from pathlib import Path

    from ..planning.search import Plan

HELP = "search every parallel layout for a training run or a serving deployment"
DESCRIPTION = ("Search every layout (data, tensor, pipeline, context and expert parallel degrees, ZeRO stage, "
               "recomputation, micro-batches; or serving replicas, batch and precision), keep those that fit "
               "(and meet the SLOs), and rank them. 'derive plan train --help' and 'derive plan serve --help' "
               "list each one's options.")
FORMATS = ("text", "json", "csv", "npz", "md", "html", "tex", "beamer", "pdf")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("inputs", nargs="*", metavar="NAME=VALUE",
                   help="inputs every layout shares: num_devices=1024 batch_tokens=4194304 seq_len=8192, ...")
    p.add_argument("--hw", metavar="ID", help="hardware preset (see 'derive list --kind hw')")
    p.add_argument("--model", metavar="ID", help="model preset (see 'derive list --kind model')")
    add_model_config(p)
    p.add_argument("--preset", action="append", metavar="ID", help="setup preset; repeatable")
    p.add_argument("--layout", metavar="AXIS=N,...",
                   help="a layout to rank against the best, e.g. dp=128,tp=8,pp=1 (axes left out take their best)")
    p.add_argument("--top", type=int, default=5, metavar="K", help="layouts to list (default 5)")
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="text (default), json, csv or npz (every evaluated layout), or the winner's write-up: "
                        "md, html, tex, beamer, pdf")
    p.add_argument("--lang", choices=("en", "zh", "both"), default="en", help="language of a write-up")
    p.add_argument("--beamer", action="store_true", help="with --format pdf: build the slides, not the article")
    p.add_argument("--templates", metavar="DIR", help="a folder of templates that override the built-in ones")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    p.add_argument("--plot", metavar="FILE",
                   help="also draw the Pareto plot (speed against memory per device) to FILE (.png, .svg or .pdf)")
    add_common(p, lang=False)


def configure(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="kind", metavar="KIND", parser_class=type(p))
    sub.required = True
    train = sub.add_parser("train", help="the fastest training layout on N devices",
                           description="Search data × tensor × pipeline × context (× expert) parallel layouts of "
                                       "num_devices devices for a step of batch_tokens tokens of seq_len each.")
    _common(train)
    train.add_argument("--objective", choices=("step_time", "mfu", "cost", "energy"), default="step_time",
                       help="what the best layout minimises (mfu: maximises); cost needs device_hour_price=..., "
                            "energy needs device_power=...")
    train.add_argument("--zero", default="0,1,2,3", metavar="STAGES", help="ZeRO stages to search (default 0,1,2,3)")
    train.add_argument("--recompute", default="none,selective,full", metavar="SCHEMES",
                       help="activation recomputation schemes to search (default none,selective,full)")
    train.add_argument("--micro-batch", default="1,2,4,8", metavar="SIZES",
                       help="micro-batch sizes (sequences) to search (default 1,2,4,8)")
    train.set_defaults(plan_run=_train)
    serve = sub.add_parser("serve", help="the serving replica that meets the SLOs with the fewest devices",
                           description="Search serving replicas (tensor × pipeline degrees, batch, precision) for "
                                       "prompts of seq_len tokens and output_len generated ones.")
    _common(serve)
    serve.add_argument("--slo-ttft", metavar="TIME", help="largest time to first token, e.g. 500ms")
    serve.add_argument("--slo-tpot", metavar="TIME", help="largest time per output token, e.g. 50ms")
    load = serve.add_mutually_exclusive_group()
    load.add_argument("--rate", metavar="R", help="requests per second to serve: the plan sizes the fleet")
    load.add_argument("--users", metavar="U", help="concurrent requests to hold: the plan sizes the fleet")
    serve.add_argument("--price", metavar="USD", help="price per device-hour (USD), for the cost per million tokens")
    serve.add_argument("--precision", metavar="PRESETS",
                       help="precision presets to search (default: bf16, fp8 where the chip has an fp8 peak, w4a16)")
    serve.set_defaults(plan_run=_serve)
    fleet = sub.add_parser("fleet", help="the best training layout of every model × hardware × device count",
                           description="A fleet study: one training plan per combination of --models, --hws and "
                                       "--devices, in process or on a Dask cluster (--scheduler).")
    fleet.add_argument("inputs", nargs="*", metavar="NAME=VALUE",
                       help="inputs every combination shares: batch_tokens=4194304 seq_len=8192, ...")
    fleet.add_argument("--models", required=True, metavar="IDS", help="model presets, comma-separated")
    fleet.add_argument("--hws", required=True, metavar="IDS", help="hardware presets, comma-separated")
    fleet.add_argument("--devices", required=True, metavar="COUNTS", help="device counts, comma-separated")
    fleet.add_argument("--preset", action="append", metavar="ID", help="setup preset; repeatable")
    fleet.add_argument("--objective", choices=("step_time", "mfu", "cost", "energy"), default="step_time")
    fleet.add_argument("--scheduler", metavar="ADDRESS",
                       help="a Dask scheduler (tcp://host:8786) or local:N worker processes; needs "
                            "pip install 'derive[distributed]'")
    fleet.add_argument("--chunk-size", type=int, metavar="K", help="combinations per task (default 1)")
    fleet.add_argument("--format", choices=("text", "json", "csv"), default="text")
    fleet.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    add_common(fleet, lang=False)
    fleet.set_defaults(plan_run=None, fleet=True)


def run(args: argparse.Namespace) -> int:
    to_stdout(args)
    if getattr(args, "fleet", False):
        return _fleet(args)
    if args.top < 1:
        raise InputError(f"--top is how many layouts to list: 1 or more, not {args.top}")
    if args.format in ("pdf", "npz") and not args.output:
        raise InputError(f"--format {args.format} writes a file; give -o FILE")
    if args.beamer and args.format != "pdf":
        raise InputError("--beamer builds slides as a PDF: use it with --format pdf (--format beamer gives the source)")
    plan = args.plan_run(args)
    if args.plot:
        from ..documents.plan_report import front_data
        from ..plot.figures import front_figure, save

        save(front_figure(front_data(plan), "both" if args.lang == "both" else args.lang), args.plot)
    return _write(plan, args)


def _fleet(args: argparse.Namespace) -> int:
    """``derive plan fleet``: the study's rows as text, JSON or CSV."""
    from ..planning.fleet import fleet_study

    def names(text: str) -> list[str]:
        return [v.strip() for v in text.split(",") if v.strip()]

    study = fleet_study(names(args.models), names(args.hws), _numbers(args.devices, "devices"),
                        parse_assignments(args.inputs), presets=args.preset or (), objective=args.objective,
                        scheduler=args.scheduler, chunk_size=args.chunk_size,
                        catalog=catalog_of(args) if args.formulas else None)
    if args.format == "csv":
        import io

        buffer = io.StringIO()
        study.write_csv(buffer)
        text = buffer.getvalue()
    elif args.format == "json":
        import json

        text = json.dumps(study.to_dict(), indent=2, ensure_ascii=False, allow_nan=False)
    else:
        lines = [f"fleet study: {study.combinations:,} combinations, {study.planned:,} planned, "
                 f"{study.evaluated:,} layouts evaluated"]
        for row in study.rows:
            head = f"{row['model']} on {row['devices']:,} × {row['hw']}"
            if row["ok"]:
                n = row["numbers"]
                lines.append(f"  {head}: {_layout_text(row['layout'])}  step {_seconds(n['step_time'])}  "
                             f"MFU {n['mfu'] * 100:.1f} %")
            else:
                lines.append(f"  {head}: {row['reason']}")
        text = "\n".join(lines)
    if args.output:
        from ..storage.atomic import OutputPlan, write_atomic

        write_atomic(OutputPlan(input_files(args)).claim(args.output), text if text.endswith("\n") else text + "\n")
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def _numbers(text: str, what: str) -> list[int]:
    try:
        return [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise InputError(f"--{what} takes whole numbers separated by commas, not {text!r}") from None


def _layout(text: str | None) -> dict[str, Any] | None:
    if not text:
        return None
    out: dict[str, Any] = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise InputError(f"--layout takes AXIS=VALUE pairs separated by commas (dp=128,tp=8), not {text!r}")
        value = value.strip()
        out[key.strip()] = int(value) if value.isdigit() else value
    return out


def _train(args: argparse.Namespace) -> "Plan":
    from ..planning.search import plan_training

    recompute = [v.strip() for v in args.recompute.split(",") if v.strip()]
    return plan_training(parse_assignments(args.inputs), hw=args.hw, model=model_of(args), presets=args.preset or (),
                         objective=args.objective, zero=_numbers(args.zero, "zero"), recompute=recompute,
                         micro_batches=_numbers(args.micro_batch, "micro-batch"), layout=_layout(args.layout),
                         catalog=catalog_of(args))


def _serve(args: argparse.Namespace) -> "Plan":
    from ..planning.search import plan_serving

    given: dict[str, Any] = parse_assignments(args.inputs)
    for option, name in (("rate", "request_rate"), ("users", "concurrent_requests"), ("price", "device_hour_price")):
        value = getattr(args, option)
        if value is not None:
            if name in given:
                raise InputError(f"{name} is given twice (--{option} and {name}=); give it once")
            given[name] = value
    precisions = [v.strip() for v in args.precision.split(",") if v.strip()] if args.precision else None
    return plan_serving(given, hw=args.hw, model=model_of(args), presets=args.preset or (), slo_ttft=args.slo_ttft,
                        slo_tpot=args.slo_tpot, precisions=precisions, layout=_layout(args.layout),
                        catalog=catalog_of(args))


def _write(plan: "Plan", args: argparse.Namespace) -> int:
    from ..storage.atomic import OutputPlan, open_atomic

    output = OutputPlan(input_files(args)).claim(args.output) if args.output else None
    if args.format in ("pdf", "npz"):
        if output is None:      # pragma: no cover - run() refused these formats without -o
            raise InputError(f"--format {args.format} writes a file; give -o FILE")
        return _write_file(plan, args, output)
    if args.format == "csv":
        if output is not None:
            with open_atomic(output, "w") as fh:
                plan.write_csv(fh)
        else:
            plan.write_csv(sys.stdout)
        return 0
    if args.format == "json":
        import json

        text = json.dumps(plan.to_dict(args.top), indent=2, ensure_ascii=False, allow_nan=False)
    elif args.format == "text":
        text = _text(plan, args.top)
    else:
        from ..documents.plan_report import render_plan_report

        text = render_plan_report(plan, args.format, args.lang, command=_command(), templates=args.templates)
    if output is not None:
        from ..storage.atomic import write_atomic

        write_atomic(output, text if text.endswith("\n") else text + "\n")
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def _write_file(plan: "Plan", args: argparse.Namespace, output: "Path") -> int:
    """The formats that only go to a file: a compiled PDF, NumPy's npz."""
    from ..storage.atomic import open_atomic

    if args.format == "npz":
        with open_atomic(output, "wb") as fh:
            plan.write_npz(fh)
        return 0
    from ..documents.plan_report import render_plan_report
    from ..writeup.latex_build import compile_tex

    source = render_plan_report(plan, "beamer" if args.beamer else "tex", args.lang, command=_command(),
                                templates=args.templates)
    print(compile_tex(source, output))
    return 0


def _command() -> str:
    import shlex

    return "derive " + " ".join(shlex.quote(a) for a in sys.argv[1:])


def _seconds(x: float) -> str:
    return f"{x:.4g} s" if x >= 1 else (f"{x * 1e3:.4g} ms" if x >= 1e-3 else f"{x * 1e6:.4g} µs")


def _layout_text(layout: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in layout.items())


def _text(plan: "Plan", top: int) -> str:
    """The plan for a terminal: the best layouts, why others were refused, the layout the user named."""
    data = plan.to_dict(top)
    lines = [f"{plan.kind} plan: {data['evaluated']:,} layouts evaluated of {data['searched']:,} considered; "
             f"{len(plan.order):,} can run"]
    for text in plan.assumed.values():
        lines.append(f"  assumed: {text['en']}")
    lines.append("")
    for i, row in enumerate(data["top"], start=1):
        fits = row["fits"]
        if plan.kind == "train":
            figures = (f"step {_seconds(row['step_time'])}  MFU {row['mfu'] * 100:.1f} %  "
                       f"{row['tokens_per_s']:,.0f} tokens/s")
        else:
            figures = (f"TPOT {_seconds(row['tpot'])}  TTFT {_seconds(row['ttft'])}  "
                       f"{row['tokens_per_s_per_device']:,.0f} tokens/s/device  {row['devices']:,} devices")
        lines.append(f"{i:>2}. {_layout_text(row['layout'])}")
        lines.append(f"    {figures}  memory {fits['need'] / 1e9:.1f} of {fits['have'] / 1e9:.0f} GB per device")
    if data.get("named"):
        named = data["named"]
        where = f"rank {named['rank']:,}" if named["rank"] else f"refused: {named['refused']}"
        gap = f", {named['gap'] * 100:.1f} % behind the best" if named.get("gap") else ""
        lines += ["", f"named layout {_layout_text(named['layout'])}: {where}{gap}"]
    if data["infeasible"]:
        lines += ["", "refused:"] + [f"  {n:>10,}  {why}" for why, n in data["infeasible"].items()]
    return "\n".join(lines)
