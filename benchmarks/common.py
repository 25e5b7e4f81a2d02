"""Timing helpers and the results table."""
import multiprocessing
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np

from engine.core.jit import kernel
from engine.core.rng import make_rng
from engine.run import warm
from engine.samplers import make_sampler


@dataclass
class Row:
    """One measured figure against its target: at most ``target`` (or at least, with
    ``higher``), or inside ``band`` = (low, high) when one is given."""

    name: str
    measured: float
    target: float
    unit: str
    note: str = ""
    higher: bool = False
    band: tuple = None

    @property
    def reached(self):
        if self.target is None:  # measured to be reported (its ratio has the target)
            return True
        if self.band:
            return self.band[0] <= self.measured <= self.band[1]
        return self.measured >= self.target if self.higher else self.measured <= self.target

    def cells(self):
        if self.target is None:
            goal = "(reported)"
        elif self.band:
            goal = f"{self.band[0]:g} … {self.band[1]:g} {self.unit}"
        else:
            goal = f"{'≥' if self.higher else '≤'} {self.target:g} {self.unit}"
        measured = (f"{self.measured:,.0f}" if abs(self.measured) >= 1e4
                    else f"{self.measured:,.3g}")
        return [self.name, f"{measured} {self.unit}".strip(), goal.strip(),
                "yes" if self.reached else "**no**", self.note]


def ratio_row(slow, fast, target, where):
    """TYPE / TOKEN (or any two sweep-time rows) as a row of its own: machines differ in
    absolute speed, so the ratio is what to compare across them."""
    return Row(f"{slow.name.split(' ')[0]} / {fast.name.split(' ')[0]} sweep time, {where}",
               slow.measured / fast.measured, target, "×",
               f"{slow.measured:.3g} ms / {fast.measured:.3g} ms")


@kernel
def follow_cycle(following, steps):
    """Follow ``steps`` links of the cycle ``following`` from 0; return where it ends.

    Parameters
    ----------
    following : int64[n]   a permutation with one cycle
    steps : int

    Returns
    -------
    int64
    """
    i = 0
    for _ in range(steps):
        i = following[i]
    return i


def memory_latency_ns(size=1 << 19, steps=1 << 21):
    """Nanoseconds of a dependent load at a random place in 4 MB (a chase around one random
    cycle of ``size`` int64): about the memory a TYPE sweep of br-phono gathers its blocks'
    sites from, which fits the processor's last-level cache (here ~15 ns a load, and ~120 ns
    beyond 16 MB) until other programs on the host crowd it out. Measured beside TYPE / TOKEN,
    since TYPE pays it per line and TOKEN, reading in order, hardly at all."""
    order = np.random.default_rng(0).permutation(size)
    following = np.empty(size, np.int64)
    following[order] = np.roll(order, -1)
    return 1e9 * median_seconds(lambda: follow_cycle(following, steps), repeats=5, warmup=1) / steps


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


def interleaved_medians(fns, repeats, warmup=2):
    """Median wall time of each of ``fns`` over ``repeats`` rounds that call them in turn, after
    ``warmup`` untimed rounds. On a machine whose speed drifts (measured here: the same sweep
    25 ms in one process, 33 in the next), calls side by side feel the same drift, so their
    ratio holds where two separate medians would not."""
    for _ in range(warmup):
        for fn in fns:
            fn()
    times = [[] for _ in fns]
    for _ in range(repeats):
        for fn, spent in zip(fns, times):
            t0 = time.perf_counter()
            fn()
            spent.append(time.perf_counter() - t0)
    return [statistics.median(spent) for spent in times]


def markdown_table(rows):
    header = ["figure", "measured", "target", "reached", "how"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    # a literal | (as in p(m | x)) would split a Markdown cell
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row.cells()) + " |" for row in rows]
    return "\n".join(lines)


def chase(model, name, checkpoints, measure, seed, eta):
    """One chain of ``name`` from the η start of ``seed``, swept until each checkpoint of engine
    seconds (sweep time only: scoring in between is not counted); returns
    {checkpoint: (log-prob, the measure or None, sweeps)}."""
    warm(model, name)  # kernels loaded (or compiled) first: never counted as engine time
    rng = make_rng(seed)
    state = model.new_state(rng, eta=eta)
    sampler = make_sampler(name)
    engine, sweeps, at = 0.0, 0, {}
    for checkpoint in checkpoints:
        while engine < checkpoint:
            t0 = time.perf_counter()
            sampler.sweep(rng, state)
            engine += time.perf_counter() - t0
            sweeps += 1
        value = model.measures(state)[measure] if measure else None
        at[checkpoint] = (model.loglik(state), value, sweeps)
    return at


def equal_time_race(model, checkpoints, measure=None, seed=7, eta=1.0):
    """TOKEN and TYPE from the same initial state (same seed and η), each given the same engine
    time; returns {name: {checkpoint: (log-prob, the measure or None, sweeps)}}.

    The two chains run side by side, one process (and core) each, so a long race takes the
    wall time of one chain.
    """
    names = ("token", "type")
    with ProcessPoolExecutor(len(names), mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = {name: pool.submit(chase, model, name, checkpoints, measure, seed, eta)
                   for name in names}
        return {name: future.result() for name, future in futures.items()}
