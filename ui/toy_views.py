"""The Toy posterior lesson's views (Liang et al. §2): the race of m against passes, the exact
posterior (eqs. 1–2) beside TYPE's draws of m, and the passes TOKEN needs to escape from m = n;
the engine's results cached per setting; and what is wrong with a setting, said."""
import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from engine.models.toy.model import MAX_N, ToyModel
from engine.report.plots import style
from ui import race_page
from ui.charts import show, show_traces
from ui.theme import EXACT_COLOUR, colour, label

ESCAPE_CAP = 1000      # passes after which a TOKEN chain counts as not escaped
DRAW_WORK = 5_000_000  # TYPE draws × n shown in the histogram (each draw touches all n sites)
MAX_CHAINS = 10_000


def race_view(race, chart_key):
    """A tile per chain (its m, log p, engine time and temperature), m against passes (Fig. 2b)
    and each chain's mean m so far against the exact E[m | x]."""
    n = race.runs[next(iter(race.runs))].model.n
    race_page.metric_row([
        (f"{label(name)} · pass {run.sweeps_done:,}", f"m = {run.trace[-1]['m']:,}",
         f"log p(x, z) = {run.trace[-1]['loglik']:,.1f}; engine time "
         f"{run.seconds * 1000:,.1f} ms; temperature {run.trace[-1]['temperature']:.2f}")
        for name, run in race.runs.items()])
    show_traces(st, race, "m", "m (copies split as a b)",
                "m against passes, every chain from the same start (Fig. 2b)", chart_key,
                y_domain=[-0.03 * n, 1.05 * n],
                x_domain=race.total_sweeps and [0, race.total_sweeps],  # None: equal time
                level=(n / 2, "n/2: TOKEN has escaped below this"))
    means = " · ".join(f"{label(name)} {np.mean([row['m'] for row in run.trace[1:]]):,.2f}"
                       for name, run in race.runs.items() if len(run.trace) > 1)
    if means:  # a chain's average is what an exact sampler's must approach
        st.caption(f"Mean m over the passes so far: {means}; exact E[m | x] = "
                   f"{exact_mean(n):,.2f}.")


@st.cache_data(max_entries=16, show_spinner=False)
def exact_log_posterior(n):
    return ToyModel(n).log_posterior()



@st.cache_data(max_entries=16, show_spinner=False)
def exact_mean(n):
    return ToyModel(n).posterior_mean()



@st.cache_data(max_entries=16, show_spinner="TYPE is drawing m…")
def type_draws(n, seed, count):
    return ToyModel(n).type_draws(seed, count)



@st.cache_data(max_entries=16, show_spinner="Running TOKEN chains from m = n…")
def escape_times(n, seed, chains):
    return ToyModel(n).token_escape_times(seed, chains, ESCAPE_CAP)



@st.cache_data(max_entries=16, show_spinner=False)
def exact_log_posterior_z(n):
    return ToyModel(n).log_posterior_z()



