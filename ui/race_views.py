"""The Sampler race's live views: each sampler's headline and verdict, the log-probability and
the charted measure against engine time and passes, the diagnostics tables, and the trace and
autocorrelation of one scalar. Nothing here knows one model from another: labels and measures
come from the model class (its ``trace_labels``)."""
import numpy as np
import pandas as pd
import streamlit as st

from engine.diagnostics import RHAT_LIMIT, autocorrelation
from engine.report.plots import first_up, plain
from ui import charts, race_page
from ui.race_diagnostics import by_sampler, diagnostics_tables, growing, verdict_line
from ui.theme import label


class ChainViews:
    """The views of a race page keyed ``key(name)`` over ``models`` ({name: model class});
    the race's model is the one its config names (``key("config")``)."""

    def __init__(self, key, models):
        self.key, self.models = key, models

    def model_class(self):
        return self.models[st.session_state[self.key("config")]["model"]]

    def draw_race(self, race):
        """Headlines, verdicts, trace charts and diagnostics (a live view)."""
        if race.error:
            st.error(f"The chains stopped: {race.error}")
            return
        if not race.ready:
            st.info("The chains are starting (a worker loads the kernels on its first race)… "
                    "press Play or Step.")
            return
        measure = st.session_state[self.key("measure")]
        measure_label = self.model_class().trace_labels.get(measure, measure)
        chains_of, diagnoses = by_sampler(race), growing(race, self.key)
        headline(chains_of)
        for name, chains in chains_of.items():
            st.markdown(verdict_line(diagnoses, name, chains))
        frame = race.trace_frame(charts.CHAIN_ROWS)
        columns = {"loglik": "log p"}
        self.trace_panels(tuple(chains_of), frame, "loglik", "log-probability")
        if measure in frame:
            columns[measure] = measure_label
            self.trace_panels(tuple(chains_of), frame, measure, measure_label)
        st.markdown("**Convergence diagnostics** (last half of every chain; R̂ below "
                    f"{RHAT_LIMIT} means mixed)")
        tables, notes = diagnostics_tables(diagnoses, chains_of, columns)
        # side by side on a wide screen, one under the other on a phone (columns stack)
        for col, (title, table) in zip(st.columns(len(tables)), tables.items()):
            col.markdown(f"R̂ and ESS of **{title}**")
            col.table(table)
        if notes:
            st.caption(notes)
        cost = st.session_state.get(self.key("tick_seconds"))
        if cost is not None:
            st.caption(f"The server took {cost * 1000:,.0f} ms to read and draw the chains "
                       "last time (the chains themselves run in the workers).",
                       help="each play tick reads the new trace rows, computes R̂ and ESS and "
                            "redraws the charts")

    def trace_panels(self, names, frame, column, y_title):
        """``column`` against engine time (left) and passes (right)."""
        title = first_up(y_title)
        left, right = st.columns(2)
        by_time = charts.chain_traces_spec(names, column, y_title,
                                           f"{title} against engine time", x="seconds",
                                           x_title="engine time (s)", x_reach=0.01)
        charts.show_spec(left, by_time, charts.chain_traces_data(frame, column, "seconds"),
                         self.key(f"{column}_time"))
        by_sweep = charts.chain_traces_spec(names, column, y_title, f"{title} against passes")
        charts.show_spec(right, by_sweep, charts.chain_traces_data(frame, column),
                         self.key(f"{column}_sweeps"))

    def scalar_controls(self, race):
        """What the trace below and the measure above chart (of the race's model)."""
        labels = self.model_class().trace_labels
        st.selectbox("Trace and autocorrelation of", ["loglik", *labels],
                     format_func=lambda c: "log-probability" if c == "loglik"
                     else plain(labels[c]), key=self.key("scalar"))
        if labels:
            st.selectbox("Measure charted above", list(labels),
                         format_func=lambda c: plain(labels[c]), key=self.key("measure"))

    def draw_scalar(self, race):
        """The chosen scalar's trace and autocorrelation (a live view, redrawn)."""
        if not race.ready or race.error:
            return
        column = st.session_state[self.key("scalar")]
        title = ("log-probability" if column == "loglik"
                 else self.model_class().trace_labels[column])
        frame = race.trace_frame(charts.CHAIN_ROWS)
        if column not in frame:
            st.caption(f"This corpus gives no {title} (it has no gold analysis).")
            return
        chains_of = by_sampler(race)
        names = tuple(chains_of)
        lags = [pd.DataFrame({"sampler": name, "lag": np.arange(len(acf)), "acf": acf})
                for name, chains in chains_of.items()
                for acf in [autocorrelation(chains, column)] if len(acf)]
        left, right = st.columns(2)
        charts.show_spec(left, charts.chain_traces_spec(names, column, title,
                                                        f"Trace of the {title}"),
                         charts.chain_traces_data(frame, column), self.key("scalar_trace"))
        if lags:
            spec = charts.autocorrelations_spec(names, "autocorrelation",
                                                f"Autocorrelation of the {title}")
            charts.show_spec(right, spec, charts.autocorrelations_data(pd.concat(lags)),
                             self.key("acf"))
        else:
            right.caption("The autocorrelation needs 8 passes per chain, and chains that move.")


def headline(chains_of):
    """Each sampler's median log-probability and pass, its chains' spread in the help."""
    items = []
    for name, chains in chains_of.items():
        passes = min(len(chain) - 1 for chain in chains)
        seconds = np.median([chain["seconds"].iloc[-1] for chain in chains])
        logliks = [chain["loglik"].iloc[-1] for chain in chains]
        items.append((f"{label(name)} · pass {passes:,}", f"{np.median(logliks):,.1f}",
                      f"median log p of its {len(chains)} chains (from {min(logliks):,.1f} to "
                      f"{max(logliks):,.1f}); median engine time {seconds:,.2f} s"))
    race_page.metric_row(items)
