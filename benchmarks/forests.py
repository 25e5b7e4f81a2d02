"""Issue 27's figures: SCFG rules from forests on the 582 KFTT pairs with their hand alignments
(Peng & Gildea 2014).

The forests' construction time; TOKEN's and TYPE's sweep times and their ratio; TYPE against
TOKEN in log p(rules) at iterations 5 to 60 and at equal engine time, and TYPE-anneal's last
log p against TOKEN's (the paper's Fig. 4, α = 5, every node cut at the start); the parallel
inexact TYPE sampler with k workers on a local Dask cluster of two processes: time per
iteration, speed-up and log p after 60 iterations (the paper's Fig. 5); under the Pitman-Yor
prior the sweeps with the paper's approximate tables and with exact seating.
"""
import sys
import time

import numpy as np

from benchmarks.common import Row, equal_time_race, interleaved_medians, ratio_row
from datasets.aligned import read_files
from engine.core import hash_table
from engine.core.rng import make_rng
from engine.grid import local_cluster
from engine.models.scfg.forest import forest
from engine.models.scfg.kernels.layout import CLASS_SHIFT
from engine.models.scfg import pitman_yor as py
from engine.models.scfg.model import EXACT_MAX_NODES, ScfgModel
from engine.samplers.parallel import ParallelChain
from engine.run import Run
from engine.samplers import make_sampler
from tests.corpora import KFTT_GOLD, KFTT_PAIRS

ITERATIONS = 60    # Fig. 4's x axis
FROM = 5           # TYPE must lead from this iteration on
CHECKPOINTS = (5.0, 15.0)  # engine seconds at which the two are compared at equal time
WORKERS = (1, 2, 8)  # Fig. 5's k: 8 shards of ~73 pairs show "too many workers"
CLUSTER = 2          # local Dask worker processes (the machine's cores)


def construction(corpus):
    """Seconds to build every pair's forest (the best of three)."""
    best = np.inf
    for _ in range(3):
        t0 = time.perf_counter()
        for f, e, links in zip(corpus.source, corpus.target, corpus.links):
            forest(len(f), len(e), links)
        best = min(best, time.perf_counter() - t0)
    return Row("Forest construction, 582 KFTT pairs", best, 2.0, "s",
               "every pair's tight phrase pairs and minimal hyperedges, the best of 3")


def sweep_times(model):
    """Median sweep times of TOKEN and of TYPE with and without the skip approximation (the
    lab's default, and the exact move), each on its own chain from η = 1, their sweeps taken in
    turn."""
    sweeps = []
    for name, skip in (("token", True), ("type", True), ("type", False)):
        rng = make_rng(1)
        state, sampler = model.new_state(rng, eta=1.0), make_sampler(name, skip=skip)
        sweeps.append(lambda sampler=sampler, rng=rng, state=state: sampler.sweep(rng, state))
    token, type_, exact = interleaved_medians(sweeps, repeats=10, warmup=5)
    how = f"median of sweeps 6–15 from η = 1; {model.n_sites:,} sites"
    token = Row("TOKEN sweep, KFTT", token * 1e3, 50.0, "ms", how)
    type_ = Row("TYPE sweep, KFTT", type_ * 1e3, None, "ms",
                how + "; skipping pivots already in a block this sweep (the lab's default)")
    exact = Row("TYPE (no skip) sweep, KFTT", exact * 1e3, None, "ms",
                how + "; every node a pivot (the exact move)")
    return [token, type_, ratio_row(type_, token, 4.0, "KFTT"), exact,
            ratio_row(exact, token, None, "KFTT, TYPE without skipping")]


