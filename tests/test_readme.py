"""The README's commands work as written: the main job and the table of example questions."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_main_job_answers_its_question(cli):
    first = README.split("```bash", 1)[1].splitlines()[1]
    install, _, command = first.partition(" && ")
    assert "pip install" in install
    args = shlex.split(command)
    assert args[0] == "derive"
    out = cli(*args[1:])
    assert out.code == 0, out.err
    assert "d_model <= 2,896" in out.out
    assert "模型宽度" in out.out and "model width" in out.out   # both languages


TABLE_ROWS = re.findall(r"^\| [^|]+ \| `(derive solve [^`]+)` \| ([^|]+) \|$", README, re.M)


@pytest.mark.parametrize("command, answer", TABLE_ROWS, ids=[c.split()[2] for c, _ in TABLE_ROWS])
def test_the_example_table(cli, command, answer):
    out = cli(*shlex.split(command)[1:], "--format", "json")
    assert out.code == 0, out.err
    # the number after the arrow when the answer shows a formula first ("B ≥ 2·F/W → 481")
    shown = answer.split("→", 1)[1] if "→" in answer else answer
    first_number = re.search(r"[\d,]+", shown).group(0).replace(",", "")
    assert str(out.json["value"]) == first_number


def test_the_table_is_not_empty():
    assert len(TABLE_ROWS) >= 4


SHARD_BLOCKS = re.findall(r"```console\n\$ (derive shard .+?)\n(.*?)\n```", README, re.S)


def test_the_readme_shows_sharded_matmuls_with_and_without_wraparound():
    assert len(SHARD_BLOCKS) >= 2, "the README shows a 'derive shard' command, and one with --wraparound"
    assert any("--wraparound" in command for command, _ in SHARD_BLOCKS)


@pytest.mark.parametrize("command, shown", SHARD_BLOCKS, ids=[str(i) for i in range(len(SHARD_BLOCKS))])
def test_the_sharded_matmul_example_prints_what_the_readme_shows(cli, command, shown):
    out = cli(*shlex.split(command)[1:])
    assert out.code == 0, out.err
    lines = shown.splitlines()
    assert lines[-1] == "..."          # the README stops before the assumptions
    assert out.out.splitlines()[:len(lines) - 1] == lines[:-1]


PLAN_BLOCKS = re.findall(r"```console\n\$ (derive plan .+?)\n(.*?)\n```", README, re.S)


def test_the_readme_shows_a_training_and_a_serving_plan():
    assert {command.split()[2] for command, _ in PLAN_BLOCKS} == {"train", "serve"}


@pytest.mark.parametrize("command, shown", PLAN_BLOCKS, ids=[c.split()[2] for c, _ in PLAN_BLOCKS])
def test_the_plan_example_prints_what_the_readme_shows(cli, command, shown):
    out = cli(*shlex.split(command)[1:])
    assert out.code == 0, out.err
    lines = shown.splitlines()
    assert lines[-1] == "..."          # the README stops before the rest of the list
    assert out.out.splitlines()[:len(lines) - 1] == lines[:-1]
