"""The Sampler race's initialisation sweep (Liang et al. Fig. 5 d–f): every sampler from starts
of every η, several chains each, for a fixed engine time — a grid on Dask in the background
(engine.grid), whose bands and table say where each sampler ends and whether it depends on
where it started. A finished sweep is kept for every session with its settings."""
import hashlib
import pickle

import numpy as np
import pandas as pd
import streamlit as st

from engine.diagnostics import rhat_text
from engine.grid import BuiltModel, tasks
from engine.report.plots import final_bands, first_up
from ui import charts
from ui.chain_race import MAX_CHAINS, chain_pool
from ui.cluster import show_where_grids_run, start_grid
from ui.grid_progress import GridShelf
from ui.race_diagnostics import diagnostics_notes, shown_ess
from ui.settings import Setting
from ui.theme import label

SWEEP_STEPS = (0.1, 0.25, 0.5)
# the sweep reports where each chain ends: its measures are scored on the last row and on as
# many others as 5% of the engine time pays for (br-phono: 1.4 ms a row against a 3.5 ms sweep)
MEASURE_SHARE = 0.05
SETTINGS = (
    Setting("sweep_step", 0.1, float, "the η step of the sweep", choices=SWEEP_STEPS),
    Setting("sweep_seconds", 10.0, float, "the engine seconds per chain of the sweep", 0.5, 600.0),
    Setting("sweep_chains", 4, int, "the chains per η of the sweep", 2, MAX_CHAINS),
)


@st.cache_resource(show_spinner=False)
def finished_sweeps():
    """{settings digest: (traces, summary)} of every η sweep this server has finished."""
    return {}


class EtaSweep:
    """The sweep section of a race page keyed ``key(name)`` (its grids: ``key("sweep")``),
    over ``models`` ({name: model class})."""

    def __init__(self, key, models):
        self.key, self.models = key, models
        self.shelf = GridShelf(key("sweep"), noun="chains")

    def settings(self, config):
        """The sweep's widgets; the race's ``config`` with the sweep's η values, seconds and
        chains."""
        key, s = self.key, st.session_state
        cols = st.columns(3)
        cols[0].select_slider("η spacing", SWEEP_STEPS, key=key("sweep_step"),
                              help="η from 0 to 1 in steps of this size: 0.1 gives 11 values")
        cols[1].number_input("Engine seconds per chain and η", 0.5, 600.0, step=1.0,
                             format="%g", key=key("sweep_seconds"))
        cols[2].slider("Chains per sampler and η", 2, MAX_CHAINS, key=key("sweep_chains"))
        etas = tuple(float(round(e, 10)) for e in np.arange(0, 1 + 1e-9, s[key("sweep_step")]))
        return dict(config, etas=etas, seconds=float(s[key("sweep_seconds")]),
                    sweep_chains=int(s[key("sweep_chains")]))

    def start(self, model, sweep):
        grid = tasks(sweep["samplers"], sweep["sweep_chains"], sweep["etas"], sweep["seed"],
                     seconds=sweep["seconds"], skip=sweep["skip"], measure_share=MEASURE_SHARE)
        st.session_state[self.key("playing")] = False  # the sweep measures engine time
        words = (f"{', '.join(map(label, sweep['samplers']))} from {len(sweep['etas'])} values "
                 f"of η, {sweep['sweep_chains']} chains × {sweep['seconds']:g} s each; "
                 f"{self.models[sweep['model']].label}, seed {sweep['seed']}")
        self.shelf.add(digest(model, sweep), words, start_grid(BuiltModel(model), grid),
                       context=sweep)

    def section(self, model, config):
        """The sweep of ``model`` (the race's) from the race's ``config``: its widgets, its
        button and its result (this session's, or another's with the same settings)."""
        st.subheader("The initialisation sweep (Fig. 5 d–f)")
        st.caption("Every sampler from starts of every η, several chains each, for a fixed "
                   "engine time: where does each end, and does it depend on where it started? "
                   "The chains run on Dask in the background.")
        sweep = self.settings(config)
        key = digest(model, sweep)
        total = len(sweep["etas"]) * len(sweep["samplers"]) * sweep["sweep_chains"]
        show_where_grids_run()
        finished = finished_sweeps().get(key)  # by this session or another
        row = st.container(horizontal=True)
        if finished is None:
            minutes = total * sweep["seconds"] / chain_pool().size / 60
            if self.shelf.run_button(row, f"Run the sweep: {total} chains, about "
                                          f"{minutes:,.1f} min", key,
                                     icon=":material/play_arrow:"):
                self.start(model, sweep)
                st.rerun()
        self.shelf.cancel_button(row, "Cancel the sweep")
        held = self.shelf.for_settings(key)
        if finished is not None and (held is None or held.job.state != "finished"):
            self.draw(*finished, sweep, "shared")
        self.shelf.show(key, self.draw_held)

    def draw_held(self, grid, slot):
        """What a sweep of this session has finished (all of it, or the chains done before a
        cancel); a whole sweep is kept for every session with its settings."""
        result = grid.job.result()
        if result is None:
            return
        if grid.job.state == "finished":
            finished_sweeps()[grid.settings] = result
        self.draw(*result, grid.context, slot)

    def draw(self, traces, table, sweep, slot="current"):
        """The sweep's bands and table; ``slot`` keeps the charts' keys apart when two sweeps
        are shown (the current one's keys are {prefix}_sweep_<column>)."""
        model_class = self.models[sweep["model"]]
        names = list(dict.fromkeys(traces["sampler"]))
        measure = st.session_state[self.key("measure")]
        panels = [("loglik", "log-probability")]
        if measure in traces:
            panels.append((measure, model_class.trace_labels[measure]))
        for col, (column, title) in zip(st.columns(len(panels)), panels):
            charts.show(col, charts.bands(final_bands(traces, column), names, title,
                                          f"{first_up(title)} after {sweep['seconds']:g} s, "
                                          "against η"),
                        self.key(f"sweep_{column}") + ("" if slot == "current" else f"_{slot}"))
        st.caption("Lines: the median over the chains; bands: from the lowest to the highest "
                   "chain.")
        st.dataframe(sweep_table(table), hide_index=True)
        st.caption(sweep_notes(table))


def digest(model, sweep):
    """The settings of a sweep as a key for its cached result."""
    parts = {k: v for k, v in sweep.items() if k not in ("corpus", "eta", "starts", "length")}
    return hashlib.sha256(pickle.dumps((parts, model.n_sites, getattr(model, "name", ""),
                                        sweep["corpus"]))).hexdigest()


def sweep_notes(table):
    """What the "—"s of the η sweep's table mean (a row without R̂ says why in its verdict)."""
    notes = diagnostics_notes(table["rhat"].dropna())
    if table["rhat"].isna().any():
        notes += " A row without R̂ (—) says why in its verdict."
    return notes.strip()


def sweep_table(table):
    """The η sweep's summary (engine.grid.summary) with readable headers and numbers."""
    return pd.DataFrame({
        "sampler": table["sampler"].map(label),
        "η": table["eta"].map("{:g}".format),
        "chains": table["chains"],
        "R̂ (log p)": table["rhat"].map(rhat_text),
        "bulk ESS (log p)": [shown_ess(r, e) for r, e in zip(table["rhat"], table["ess_bulk"])],
        "final log p (median)": table["final_loglik"].map("{:,.1f}".format),
        "verdict": table["verdict"]})