def iterations(model):
    """TOKEN, TYPE and TYPE-anneal (exact moves: no skip) for ``ITERATIONS`` iterations from
    one start: TYPE's smallest lead over TOKEN from iteration ``FROM`` on, and TYPE-anneal's
    end against TOKEN's."""
    traces = {}
    for name in ("token", "type", "type-anneal"):
        run = Run(model, name, seed=7, init={"eta": 1.0}, total_sweeps=ITERATIONS, skip=False)
        for _ in run.advance(ITERATIONS):
            pass
        traces[name] = run.trace_frame().loglik.to_numpy()
        print(f"  {name}: " + ", ".join(f"it {i} {traces[name][i]:,.0f}"
                                        for i in (5, 10, 20, 30, 60)), file=sys.stderr)
    lead = traces["type"][FROM:] - traces["token"][FROM:]
    at = ", ".join(f"{i}: {traces['type'][i] - traces['token'][i]:+,.0f}" for i in (5, 10, 30, 60))
    return [Row(f"TYPE − TOKEN log p(rules), iterations {FROM}–{ITERATIONS} (smallest)",
                lead.min(), 0.0, "", f"Fig. 4, same start (η = 1, seed 7); at iteration {at}",
                higher=True),
            Row("TYPE-anneal − TOKEN log p(rules) at iteration 60",
                traces["type-anneal"][-1] - traces["token"][-1], 0.0, "",
                f"Fig. 4: annealing ends at least as high as TOKEN; TYPE-anneal "
                f"{traces['type-anneal'][-1]:,.0f}, TYPE {traces['type'][-1]:,.0f}, TOKEN "
                f"{traces['token'][-1]:,.0f}", higher=True)]


def parallel_chain(model, client, k, skip):
    """The parallel TYPE chain with k workers for ITERATIONS iterations from seed 7, η = 1:
    (median and mean seconds per iteration, median slowest sweep, the share of it that
    worker's thread ran, log p at the end)."""
    with ParallelChain(model, "type", k, 7, client=client, init={"eta": 1.0},
                       skip=skip) as chain:
        for _ in range(ITERATIONS):
            chain.iterate()
        trace = chain.trace_frame().iloc[1:]
    return (trace.seconds.median(), trace.seconds.mean(), trace.sweep_seconds.median(),
            trace.sweep_cpu_share.median(), trace.loglik.iloc[-1])


def parallel(model):
    """Fig. 5: time per iteration and log p after 60 iterations with k = 1, 2 and 8 workers
    (Dask actors on a local cluster of two processes, k = 1 included, so the speed-up is over
    the same machinery; 8 shards run four to a process), TYPE with and without skipping."""
    found = []
    with local_cluster(CLUSTER) as client:
        for skip, label in ((False, "TYPE (no skip)"), (True, "TYPE")):
            reached = {k: parallel_chain(model, client, k, skip) for k in WORKERS}
            print(f"  parallel {label}: " + "; ".join(
                f"k = {k}: {r[0] * 1e3:.0f} ms/iteration (CPU share {r[3]:.2f}), log p "
                f"{r[4]:,.0f}" for k, r in reached.items()), file=sys.stderr)
            for k, (median, mean, sweep, share, loglik) in reached.items():
                found.append(Row(f"Parallel {label}, k = {k}: time per iteration", median * 1e3,
                                 None, "ms", f"median of {ITERATIONS} (mean {mean * 1e3:.0f} "
                                 f"ms; slowest worker's sweep {sweep * 1e3:.0f} ms, its thread "
                                 f"running {share:.0%} of it); log p after {ITERATIONS}: "
                                 f"{loglik:,.0f}"))
            one, two = reached[1], reached[2]
            found.append(Row(f"Parallel {label}: speed-up of k = 2 over k = 1", one[0] / two[0],
                             None, "×", f"{one[0] * 1e3:.0f} ms / {two[0] * 1e3:.0f} ms a "
                             f"iteration on {CLUSTER} cores"))
            for k in WORKERS[1:]:
                found.append(Row(f"Parallel {label}: log p after {ITERATIONS}, k = {k} − k = 1",
                                 reached[k][4] - one[4], None, "",
                                 f"k = 1: {one[4]:,.0f}; k = {k}: {reached[k][4]:,.0f}"))
    return found


def equal_time(model):
    """TYPE (skipping, the lab's default) − TOKEN at equal engine time (each chain its own
    process)."""
    reached = equal_time_race(model, CHECKPOINTS)
    gaps = [reached["type"][c][0] - reached["token"][c][0] for c in CHECKPOINTS]
    table = "; ".join(f"{c:g} s: TYPE {reached['type'][c][0]:,.0f} ({reached['type'][c][2]} "
                      f"iterations) vs TOKEN {reached['token'][c][0]:,.0f} "
                      f"({reached['token'][c][2]})" for c in CHECKPOINTS)
    return Row("TYPE − TOKEN log p(rules) at equal engine time (smallest gap)", min(gaps), 0.0,
               "", f"Fig. 4, η = 1; {table}", higher=True)


