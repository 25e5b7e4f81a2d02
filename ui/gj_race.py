"""The HMM estimators lesson's race view: a tile per estimator, the log-probability and each
one's own objective over iterations (or engine time), the measures against gold, and the
standings table."""
import pandas as pd
import streamlit as st

from engine.experiments import gao_johnson
from ui import charts, race_page
from ui.theme import label

AXES = {"sweep": "iterations", "seconds": "engine time"}
MEASURES = (("acc_many_to_one", "many-to-one accuracy", True),
            ("acc_one_to_one", "greedy 1-to-1 accuracy", True),
            ("acc_cross_validation", "cross-validation accuracy", True),
            ("vi", "variation of information (bits)", False))
# the standings' numbers as a Styler writes them: Streamlit's own formats write a missing one
# (EM's and VB's objective at iteration 0) "None", a Styler "—"
FORMATS = {"engine s": "{:.2f}", "ms / iteration": "{:.2f}", "value": "{:,.1f}",
           "log p(tags, words)": "{:,.1f}"}
OBJECTIVES = {"likelihood": "log p(words | θ)", "bound": "bound F",
              "log-probability": "log p(tags, words)"}


def standings(race):
    """Where each estimator stands now: one row each; accuracies in percent, as the tiles."""
    rows = []
    for name, run in race.runs.items():
        last = run.trace[-1]
        done = max(run.sweeps_done, 1)
        rows.append({"estimator": label(name), "paper": gao_johnson.PAPER_NAMES[name],
                     "iteration": run.sweeps_done, "engine s": run.seconds,
                     "ms / iteration": 1000 * run.seconds / done,
                     "objective": OBJECTIVES[last["objective_kind"]],
                     "value": last["objective"], "log p(tags, words)": last["loglik"],
                     **{column_title(column, title, fraction):
                        last.get(column) * (100 if fraction and column in last else 1)
                        for column, title, fraction in MEASURES if column in last}})
    return pd.DataFrame(rows).set_index("estimator")


def column_title(column, title, fraction):
    """A measure's column in the standings: a fraction is shown in percent, as the tiles do."""
    return f"{title} (%)" if fraction else title


def tile(name, run, has_gold):
    """(label, value, help, what) of an estimator's tile: its greedy 1-to-1 accuracy in percent
    (the standings' column of that name), or its log p(tags, words) without gold tags."""
    last = run.trace[-1]
    help_text = (f"log p(tags, words) = {last['loglik']:,.1f}; engine time "
                 f"{run.seconds:,.2f} s")
    if has_gold:
        return (f"{label(name)} · iteration {run.sweeps_done:,}",
                f"{last['acc_one_to_one']:.1%}", help_text, "1-to-1 accuracy")
    return (f"{label(name)} · iteration {run.sweeps_done:,}", f"{last['loglik']:,.0f}",
            help_text, "log p(tags, words)")


def race_view(race, x, key_of):
    """The tiles, the charts against ``x`` ("sweep" or "seconds"; ``key_of(column)`` keys
    each) and the standings."""
    has_gold = "acc_one_to_one" in next(iter(race.runs.values())).trace[-1]
    race_page.metric_row([tile(name, run, has_gold) for name, run in race.runs.items()])
    x_title = "iterations" if x == "sweep" else "engine time (s)"
    reach = 0.01 if x == "seconds" else None
    left, right = st.columns(2)
    charts.show_traces(left, race, "loglik", "log p(tags, words)",
                       "Log-probability of the tagging", key_of("loglik"), x=x,
                       x_title=x_title, x_reach=reach)
    charts.show_traces(right, race, "objective", "objective (natural log)",
                       "Each one's objective", key_of("objective"), x=x, x_title=x_title,
                       x_reach=reach)
    right.caption("EM: the likelihood log p(words | θ); VB: its bound F ≤ log p(words); the "
                  "samplers: log p(tags, words), as on the left.")
    if has_gold:
        for row in (MEASURES[:2], MEASURES[2:]):
            for col, (column, title, fraction) in zip(st.columns(2), row):
                charts.show_traces(col, race, column, title, title[0].upper() + title[1:],
                                   key_of(column), x=x, x_title=x_title, x_reach=reach,
                                   y_domain=[0, 1] if fraction else None)
    table = standings(race)
    formats = {**FORMATS, **{column_title(*measure): "{:.1f}" if measure[2] else "{:.3f}"
                             for measure in MEASURES}}
    st.dataframe(table.style.format({c: f for c, f in formats.items() if c in table},
                                    na_rep="—"))