def posterior_chart(n):
    """Eq. 1 (one analysis z) and eq. 2 (the number m), both exact: dark grey, one dashed."""
    stride = max(1, (n + 1) // 4000)  # a line of ≤ ~4000 points looks the same and draws fast
    m = np.unique(np.r_[np.arange(0, n + 1, stride), n])
    lines = {"log p(z | x), one z": (exact_log_posterior_z(n)[m], [6, 4]),
             "log p(m | x)": (exact_log_posterior(n)[m], [1, 0])}
    data = pd.concat([pd.DataFrame({"m": m, "log probability": y, "curve": name})
                      for name, (y, _) in lines.items()], ignore_index=True)
    chart = alt.Chart(data).mark_line(strokeWidth=2.5, color=EXACT_COLOUR).encode(
        x=alt.X("m:Q", title="m", scale=alt.Scale(nice=False)),
        y=alt.Y("log probability:Q", title="log probability"),
        strokeDash=alt.StrokeDash("curve:N", title=None, sort=list(lines), scale=alt.Scale(
            domain=list(lines), range=[dash for _, dash in lines.values()])),
        tooltip=["curve:N", "m:Q", alt.Tooltip("log probability:Q", format=",.2f")])
    note = f", every {stride}th m" if stride > 1 else ""
    return style(chart, [f"Exact posterior, n = {n:,}", f"(Fig. 2a{note})"], 260)



FLOOR = 10 ** -6.5  # the proportions' log axis starts here: rarer m are left out



def type_draws_chart(n, seed):
    """TYPE's draws of m (its colour) against the exact p(m | x) (dark grey, dotted)."""
    count = int(min(2000, max(50, DRAW_WORK // n)))
    draws = type_draws(n, seed, count)
    p = np.exp(exact_log_posterior(n))
    top = int(max(draws.max(), np.searchsorted(np.cumsum(p), 1 - 1e-6)))
    m = np.arange(top + 1)
    observed = np.bincount(draws, minlength=top + 1)[: top + 1] / count
    drawn, exact = f"TYPE's draws ({count:,} moves)", "exact p(m | x)"
    what = alt.Color("what:N", title=None, scale=alt.Scale(
        domain=[drawn, exact], range=[colour("type"), EXACT_COLOUR]))
    y_scale = alt.Scale(type="log", domain=[FLOOR, 1.2], clamp=True)
    seen = observed > 0
    bars = alt.Chart(pd.DataFrame({"m": m[seen], "proportion": observed[seen], "floor": FLOOR,
                                   "what": drawn})).mark_bar(opacity=0.75).encode(
        x=alt.X("m_start:Q", title="m", axis=alt.Axis(tickMinStep=1, format="d")),
        x2=alt.X2("m_end:Q"),
        y=alt.Y("proportion:Q", title="proportion (log scale)", scale=y_scale,
                axis=alt.Axis(format="~e", values=[1e-6, 1e-4, 1e-2, 1])),
        y2="floor:Q", color=what,
        tooltip=["m:Q", alt.Tooltip("proportion:Q", format=".4f")]).transform_calculate(
        m_start="datum.m - 0.45", m_end="datum.m + 0.45")  # a bar centred on its m
    kept = p[: top + 1] >= FLOOR
    curve = alt.Chart(pd.DataFrame({"m": m[kept], "proportion": p[: top + 1][kept],
                                    "what": exact})).mark_line(
        strokeDash=[2, 2], point=alt.OverlayMarkDef(size=30, color=EXACT_COLOUR)).encode(
        x="m:Q", y=alt.Y("proportion:Q", scale=y_scale), color=what,
        tooltip=[alt.Tooltip("proportion:Q", format=".6f", title="exact p(m | x)")])
    return (style(alt.layer(bars, curve), ["Every TYPE move draws m", "exactly from p(m | x)"],
                  260), count, draws)



def escape_chart(times):
    """How many TOKEN chains first drop below n/2 after each number of passes."""
    values, counts = np.unique(times[times > 0], return_counts=True)
    data = pd.DataFrame({"passes": values, "chains": counts})
    chart = alt.Chart(data).mark_rect(color=colour("token")).encode(
        x=alt.X("from:Q", title="passes until m first drops below n/2"), x2="to:Q",
        y=alt.Y("chains:Q", title="chains"), y2=alt.datum(0),
        tooltip=["passes:Q", "chains:Q"]).transform_calculate(
        **{"from": "datum.passes - 0.45", "to": "datum.passes + 0.45"})
    return style(chart, ["Passes TOKEN needs until m < n/2,", "started at m = n"], 240)


def exact_section(n, seed, key_of):
    """The exact posterior of n copies beside TYPE's draws of m from ``seed``."""
    st.subheader("The exact posterior")
    left, right = st.columns(2)
    show(left, posterior_chart(n), key_of("posterior_chart"))
    left.caption("Dashed: one analysis z with m split copies (eq. 1) — bimodal, with modes at m = "
                 "0 and m = n, which is where TOKEN gets stuck. Solid: the number m itself (eq. "
                 "2), which adds up the C(n, m) analyses with that m.")
    fig, count, draws = type_draws_chart(n, seed)
    show(right, fig, key_of("type_draws_chart"))
    right.caption(f"Mean m over {count:,} TYPE draws from m = n: {draws.mean():,.3f}; "
                  f"exact E[m | x] = {exact_mean(n):,.3f}. Each draw re-samples all n sites.")


def escape_section(n, seed, key_of):
    """How many passes each of the chosen number of TOKEN chains from m = n needs to escape."""
    st.subheader("TOKEN's escape time")
    chains = st.number_input("Chains (seeds)", step=50, key=key_of("chains"),
                             help="independent TOKEN chains from m = n, seeds derived from the "
                                  "seed")
    if not 1 <= chains <= MAX_CHAINS:
        st.error(f"The number of chains must be between 1 and {MAX_CHAINS:,}; it is "
                 f"{chains:,}.")
        return
    times = escape_times(n, seed, chains)
    stuck = int((times < 0).sum())
    show(st, escape_chart(times), key_of("escape_chart"))
    if stuck < len(times):
        st.caption(f"Median {np.median(times[times > 0]):.0f} passes over {len(times) - stuck:,} "
                   f"chains that escaped; {stuck:,} did not within {ESCAPE_CAP:,} passes.")
    else:
        st.caption(f"None of the {len(times):,} chains escaped within {ESCAPE_CAP:,} passes.")


def problems(config, max_passes, max_seed):
    """What is wrong with the toy lesson's settings, in words a user can act on."""
    n, m, passes, seed = config["n"], config["m"], config["passes"], config["seed"]
    return [text for wrong, text in (
        (not 1 <= n <= MAX_N, f"n must be between 1 and {MAX_N:,}; it is {n:,}."),
        (1 <= n <= MAX_N and not 0 <= m <= n,
         f"The initial m must be between 0 and n = {n:,}; it is {m:,}."),
        (not config["samplers"], "Choose at least one sampler."),
        ("total_sweeps" in config["length"] and not 1 <= passes <= max_passes,
         f"Passes per run must be between 1 and {max_passes:,}; it is {passes:,}."),
        (not 0 <= seed <= max_seed,
         f"The seed must be between 0 and {max_seed:,}; it is {seed:,}."),
    ) if wrong]
