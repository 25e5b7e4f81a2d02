"""What every command's arguments share: argument types that reject bad input with a message
saying what to give, the one-line error parser, output paths checked before any work, and the
choice of cluster for a grid."""
import argparse
import math
import os

from engine.models.protocol import in_range, range_text

FULL_PRECISION = "%.17g"  # exact quantities round-trip through a CSV


def int_in(low, high=None):
    """An argparse type: an integer in [low, high] (no upper bound when high is None)."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < low or (high is not None and value > high):
            bounds = f"at least {low:,}" if high is None else f"between {low:,} and {high:,}"
            raise argparse.ArgumentTypeError(f"must be {bounds}, got {value:,}")
        return value
    return parse


def float_in(low, high, low_open=False, high_open=False):
    """An argparse type: a number from low to high, an end excluded when it is open."""
    def parse(text):
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        if not in_range(value, low, high, low_open, high_open):
            raise argparse.ArgumentTypeError(
                f"must be {range_text(low, high, low_open, high_open)}, got {value:g}")
        return value
    return parse


def positive_number(text):
    """An argparse type: a finite number > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a finite number above 0, got {text}")
    return value


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


class Help(argparse.RawDescriptionHelpFormatter):
    """Keeps the epilog's line breaks (the list of models)."""


def option_type(option):
    """The argparse type of a model's Option (engine.models.protocol): its range or choices."""
    if option.kind is int:
        return int_in(int(option.low), int(option.high))
    if option.kind is float:
        return float_in(*option.range)
    return str


def add_output(parser, *flags, folder=False, **settings):
    """Add an argument naming an output (a file; with ``folder``, a folder made if missing).
    The parser's ``outputs`` default lists them, so ``check_outputs`` finds every command's
    outputs and refuses a bad one before the command does any work."""
    action = parser.add_argument(*flags, **settings)
    output = (action.dest, folder, action.option_strings[0])
    parser.set_defaults(outputs=(parser.get_default("outputs") or ()) + (output,))
    return action


def check_outputs(parser, args):
    """Fail with one line (status 2) when an output of the command cannot be written, before
    any sampling: a file whose folder does not exist or that is a folder, a folder that is a
    file, a place this user may not write to, or an output on the path of another or of the
    corpus (--data), which it would overwrite."""
    data = getattr(args, "data", None)
    given = {os.path.realpath(data): "--data"} if data else {}  # real path → its flag
    for dest, folder, flag in args.outputs:
        path = getattr(args, dest)
        if path:
            problem = folder_problem(path) if folder else file_problem(path)
            if problem:
                parser.error(f"cannot write {path}: {problem}")
            earlier = given.setdefault(os.path.realpath(path), flag)
            if earlier != flag:
                parser.error(f"{earlier} and {flag} both name {path}: writing {flag} would "
                             f"overwrite {'the corpus' if earlier == '--data' else earlier}; "
                             "give each its own file")


def file_problem(path):
    """Why a file cannot be written at ``path`` (None: it can)."""
    if os.path.isdir(path):
        return "it is a folder; give a file name"
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        return "its folder does not exist"
    if not os.access(path if os.path.exists(path) else parent, os.W_OK):
        return "permission denied"
    return None


def folder_problem(path):
    """Why a folder cannot be written (or made, with its parents) at ``path`` (None: it can).
    An existing folder is written into, whatever it holds."""
    if os.path.exists(path) and not os.path.isdir(path):
        return "it is a file; give a folder (made if missing)"
    existing = os.path.abspath(path)
    while not os.path.exists(existing):
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing):
        return f"{existing} is a file, so the folder cannot be made"
    if not os.access(existing, os.W_OK):
        return "permission denied"
    return None


def name_list(choices):
    """An argparse type: comma-separated names, each one of ``choices``, no repeats."""
    def parse(text):
        names = [name.strip() for name in text.split(",") if name.strip()]
        unknown = [name for name in names if name not in choices]
        if unknown or not names:
            raise argparse.ArgumentTypeError(
                f"unknown {', '.join(map(repr, unknown))}: choose from {', '.join(choices)}"
                if unknown else "give at least one name")
        if len(set(names)) < len(names):
            raise argparse.ArgumentTypeError(f"a name is repeated in {text!r}")
        return names
    return parse


def eta_range(text):
    """An argparse type: START:STOP:STEP, η from START to STOP (included) in STEPs, in [0, 1]."""
    try:
        start, stop, step = (float(part) for part in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected START:STOP:STEP, e.g. 0:1:0.1, got {text!r}")
    if not (0 <= start <= stop <= 1 and step > 0):
        raise argparse.ArgumentTypeError(f"need 0 ≤ START ≤ STOP ≤ 1 and STEP > 0, got {text!r}")
    count = int(round((stop - start) / step)) + 1
    return [round(start + k * step, 10) for k in range(count) if start + k * step <= stop + 1e-9]


def add_cluster_arguments(parser, tasks):
    """--workers W | --scheduler ADDRESS: where a grid of ``tasks`` (e.g. "chains") runs."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int_in(1, 1024), default=os.cpu_count() or 1,
                       help="worker processes of a local Dask cluster (default: the cores); "
                            f"1 runs every {tasks[:-1]} in this process")
    where.add_argument("--scheduler", help="address of a running Dask scheduler, e.g. "
                                           "tcp://10.0.0.5:8786, to run on its cluster (start "
                                           "it with `python -m engine cluster`)")