def pitman_yor(corpus):
    """Under the Pitman-Yor prior (d = 0.5, λ = 2, §5.1): the sweeps' times, and how far the
    paper's approximate predictive (T = N^d) is from the exact one after 10 TYPE iterations,
    over the 100 most used rules and 100 others."""
    model = ScfgModel(corpus, pitman_yor=True)
    token, typed = (Run(model, name, 1) for name in ("token", "type"))
    times = {run.sampler_name: [] for run in (token, typed)}
    for _ in range(10):
        for run in (token, typed):
            before = run.seconds  # engine time: the trace row's exact log p is not in it
            run.sweep()
            times[run.sampler_name].append(run.seconds - before)
    t_token, t_type = (float(np.median(times[name])) for name in ("token", "type"))
    t0 = time.perf_counter()
    model.loglik_running(typed.state)
    t_loglik = time.perf_counter() - t0
    errors = predictive_errors(model, typed.state)
    return [Row("Pitman-Yor TOKEN sweep", t_token * 1e3, None, "ms", "582 KFTT pairs, median of 10"),
            Row("Pitman-Yor TYPE sweep", t_type * 1e3, None, "ms",
                f"{t_type / t_token:.2f} × TOKEN, median of 10; the exact log p of a trace "
                f"row (tables summed out) {t_loglik * 1e3:.0f} ms"),
            Row("Approximate − exact log predictive, median |error|", float(np.median(errors)),
                None, "", f"max {errors.max():.3g} over {len(errors)} rules in use after 10 "
                "TYPE iterations (T = N^d against the tables summed out)")]


def exact_seating(corpus):
    """Exact seating against the paper's approximate tables (Pitman-Yor, d = 0.5) on the
    longest head of KFTT it is offered for: TOKEN's and TYPE's (no skip) sweep times, each pair
    on its own chain from η = 1, their sweeps taken in turn."""
    n = len(corpus)
    while ScfgModel(corpus.head(n)).n_nodes > EXACT_MAX_NODES:
        n = int(n * 0.9)
    head = corpus.head(n)
    sweeps = []
    for exact in (False, True):
        model = ScfgModel(head, pitman_yor=True, exact_seating=exact)
        for name in ("token", "type"):
            rng = make_rng(1)
            state, sampler = model.new_state(rng, eta=1.0), make_sampler(name, skip=False)
            sweeps.append(lambda sampler=sampler, rng=rng, state=state: sampler.sweep(rng, state))
    token, typed, exact_token, exact_type = interleaved_medians(sweeps, repeats=10, warmup=5)
    how = f"the first {n} KFTT pairs ({model.n_nodes:,} nodes), median of sweeps 6–15"
    return [Row("Pitman-Yor TOKEN sweep, exact seating", exact_token * 1e3, None, "ms",
                f"{how}; {exact_token / token:.2f} × the approximate TOKEN's "
                f"{token * 1e3:.2f} ms"),
            Row("Pitman-Yor TYPE (no skip) sweep, exact seating", exact_type * 1e3, None, "ms",
                f"{how}; {exact_type / typed:.2f} × the approximate TYPE's {typed * 1e3:.2f} ms"
                f"; {exact_type / exact_token:.2f} × exact TOKEN")]


def predictive_errors(model, state):
    """|log approximate − log exact| predictive of the 100 most used rules and 100 others."""
    live = np.flatnonzero(state.slot_key != hash_table.EMPTY)
    classes = state.slot_key[live] >> CLASS_SHIFT
    counts = state.slot_size[live].astype(np.int64)
    log_p0 = state.logp0[state.slot_head[live]]
    order = np.argsort(-counts, kind="stable")
    others = make_rng(0).choice(order[100:], size=min(100, len(order) - 100), replace=False)
    chosen = np.concatenate([order[:100], others])
    approximate, exact = py.predictive_errors(classes, counts, log_p0, model.alpha,
                                              model.discount, chosen)
    return np.abs(approximate - exact)


def rows():
    if not KFTT_PAIRS.exists():
        print(f"skipping the forest benchmarks: {KFTT_PAIRS} is missing", file=sys.stderr)
        return []
    corpus = read_files(KFTT_PAIRS, KFTT_GOLD)
    model = ScfgModel(corpus)
    return [construction(corpus), *sweep_times(model), *iterations(model), equal_time(model),
            *parallel(model), *pitman_yor(corpus), *exact_seating(corpus)]
