"""The command line never loses what a user gave: an output naming any input (or another
output) of any command is refused before any work, whichever way the path is spelt. The walks
below go over every command of ``build_parser`` (and every model's options), so a flag added
later is covered without a change here."""
import argparse
import os
import re

import pytest

from engine.cli import build_parser
from engine.cli.args import bounds_text, check_outputs, number_text
from engine.models import registry
from tests.command import ROOT, engine

# what a plain string argument's help, metavar or dest says when it names a file or folder
NAMES_A_FILE = re.compile(r"\b(files?|folders?|corpus|treebank|alignments|analysis)\b|FILE|"
                          r"TREES|PAIRS|ALIGN|\.csv\b", re.IGNORECASE)


def leaves(parser, name="python -m engine"):
    """(command name, parser) of every command and sub-command that takes arguments."""
    choices = [action for action in parser._actions
               if isinstance(action, argparse._SubParsersAction)]
    if not choices:
        yield name, parser
    for action in choices:
        for sub, subparser in action.choices.items():
            yield from leaves(subparser, f"{name} {sub}")


def every_command():
    """Every command's parser, without a model and with each model's options."""
    for model in (None, *registry.models().values()):
        yield from leaves(build_parser(model))


def declared(parser, kind):
    return parser.get_default(kind) or ()


def namespace(parser):
    """The command's arguments at their defaults, as parse_args would give them."""
    values = {action.dest: action.default for action in parser._actions
              if action.dest != argparse.SUPPRESS}
    return argparse.Namespace(**values, inputs=declared(parser, "inputs"),
                              outputs=declared(parser, "outputs"))


def given(parser, argument, path):
    """``path`` as ``argument`` holds it: a list for a list of files."""
    action = next(a for a in parser._actions if a.dest == argument.dest)
    return [path] if action.nargs in ("+", "*") else path


def pairs():
    """(command, output, other) for every output and every other input or output of every
    command; a file output on a folder input is no clash (it cannot be written there)."""
    for name, parser in every_command():
        outputs = declared(parser, "outputs")
        for output in outputs:
            for other in declared(parser, "inputs") + outputs:
                if other is not output and not other.folder:
                    yield name, parser, output, other


def test_the_walk_finds_inputs_and_outputs():
    found = list(pairs())
    flags = {(name.split()[-1], output.flag, other.flag) for name, _, output, other in found}
    assert {("parse", "--output", "--train"), ("parse", "--output", "--test"),
            ("run", "--trace", "--data"), ("run", "--rules", "--alignments"),
            ("race", "--out", "--data"), ("run", "--output", "--trace")} <= flags, flags


def spelt(path, spelling):
    """Another name of the existing file ``path``: itself, through ./, or a symbolic link."""
    if spelling == "dot":
        return path.parent / "." / path.name
    if spelling == "symlink":
        link = path.parent / f"link-{path.name}"
        if not link.exists():
            link.symlink_to(path)
        return link
    return path


@pytest.mark.parametrize("spelling", ["same", "dot", "symlink"])
def test_every_output_on_any_input_or_output_is_refused(tmp_path, capsys, spelling):
    kept = b"(S (NP kept) (VP bytes))\n"
    for name, parser, output, other in pairs():
        # a folder output clashes with an input that is one of the files it writes
        target = tmp_path / (output.writes[0] if output.folder else "file.txt")
        target.write_bytes(kept)
        args = namespace(parser)
        setattr(args, other.dest, given(parser, other, str(spelt(target, spelling))))
        setattr(args, output.dest, str(tmp_path if output.folder else target))
        with pytest.raises(SystemExit) as stop:
            check_outputs(parser, args)
        said = capsys.readouterr().err
        assert stop.value.code == 2, (name, output.flag, other.flag)
        assert said.count("\n") == 1 and output.flag in said and other.flag in said, said
        assert target.read_bytes() == kept


def test_every_argument_naming_a_file_is_declared():
    """A file argument added with plain add_argument would escape check_outputs."""
    chosen = {option.name for model in registry.models().values()  # a model's choice of names
              for option in model.options + model.init_options if option.choices}
    undeclared = set()
    for name, parser in every_command():
        dests = {d.dest for d in declared(parser, "inputs") + declared(parser, "outputs")}
        for action in parser._actions:
            text = f"{action.dest} {action.metavar or ''} {action.help or ''}"
            if (action.type in (None, str) and action.choices is None and action.nargs != 0
                    and action.dest not in dests | chosen and NAMES_A_FILE.search(text)):
                undeclared.add((name, action.option_strings[-1] if action.option_strings
                                else action.dest))
    assert not undeclared, f"declare these with add_input or add_output: {sorted(undeclared)}"


