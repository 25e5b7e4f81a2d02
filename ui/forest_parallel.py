"""The forests lesson's parallel section: Peng & Gildea's parallel inexact sampler (§4.2,
engine.samplers.parallel) with k workers for each k asked, run in the background on Dask (a
process of its own: engine.live.grid_job), drawn as their Fig. 5 — log p(rules) over
iterations for each k, and the time per iteration against k with the speed-up over one
worker."""
import hashlib
import pickle

import altair as alt
import pandas as pd
import streamlit as st

from engine.report.plots import style
from engine.grid import BuiltModel, server_scheduler
from engine.live.grid_job import GridJob
from engine.models.scfg.model import NO_PARALLEL_EXACT
from engine.samplers.parallel import ParallelTask
from ui.charts import show
from ui.cluster import show_where_grids_run
from ui.grid_progress import GridShelf
from ui.settings import Setting
from ui.theme import label

EVERY_PAIR = "every pair"
WORKERS = ("1", "2", "4", "8", EVERY_PAIR)
SETTINGS = (
    Setting("workers", ("1", "2"), tuple, "the numbers of workers", choices=WORKERS),
    Setting("iterations", 30, int, "the parallel chains' iterations", 1, 500),
    Setting("parallel_sampler", "type", str, "the parallel chains' sampler",
            choices=("type", "token"), words=label),
)
SHELF = GridShelf("fo_parallel", noun="runs")


def worker_counts(picked, pairs):
    """The numbers of workers picked, ``every pair`` as the corpus's pairs, at most that many,
    smallest first, without repeats."""
    counts = {pairs if p == EVERY_PAIR else min(int(p), pairs) for p in picked}
    return sorted(counts)


def section(corpus, config, make_model):
    """The controls, the Run and Cancel buttons, and the chains' Fig. 5 as they finish."""
    st.markdown(
        "#### Parallel on k workers (§4.2, Fig. 5)\n"
        "The paper splits the pairs over k processors: each sweeps its share with the counts "
        "as they were at the start of the iteration plus its own changes, and TYPE's blocks "
        "only from its own pairs; after every iteration the changes are merged. It is **not "
        "an exact sampler** (each share draws given the others' analyses of the last "
        "iteration), and with too many workers each share holds about one site of a type, so "
        "TYPE moves like TOKEN. One worker is the serial chain, draw for draw.")
    cols = st.columns(3)
    cols[0].multiselect("Workers k", WORKERS, key="fo_workers")
    cols[1].number_input("Iterations", 1, 500, key="fo_iterations")
    cols[2].selectbox("Sampler", ("type", "token"), format_func=label,
                      key="fo_parallel_sampler")
    show_where_grids_run()
    s = st.session_state
    ready = corpus is not None and bool(s.fo_workers)
    if dict(config["hyperparameters"]).get("exact_seating"):
        st.info(f"The parallel chains cannot run with these settings: {NO_PARALLEL_EXACT}.")
        ready = False
    counts = worker_counts(s.fo_workers, len(corpus)) if ready else []
    settings = None if not ready else (
        hashlib.sha256(pickle.dumps(corpus)).hexdigest(), config["hyperparameters"],
        s.fo_parallel_sampler, tuple(counts), int(s.fo_iterations), config["seed"],
        config["eta"], config["skip"])
    row = st.container(horizontal=True)
    if SHELF.run_button(row, "Run the parallel chains", settings, ready=ready,
                        icon=":material/call_split:"):
        task = ParallelTask(s.fo_parallel_sampler, tuple(counts), int(s.fo_iterations),
                            config["seed"], init=(("eta", config["eta"]),), skip=config["skip"],
                            scheduler=server_scheduler())
        words = (f"{label(s.fo_parallel_sampler)}, k = {', '.join(map(str, counts))}, "
                 f"{int(s.fo_iterations)} iterations; {corpus.name}, seed {config['seed']}")
        # one grid worker: the task starts the cluster its chains' workers run on
        SHELF.add(settings, words, GridJob(BuiltModel(make_model(corpus, config)), [task],
                                           workers=1, rows=True))
        st.rerun()
    SHELF.cancel_button(row)
    SHELF.show(settings, draw)


def draw(grid, slot):
    """The chains finished so far: log p over iterations for each k, the time per iteration
    against k, and their table."""
    rows = grid.job.rows()
    if rows is None:
        return
    left, right = st.columns(2)
    show(left, loglik_chart(rows), f"fo_parallel_loglik_{slot}")
    table = fig5_table(rows)
    show(right, time_chart(table), f"fo_parallel_time_{slot}")
    st.dataframe(table, hide_index=True, key=f"fo_parallel_table_{slot}",
                 column_config={"log p at the end": st.column_config.NumberColumn(
                     format="%.1f")})
    st.caption("Times are wall-clock seconds of each iteration as the coordinating process "
               "sees it (the workers' sweeps, then the merge and the messages between them). "
               "On a small corpus a sweep takes milliseconds and the messages cost more than "
               "they save; `python -m benchmarks forests` measures KFTT's 582 pairs, where "
               "two workers halve the time of TYPE without skip.")


def fig5_table(rows):
    """Per k: the mean time per iteration, the slowest worker's sweep and the share of it its
    thread ran, the speed-up over one worker (when it ran), log p at the last iteration."""
    iterations = rows[rows.iteration > 0]
    table = iterations.groupby("workers").agg(
        seconds=("seconds", "mean"), sweep=("sweep_seconds", "mean"),
        share=("sweep_cpu_share", "mean")).reset_index()
    table["end"] = rows.groupby("workers").loglik.last().to_numpy()
    one = table.seconds[table.workers == 1]
    table["speed-up"] = one.iloc[0] / table.seconds if len(one) else float("nan")
    return pd.DataFrame({
        "k": table.workers, "time per iteration (ms)": (table.seconds * 1e3).round(2),
        "slowest sweep (ms)": (table.sweep * 1e3).round(2),
        "its CPU share": table.share.round(2), "speed-up over k = 1": table["speed-up"].round(2),
        "log p at the end": table.end})


def loglik_chart(rows):
    data = rows.assign(k=rows.workers.map(lambda k: f"k = {k}"))
    chart = alt.Chart(data).mark_line(point=True).encode(
        x=alt.X("iteration:Q", title="iterations"),
        y=alt.Y("loglik:Q", title="log p(rules)", scale=alt.Scale(zero=False)),
        color=alt.Color("k:N", title=None, sort=alt.SortField("workers")),
        tooltip=["k:N", "iteration:Q", alt.Tooltip("loglik:Q", format=",.1f")])
    return style(chart, ["Log p(rules) over iterations, each k", "(Fig. 5)"], 260)


def time_chart(table):
    chart = alt.Chart(table).mark_bar().encode(
        x=alt.X("k:O", title="workers k"),
        y=alt.Y("time per iteration (ms):Q", title="time per iteration (ms)"),
        tooltip=["k:O", "time per iteration (ms):Q", "speed-up over k = 1:Q",
                 "its CPU share:Q"])
    return style(chart, ["Time per iteration against k", "(wall clock)"], 260)
