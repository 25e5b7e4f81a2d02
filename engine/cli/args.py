"""What every command's arguments share: argument types that reject bad input with a message
saying what to give, the one-line error parser, output paths checked before any work, and the
choice of cluster for a grid."""
import argparse
import fnmatch
import os
from dataclasses import dataclass

from engine.models.protocol import in_range, number_text, range_text

FULL_PRECISION = "%.17g"  # exact quantities round-trip through a CSV


MAX_SEED = 2**32 - 1  # as the pages' seeds: a chain the command line runs, a page can rerun
# A sweep costs 2.5 ms on br-phono (86,019 sites) to about a second on the largest corpora,
# and each adds a trace row: a million is 45 minutes of the fastest chain and a trace of
# about 100 MB; a longer run is a mistyped number (issue 46: 99999999999999999999999 ran on).
MAX_SWEEPS = 10**6
MAX_SECONDS = 24 * 3600  # engine time per chain: a day; a longer one is better resumed
MAX_WORKERS = 1024  # processes (or shards) on one cluster: far more than a machine's cores
MAX_LARGE = 10**9  # a concentration or other positive real: as the models' own α


def bounded(parse, low, high, low_open=False, high_open=False):
    """``parse`` (an argparse type) marked with its range (each end excluded when open): the
    help shows it (Help) and the tests find every bounded flag by it."""
    parse.bounds = (low, high, low_open, high_open)
    return parse


def int_in(low, high):
    """An argparse type: an integer in [low, high]."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {range_text(low, high)}, got {value:,}")
        return value
    return bounded(parse, low, high)


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
    return bounded(parse, low, high, low_open, high_open)


def positive_number(text):
    """An argparse type: a finite number > 0, at most MAX_LARGE."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not 0 < value <= MAX_LARGE:
        raise argparse.ArgumentTypeError(
            f"must be a finite number above 0 and at most {MAX_LARGE:,}, got {text}")
    return value


bounded(positive_number, 0, MAX_LARGE)
SEED = int_in(0, MAX_SEED)


class Help(argparse.RawDescriptionHelpFormatter):
    """Keeps the epilog's line breaks (the list of models), and ends each bounded flag's help
    with its range, so --help shows every limit."""

    def _get_help_string(self, action):
        text = super()._get_help_string(action) or ""
        bounds = getattr(action.type, "bounds", None)
        return text if bounds is None else f"{text} [{bounds_text(*bounds)}]"


def bounds_text(low, high, low_open=False, high_open=False):
    """A range as the help and the docs show it: ``0 to 4,294,967,295``, ``1e-09 to 1``; with
    an open end, in words (``above 0 and below 1``)."""
    if low_open or high_open:
        return range_text(low, high, low_open, high_open)
    return f"{number_text(low)} to {number_text(high)}"


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit status 2, and whose help
    shows each flag's range (Help)."""

    def __init__(self, *args, formatter_class=Help, **settings):
        super().__init__(*args, formatter_class=formatter_class, **settings)

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def option_type(option):
    """The argparse type of a model's Option (engine.models.protocol): its range or choices."""
    if option.kind is int:
        return int_in(int(option.low), int(option.high))
    if option.kind is float:
        return float_in(*option.range)
    return str


def add_input(parser, *flags, what=None, folder=False, **settings):
    """Add an argument naming files the command reads (a list with ``nargs``; with ``folder``,
    a folder of them). The parser's ``inputs`` default lists them, as ``outputs`` lists the
    outputs, so ``check_outputs`` refuses an output on any input of any command. ``what``
    names the input in that refusal (default: the file of its flag)."""
    action = parser.add_argument(*flags, **settings)
    flag = flag_of(action)
    declared = Declared(action.dest, flag, what or f"the {flag} file", folder)
    parser.set_defaults(inputs=(parser.get_default("inputs") or ()) + (declared,))
    return action


def add_output(parser, *flags, folder=False, writes=(), **settings):
    """Add an argument naming an output (a file; with ``folder``, a folder made if missing,
    into which the command writes the files named by the patterns ``writes``). The parser's
    ``outputs`` default lists them, so ``check_outputs`` finds every command's outputs and
    refuses a bad one before the command does any work."""
    action = parser.add_argument(*flags, **settings)
    flag = flag_of(action)
    declared = Declared(action.dest, flag, flag, folder, tuple(writes))
    parser.set_defaults(outputs=(parser.get_default("outputs") or ()) + (declared,))
    return action


@dataclass(frozen=True)
class Declared:
    """An input or output argument: its ``dest``, its flag (a positional's metavar), what a
    refusal calls it, whether it names a folder, and (a folder output) the file name patterns
    written into it."""

    dest: str
    flag: str
    what: str
    folder: bool = False
    writes: tuple = ()

    def paths(self, args):
        """The paths given for it in ``args`` (none, one, or a list's)."""
        value = getattr(args, self.dest, None)
        if not value:
            return []
        return [str(path) for path in (value if isinstance(value, (list, tuple)) else [value])]


def flag_of(action):
    """How a user names an argument: its long flag, or a positional's metavar."""
    return action.option_strings[-1] if action.option_strings else (action.metavar or action.dest)


def file_key(path):
    """What is the same for every spelling of one file: its device and inode when it exists
    (symbolic and hard links, ./ and ../), else its real path."""
    try:
        found = os.stat(path)
    except OSError:
        return os.path.realpath(path)
    return (found.st_dev, found.st_ino)


def check_outputs(parser, args):
    """Fail with one line (status 2) when an output of the command cannot be written, before
    any work: a file whose folder does not exist or that is a folder, a folder that is a file,
    a place this user may not write to, or an output on a file the command reads or writes
    for another flag (inputs declared with ``add_input``), which it would overwrite."""
    given = {}  # file_key → (flag, what it is)
    for declared in getattr(args, "inputs", ()):
        for path in declared.paths(args):
            given.setdefault(file_key(path), (declared.flag, declared.what))
    for declared in args.outputs:
        for path in declared.paths(args):
            problem = folder_problem(path) if declared.folder else file_problem(path)
            if problem:
                parser.error(f"cannot write {path}: {problem}")
            for written in written_files(declared, path, given):
                earlier, what = given.setdefault(file_key(written), (declared.flag, declared.flag))
                if earlier != declared.flag:
                    parser.error(f"{earlier} and {declared.flag} both name {written}: writing "
                                 f"{declared.flag} would overwrite {what}; give each its own "
                                 "file")


def written_files(declared, path, given):
    """The files an output writes: its own path, or (a folder) the files in it that match its
    patterns — of those already given, the ones it would replace."""
    if not declared.folder:
        return [path]
    folder = os.path.realpath(path)
    return [os.path.join(path, name) for name in sorted(os.listdir(folder))
            if any(fnmatch.fnmatch(name, pattern) for pattern in declared.writes)
            and file_key(os.path.join(path, name)) in given] if os.path.isdir(folder) else []


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
    where.add_argument("--workers", type=int_in(1, MAX_WORKERS), default=os.cpu_count() or 1,
                       help="worker processes of a local Dask cluster (default: the cores); "
                            f"1 runs every {tasks[:-1]} in this process")
    where.add_argument("--scheduler", help="address of a running Dask scheduler, e.g. "
                                           "tcp://10.0.0.5:8786, to run on its cluster (start "
                                           "it with `python -m engine cluster`)")