@pytest.mark.parametrize("clash", ["--train", "--test"])
def test_parse_refuses_to_overwrite_its_treebank(tmp_path, clash):
    trees = tmp_path / "trees.txt"
    trees.write_text("(S (NP a) (VP b))\n")
    other = tmp_path / "other.txt"
    other.write_text("(S (NP c) (VP d))\n")
    files = {"--train": other, "--test": other, clash: trees}
    done = engine("parse", "--train", files["--train"], "--test", files["--test"],
                  "--grammar", "pcfg", "--output", f"{tmp_path}/./trees.txt")
    assert done.returncode == 2 and f"{clash} and --output both name" in done.stderr, done
    assert trees.read_text() == "(S (NP a) (VP b))\n"


def test_race_refuses_a_corpus_it_would_overwrite_in_its_folder(tmp_path):
    corpus = tmp_path / "traces.csv"
    corpus.write_text("a b\n")
    done = engine("race", "--model", "usm", "--data", corpus, "--samplers", "token",
                  "--sweeps", 2, "--workers", 1, "--out", tmp_path)
    assert done.returncode == 2 and "would overwrite the corpus" in done.stderr, done.stderr
    assert corpus.read_text() == "a b\n" and os.listdir(tmp_path) == ["traces.csv"]


HUGE = "99999999999999999999999"  # the issue's: it ran a chain forever


def numeric_actions():
    """(command, flag, action) of every argument of every command that parses a number."""
    for name, parser in every_command():
        for action in parser._actions:
            if action.type is not None and action.option_strings:
                yield name, action.option_strings[-1], action


def parses_a_number(parse):
    """Whether an argparse type turns "1" into a number (or a list of numbers)."""
    try:
        value = parse("1")
    except (argparse.ArgumentTypeError, ValueError):
        return False
    return all(isinstance(v, (int, float)) for v in (value if isinstance(value, list) else [value]))


def test_every_number_of_every_command_has_an_upper_bound():
    unbounded = {(name, flag) for name, flag, action in numeric_actions()
                 if parses_a_number(action.type) and not hasattr(action.type, "bounds")}
    assert not unbounded, f"give these a range (int_in, float_in): {sorted(unbounded)}"


def test_every_bounded_number_refuses_a_huge_value_naming_its_bound():
    for name, flag, action in numeric_actions():
        if hasattr(action.type, "bounds"):
            with pytest.raises(argparse.ArgumentTypeError) as refused:
                action.type(HUGE)
            high = number_text(action.type.bounds[1])
            assert high in str(refused.value), (name, flag, str(refused.value))


def test_every_bound_is_in_the_help_and_the_guide():
    guide = (ROOT / "docs" / "command-line.md").read_text(encoding="utf-8")
    for name, parser in leaves(build_parser()):
        shown = parser.format_help()
        for action in parser._actions:
            if hasattr(action.type, "bounds"):
                bounds = bounds_text(*action.type.bounds)
                assert f"[{bounds}]" in " ".join(shown.split()), (name, action.dest)
                row = f"| `{name.removeprefix('python -m engine ')}` | " \
                      f"`{action.option_strings[0]}` | {bounds} |"
                assert row in guide, row
    for model in registry.models().values():
        for option in model.options + model.init_options + model.particle_options:
            if option.kind in (int, float):
                row = f"| `{model.name}` | `{option.flag}` | {bounds_text(*option.range)} |"
                assert row in guide, row


@pytest.mark.parametrize("flag", ["--sweeps", "--seed"])
def test_run_refuses_the_issues_huge_numbers(tmp_path, flag):
    values = {"--sweeps": 1, "--seed": 0, flag: HUGE}
    done = engine("run", "--model", "usm", "--sampler", "type", "--sweeps", values["--sweeps"],
                  "--seed", values["--seed"], "--trace", tmp_path / "t.csv")
    assert done.returncode == 2 and "must be between 0 and" in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and not (tmp_path / "t.csv").exists()
