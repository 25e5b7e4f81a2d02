"""Timing helpers and the results table."""
import statistics
import time
from dataclasses import dataclass


@dataclass
class Row:
    """One measured figure against its target (lower is better unless ``higher`` is set)."""

    name: str
    measured: float
    target: float
    unit: str
    note: str = ""
    higher: bool = False

    @property
    def reached(self):
        return self.measured >= self.target if self.higher else self.measured <= self.target

    def cells(self):
        bound = "≥" if self.higher else "≤"
        return [self.name, f"{self.measured:,.3g} {self.unit}", f"{bound} {self.target:g} {self.unit}",
                "yes" if self.reached else "**no**", self.note]


def median_seconds(fn, repeats, warmup=2):
    """Median wall time of fn() over ``repeats`` calls, after ``warmup`` untimed calls."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def markdown_table(rows):
    header = ["figure", "measured", "target", "reached", "how"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    # a literal | (as in p(m | x)) would split a Markdown cell
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row.cells()) + " |" for row in rows]
    return "\n".join(lines)
