"""What ``python -m engine race`` writes: the traces of every chain and the summary per sampler
and η, as CSV files in one folder."""
import os

from engine.grid import KEYS
from engine.report.plots import race_pngs
from engine.samplers import make_sampler

TRACES, SUMMARY = "traces.csv", "summary.csv"  # engine.cli.race's RACE_FILES lists them
RUN_COLUMNS = ("iteration", "seconds", "loglik", "temperature", "objective", "objective_kind")


def measure_columns(traces, sampler_names):
    """The model's measures among the trace's columns (not the run's own columns, nor a
    sampler's figures such as mean_block_size)."""
    figures = {key for name in sampler_names
               for key in make_sampler(name, total_sweeps=2).sweep_figures()}
    return [c for c in traces.columns if c not in (*KEYS, *RUN_COLUMNS) and c not in figures]


def write_race(folder, traces, table, plots=None):
    """traces.csv (long: sampler, chain, eta, iteration, seconds, loglik, measures…) and
    summary.csv in ``folder``, made if missing; with ``plots`` ({column: axis title}), their
    pictures as PNG files too (engine.report.plots.race_pngs)."""
    os.makedirs(folder, exist_ok=True)
    # pandas writes each float's shortest repr, which reads back exactly: η = 0.1 stays "0.1"
    traces.to_csv(os.path.join(folder, TRACES), index=False)
    write_summary(folder, traces, table, plots)


def write_summary(folder, traces, table, plots=None):
    """summary.csv in ``folder`` and, with ``plots``, the traces' pictures: what a race writes
    once its traces are written."""
    table.to_csv(os.path.join(folder, SUMMARY), index=False)
    if plots:
        race_pngs(folder, traces, plots)
