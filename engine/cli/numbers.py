"""Exact numbers without a sampler: ``toy-posterior`` (the toy's exact posterior over m,
Liang et al. eq. 2) and ``tables`` (a Chinese restaurant's expected tables per word, Blunsom
et al. 2009 §3)."""
import csv
import sys
from pathlib import Path

from datasets.errors import CorpusError
from datasets.text import decode, read_bytes
from engine.cli.args import FULL_PRECISION, add_input, add_output, int_in, positive_number
from engine.models.toy.model import MAX_N, ToyModel

MAX_COUNT = 10**9  # the exact sum takes a step per customer: a billion takes a few seconds


def add_toy_posterior_parser(new_parser, model):
    """The ``toy-posterior`` subcommand (``model`` is unused)."""
    parser = new_parser()
    parser.add_argument("--n", type=int_in(1, MAX_N), required=True, help="copies of `ab`")
    add_output(parser, "--out", required=True, help="CSV file to write (columns m,log_p)")


def toy_posterior(args):
    """The toy-posterior command: m and log p(m | x) for m = 0 … n, as CSV."""
    import numpy as np
    import pandas as pd
    log_p = ToyModel(args.n).log_posterior()
    frame = pd.DataFrame({"m": np.arange(args.n + 1), "log_p": log_p})
    frame.to_csv(args.out, index=False, float_format=FULL_PRECISION)


def add_tables_parser(new_parser, model):
    """The ``tables`` subcommand (``model`` is unused)."""
    parser = new_parser()
    parser.add_argument("--alpha", type=positive_number, required=True,
                        help="α, the DP concentration (> 0); each word's a = α/V")
    add_input(parser, "--counts", required=True,
                        help="a file of `word count` lines; its V distinct words are the base")


def read_counts(path):
    """The words and counts of a `word count` file, in order (blank lines skipped); a
    CorpusError saying what is wrong, on which line, and what to do."""
    data = read_bytes(Path(path))  # its errors name the path
    words, lines = [], {}
    try:
        for number, line in enumerate(decode(data).splitlines(), start=1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) != 2:
                raise CorpusError(f"expected a word and its count, got {len(fields)} field(s) "
                                  f"{line.strip()!r}: give one `word count` per line", number)
            word, count = fields
            if not (count.isascii() and count.isdigit() and len(count.lstrip("0")) <= 10
                    and 1 <= int(count) <= MAX_COUNT):
                raise CorpusError(f"the count of {word!r} is {count!r}: give a whole number "
                                  f"from 1 to {MAX_COUNT:,}", number)
            if word in lines:
                raise CorpusError(f"{word!r} is also on line {lines[word]}: give each word once, "
                                  "with its total count", number)
            lines[word] = number
            words.append((word, int(count)))
        if not words:
            raise CorpusError("no `word count` lines: give one word and its count per line")
    except CorpusError as err:
        raise CorpusError(f"{path}: {err}") from None
    return words


def tables(args):
    """The tables command: each word's expected table count, under a uniform base over the
    file's V words (a = α/V), as CSV on stdout."""
    import numpy as np
    from engine.core import table_expectations as te
    words = read_counts(args.counts)
    counts = np.array([count for _, count in words])
    a = args.alpha / len(words)
    columns = (te.expected_tables_exact(a, counts), te.expected_tables_digamma(a, counts),
               te.expected_tables_antoniak(a, counts),
               te.expected_tables_flawed(args.alpha, counts))
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["word", "count", "exact", "digamma", "antoniak", "flawed"])
    for (word, count), *values in zip(words, *columns):
        out.writerow([word, count, *(repr(float(v)) for v in values)])  # repr: round-trips
