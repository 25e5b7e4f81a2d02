"""python -m benchmarks: measure every figure and print the table; a complete run (every suite)
also writes it to docs/benchmark-run.md, whose figures docs/benchmarks.md (written by hand: what
each figure is, how to reproduce it, the latest value) then takes up."""
import platform
import sys
from datetime import date
from pathlib import Path

from benchmarks import (bigram, class_load, estimators, first_run, forests, hmm, particle, ptsg,
                        race, speed, toy, usm)
from benchmarks.common import markdown_table
from engine.cli.bench import cpu_model

SUITES = {"toy": toy, "usm": usm, "hmm": hmm, "bigram": bigram, "particle": particle,
          "estimators": estimators, "ptsg": ptsg, "forests": forests, "first-run": first_run,
          "class-load": class_load, "race": race, "speed": speed}
DOC = Path(__file__).resolve().parents[1] / "docs" / "benchmark-run.md"


def main(argv):
    names = [name.replace("_", "-") for name in argv] or list(SUITES)  # first_run = first-run
    unknown = [n for n in names if n not in SUITES]
    if unknown:
        print(f"unknown benchmark suite {unknown[0]!r}: choose from {', '.join(SUITES)}",
              file=sys.stderr)
        return 2
    rows, complete = [], True
    for name in names:
        print(f"measuring {name}…", file=sys.stderr, flush=True)
        measured = SUITES[name].rows()
        complete = complete and bool(measured)  # a suite without its corpus measures nothing
        rows += measured
    table = markdown_table(rows)
    sections = [text for name in names for text in getattr(SUITES[name], "sections", list)()]
    print(table)
    if not complete:
        print(f"not all suites could measure: {DOC.name} is left as it was", file=sys.stderr)
    if names == list(SUITES) and complete:
        DOC.parent.mkdir(exist_ok=True)
        DOC.write_text(f"# Benchmarks\n\nMeasured {date.today()} on {cpu_model()} "
                       f"({platform.machine()}), Python {platform.python_version()}, with "
                       "`python -m benchmarks`.\n\n"
                       f"{table}\n" + "".join(f"\n{text}\n" for text in sections))
    return 0 if all(row.reached for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
