"""docs/command-line.md cannot go stale: each error example it shows is run and its message
compared with the page's, its Samplers table is the sampler registry's (every sampler a model
offers, with the models offering it), and ``warm --help`` claims nothing the Makefile does not
do."""
import re
import shlex

import pytest

from engine import samplers
from engine.models import registry
from tests.command import engine
from tests.root import ROOT

GUIDE = (ROOT / "docs" / "command-line.md").read_text(encoding="utf-8")
PROMPT = "$ python -m engine "


def error_examples():
    """(command, message) of each example in the guide's block of errors."""
    start = GUIDE.index("```", GUIDE.index("Errors are one line on stderr"))
    lines = GUIDE[start + 3:GUIDE.index("```", start + 3)].strip().splitlines()
    assert len(lines) % 2 == 0 and all(line.startswith(PROMPT) for line in lines[::2]), lines
    return [(command.removeprefix(PROMPT), message)
            for command, message in zip(lines[::2], lines[1::2])]


@pytest.fixture
def guide_files(tmp_path, monkeypatch):
    """The folder the examples run in, with the files they describe."""
    (tmp_path / "corpus.txt").write_text("ab\na\tb\n")
    (tmp_path / "pairs.txt").write_text("a b ||| x y ||| 0-0 1-1\n")
    (tmp_path / "trees.txt").write_bytes((ROOT / "datasets/builtin/trees.txt").read_bytes())
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("command, message", error_examples())
def test_each_documented_error_is_what_the_command_says(guide_files, command, message):
    done = engine(*shlex.split(command))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == message


def sampler_rows():
    """{sampler: (name in the papers, [models])} of the guide's Samplers table."""
    section = GUIDE[GUIDE.index("## Samplers"):GUIDE.index("## Models")]
    rows = re.findall(r"^\| `([a-z][\w-]*)` \| ([^|]+) \|[^\n]*\| ([\w, ]+) \|$", section, re.M)
    return {name: (paper.strip(), [m.strip() for m in models.split(",")])
            for name, paper, models in rows}


def test_the_samplers_table_is_the_registrys():
    offered = {name: [model for model, cls in registry.models().items()
                      if name in samplers.offered(cls.samplers)] for name in samplers.names()}
    rows = sampler_rows()
    assert {name: models for name, (_, models) in rows.items()} == \
        {name: models for name, models in offered.items() if models}
    for name, (paper, _) in rows.items():
        assert paper.startswith(samplers.label(name)), (name, paper)


@pytest.mark.parametrize("args", [("--help",), ("warm", "--help")])
def test_warm_help_says_what_it_does_and_only_what_make_run_does(args):
    """``warm --help`` once showed no description, and the command list claimed that make run
    warms the kernels first: its recipe only starts the server."""
    said = " ".join(engine(*args).stdout.split())
    recipe = re.search(r"^run:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M).group(1)
    assert "compile (or load) every model's kernels" in said
    if "make run" in said:
        assert "engine warm" in recipe, said
