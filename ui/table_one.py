"""Börschinger & Johnson's Table 1 on the Particle filter lesson's corpus: N particles ×
threshold N, N/2 and the DPM learner, several runs each, a grid on Dask in the background
(engine.experiments.table1), shown beside their numbers."""
import hashlib
import pickle

import numpy as np
import pandas as pd
import streamlit as st

from engine.experiments import table1
from engine.grid import BuiltModel
from ui.cluster import show_where_grids_run, start_grid
from ui.models import build_model


def table_one(config, key, shelf):
    """The grid's widgets and its table; ``config`` the filter's (None without a corpus),
    ``key(name)`` the page's session keys, ``shelf`` its grids (ui.grid_progress.GridShelf)."""
    st.markdown("Their Table 1 on this page's corpus: N particles × threshold N, N/2, and the "
                "DPM learner, several runs each, on Dask in the background, each model with its "
                "default settings, their §6's. "
                "Their numbers are on the Brent (Bernstein) corpus: upload `br-phono.txt` to "
                "compare like with like (the command line's `python -m engine table1 --data "
                "br-phono.txt` runs the whole grid).")
    cols = st.columns(3)
    sizes = cols[0].multiselect("N", table1.SIZES, default=[1, 50, 100], key=key("t1_sizes"))
    runs = cols[1].number_input("Runs per cell", 1, 20, value=3, key=key("t1_runs"))
    models = cols[2].multiselect("Models", list(table1.MODELS), default=["unigram"],
                                 key=key("t1_models"))
    show_where_grids_run()
    settings, words = grid_settings(config, sizes, int(runs), models)
    row = st.container(horizontal=True)
    if shelf.run_button(row, "Run the grid", settings, icon=":material/grid_on:",
                        ready=bool(sizes and models) and config is not None):
        recipes = {m: BuiltModel(build_model(table1.MODELS[m], config["corpus"], ()))
                   for m in models}
        shelf.add(settings, words, start_grid(
            None, table1.grid(recipes, sorted(sizes), int(runs), config["seed"]), rows=True))
        st.rerun()
    shelf.cancel_button(row)
    shelf.show(settings, draw_table)


def grid_settings(config, sizes, runs, models):
    """What a Table 1 grid runs with, as a key (the corpus digested) and in words; None
    without a corpus."""
    if config is None:
        return None, ""
    corpus = hashlib.sha256(pickle.dumps(config["corpus"])).hexdigest()
    sizes, models = tuple(sorted(sizes)), tuple(models)
    words = (f"N = {', '.join(map(str, sizes))} × {runs} run{'s' if runs > 1 else ''}, "
             f"{', '.join(models)}; {config['corpus'].name}, seed {config['seed']}")
    return (corpus, sizes, runs, models, config["seed"]), words


def draw_table(grid, slot):
    """The rows ``grid`` has finished, as their Table 1."""
    rows = grid.job.rows()
    if rows is not None:
        st.table(table_frame(table1.table(rows)))


def table_frame(summary):
    """Ours (mean ± sd over runs) beside theirs, in their units."""
    rows = []
    for _, r in summary.iterrows():
        key = (r["model"], r["learner"], None if r["learner"] == "DPM" else int(r["particles"]),
               None if r["learner"] == "DPM" or r["particles"] == 1 else r["threshold"])
        theirs = table1.PAPER.get(key, (None, None))[0]
        row = {"model": r["model"], "learner": r["learner"] if r["learner"] == "DPM" else
               f"PF {int(r['particles'])}", "threshold": "" if key[3] is None else key[3],
               "runs": int(r["runs"])}
        for i, (figure, name) in enumerate(zip(table1.FIGURES, ("TF", "BF", "LF",
                                                                   "log-prob ×10³"))):
            sd = r[f"{figure}_sd"]
            row[name] = f"{r[figure]:.2f}" + ("" if np.isnan(sd) else f" ± {sd:.2f}")
            row[f"{name} theirs"] = "" if theirs is None else f"{theirs[i]:.2f}"
        rows.append(row)
    frame = pd.DataFrame(rows)
    order = frame["learner"].map(lambda name: -1 if name == "DPM" else int(name.split()[1]))
    frame = frame.assign(order=order).sort_values(["model", "order", "threshold"])
    return frame.drop(columns="order").set_index(["model", "learner", "threshold"])
