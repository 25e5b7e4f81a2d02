"""Toy posterior (Liang et al. §2): n copies of `ab`, and why TOKEN is stuck at m = n.

Widgets and plots only; every number comes from engine.models.toy.model.
"""
import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from engine.report.plots import style
from engine.models.toy.model import MAX_N, ToyModel
from engine.samplers import offered
from engine.run import Race
from ui import exercises, playback, race_page
from ui.charts import show, show_traces
from ui.page import prologue
from ui.warmup import warm_samplers
from ui.settings import PageSettings, Setting, start_anew
from ui.theme import EXACT_COLOUR, colour, label

KEY = "toy"
MAX_PASSES = 10_000
MAX_SEED = 2**32 - 1
ESCAPE_CAP = 1000      # passes after which a TOKEN chain counts as not escaped
DRAW_WORK = 5_000_000  # TYPE draws × n shown in the histogram (each draw touches all n sites)
MAX_CHAINS = 10_000


# --- engine results, cached per setting -------------------------------------------------------
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


# --- settings ---------------------------------------------------------------------------------
PRESETS = {
    "Fig. 2: TOKEN stuck at m = n, TYPE at the mode": dict(
        n=1000, m=1000, passes=30, samplers=("token", "type", "anneal", "greedy")),
    "Small n = 12: TYPE's draws, m by m": dict(n=12, m=12, passes=50,
                                               samplers=("token", "type")),
    "n = 100,000: TOKEN stuck longer": dict(n=100_000, m=100_000, passes=30,
                                           samplers=("token", "type")),
    "From the mode (m = 0): both stay": dict(n=1000, m=0, passes=30, samplers=("token", "type")),
    "One-stage is biased (n = 10); corrected, it is not": dict(
        n=10, m=0, passes=400, speed=50, samplers=("type", "one-stage", "one-stage-mh")),
}
SETTINGS = PageSettings(KEY, (
    Setting("n", 1000, int, "n", 1, MAX_N),
    Setting("m", 1000, int, "the initial m", 0, MAX_N),
    Setting("samplers", ("token", "type"), tuple, "the samplers",
            choices=offered(ToyModel.samplers), words=label),
    Setting("passes", 30, int, "the number of passes", 1, MAX_PASSES),
    race_page.seconds_setting(0.5),
    Setting("seed", 0, int, "the seed", 0, MAX_SEED),
    Setting("skip", True, bool, "the skip approximation"),
    Setting("chains", 200, int, "the number of TOKEN chains", 1, MAX_CHAINS),
    *playback.SETTINGS,
), PRESETS, agree=lambda values: {} if values["m"] <= values["n"] else {
    "m": f"the initial m must be between 0 and n = {values['n']:,}"})


def follow_n():
    """Keep 'start at m = n' when n changes (the paper's start), if m was at n before."""
    s = st.session_state
    if s.toy_m == s.get("toy_n_before"):
        s.toy_m = s.toy_n


def settings():
    with st.sidebar:
        st.header("Settings")
        SETTINGS.preset_picker()
        st.number_input("n — copies of `ab`", step=1, key="toy_n", on_change=follow_n,
                        help=f"1 … {MAX_N:,}")
        st.number_input("initial m — copies split as `a b`", step=1, key="toy_m",
                        help="0 … n; the paper starts at m = n")
        st.multiselect("Samplers", offered(ToyModel.samplers), format_func=label,
                       key="toy_samplers")
        race_page.length_input(KEY, "Passes per run", step=1,
                               help="TOKEN-anneal cools from 10 to 1 over the first half "
                                    "of the run")
        st.number_input("Seed", step=1, key="toy_seed",
                        help="same seed, same settings → the same chains")
        st.checkbox("TYPE: skip approximation", key="toy_skip",
                    help="on the toy the block is always all n sites, so this only changes "
                         "how many moves a pass makes")
        SETTINGS.share()
    s = st.session_state
    s.toy_n_before = s.toy_n  # what follow_n compares with when n changes next
    SETTINGS.save()
    return dict(n=s.toy_n, m=s.toy_m, samplers=tuple(s.toy_samplers), passes=s.toy_passes,
                length=race_page.length(KEY),
                seed=s.toy_seed, skip=s.toy_skip)


def problems(config):
    """What is wrong with the settings, in words a user can act on."""
    found = []
    if not 1 <= config["n"] <= MAX_N:
        found.append(f"n must be between 1 and {MAX_N:,}; it is {config['n']:,}.")
    elif not 0 <= config["m"] <= config["n"]:
        found.append(f"The initial m must be between 0 and n = {config['n']:,}; "
                     f"it is {config['m']:,}.")
    if not config["samplers"]:
        found.append("Choose at least one sampler.")
    if "total_sweeps" in config["length"] and not 1 <= config["passes"] <= MAX_PASSES:
        found.append(f"Passes per run must be between 1 and {MAX_PASSES:,}; "
                     f"it is {config['passes']:,}.")
    if not 0 <= config["seed"] <= MAX_SEED:
        found.append(f"The seed must be between 0 and {MAX_SEED:,}; it is {config['seed']:,}.")
    return found


def build_race(config):
    """Fresh chains for ``config``, all from the same initial state; stops playing."""
    st.session_state.toy_race = Race(ToyModel(config["n"]), config["samplers"], config["seed"],
                                     init={"m": config["m"]}, skip=config["skip"],
                                     **config["length"])
    st.session_state.toy_config = config
    st.session_state.toy_playing = False


def reset():
    build_race(st.session_state.toy_config)


# --- the live race ----------------------------------------------------------------------------
def draw_race(race):
    n = race.runs[next(iter(race.runs))].model.n
    race_page.metric_row([
        (f"{label(name)} · pass {run.sweeps_done:,}", f"m = {run.trace[-1]['m']:,}",
         f"log p(x, z) = {run.trace[-1]['loglik']:,.1f}; engine time "
         f"{run.seconds * 1000:,.1f} ms; temperature {run.trace[-1]['temperature']:.2f}")
        for name, run in race.runs.items()])
    show_traces(st, race, "m", "m (copies split as a b)",
                "m against passes, every chain from the same start (Fig. 2b)", "toy_race_chart",
                y_domain=[-0.03 * n, 1.05 * n],
                x_domain=race.total_sweeps and [0, race.total_sweeps],  # None: equal time
                level=(n / 2, "n/2: TOKEN has escaped below this"))
    means = " · ".join(f"{label(name)} {np.mean([row['m'] for row in run.trace[1:]]):,.2f}"
                       for name, run in race.runs.items() if len(run.trace) > 1)
    if means:  # a chain's average is what an exact sampler's must approach
        st.caption(f"Mean m over the passes so far: {means}; exact E[m | x] = "
                   f"{exact_mean(n):,.2f}.")


# --- the exact posterior and the two histograms -----------------------------------------------
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


def explanation(model):
    n = model.n
    flip = model.token_flip_probability(n)
    st.markdown("#### Why TOKEN is stuck at m = n and TYPE is not")
    st.markdown("With θ ~ Dirichlet(1, 1, 1) over the words {a, b, ab} integrated out, an "
                "analysis z with m copies split as `a b` has probability (eq. 1)")
    st.latex(r"p(z \mid x) \propto g(m) = \frac{1^{(m)}\,1^{(m)}\,1^{(n-m)}}{3^{(n+m)}},"
             r"\qquad p(m \mid x) = \binom{n}{m}\frac{g(m)}{\sum_{m'}\binom{n}{m'} g(m')}")
    st.markdown("where a⁽ᵏ⁾ = a(a+1)…(a+k−1). **TOKEN** changes one copy at a time "
                "(eq. 4). At m = n the other copies have made `a` and `b` frequent and `ab` "
                "unseen, so re-joining one copy has probability")
    st.latex(r"p(z_i = 0 \mid z_{-i}) = \frac{2n+2}{2n+2+n^2} \approx \frac{2}{n}")
    st.markdown(f"— **{flip:.3g}** for n = {n:,}: a pass joins about {n * flip:.1f} copies, "
                "and it takes several passes before enough `ab`s exist to pull m down, although "
                "m = n is a far worse analysis (compare the two ends of the dashed curve). "
                "**TYPE** sees that every copy has the same type: it takes all n sites out, "
                "draws m from eq. 7 (here exactly eq. 2) and splits a uniformly random m "
                "of them, so one move lands wherever the posterior puts its mass. "
                "**TOKEN-anneal** flattens eq. 4 with a temperature that cools from 10 to 1; "
                "**TYPE-greedy** sets the block all-`ab` or all-`a b`, whichever of g(0) and "
                "g(n) is larger.")
    st.markdown("**One-stage** (Peng & Gildea 2014, eq. 12) takes the same block but, instead "
                "of drawing m, draws the copies one after another, each from its conditional "
                "given the copies drawn before it. That is not p(z | x): each step is "
                "normalised as if the later copies did not exist, so splitting the first "
                "copies looks better than it is. At n = 10 the posterior mean of m is 0.10; "
                "one-stage's chain averages about 0.97. **One-stage + MH** uses the same "
                "sequential draw as a Metropolis-Hastings proposal q(z′), accepted with "
                "probability min(1, g(m′) q(z) / (g(m) q(z′))) — exact again, at the cost of "
                "replaying the old values to get q(z).")


# --- the page ---------------------------------------------------------------------------------
prologue("Toy posterior: n copies of `ab`",
         "Liang, Jordan & Klein (2010), §2. Each copy of `ab` is either one word `ab` (z = 0) "
         "or two words `a b` (z = 1); m counts the split copies.")
SETTINGS.restore()
if "toy_n_before" not in st.session_state and "m" not in SETTINGS.linked():
    st.session_state.toy_m = st.session_state.toy_n  # a link without m: start at m = n
config = settings()
warm_samplers(ToyModel, config["samplers"], lesson=True)
issues = problems(config)
if issues:
    for text in issues:
        st.error(text)
    if "toy_config" not in st.session_state:  # nothing valid yet to show
        st.stop()
    st.info("The chains below keep the last valid settings; fix the value to start new ones.")
elif start_anew(KEY, config):
    build_race(config)

applied = st.session_state.toy_config
playback.controls(KEY, on_reset=reset)
playback.live(KEY, draw_race)

st.subheader("The exact posterior")
left, right = st.columns(2)
show(left, posterior_chart(applied["n"]), "toy_posterior_chart")
left.caption("Dashed: one analysis z with m split copies (eq. 1) — bimodal, with modes at m = 0 and "
             "m = n, which is where TOKEN gets stuck. Solid: the number m itself (eq. 2), "
             "which adds up the C(n, m) analyses with that m.")
fig, count, draws = type_draws_chart(applied["n"], applied["seed"])
show(right, fig, "toy_type_draws_chart")
right.caption(f"Mean m over {count:,} TYPE draws from m = n: {draws.mean():,.3f}; "
              f"exact E[m | x] = {exact_mean(applied['n']):,.3f}. Each draw re-samples all n "
              "sites.")

st.subheader("TOKEN's escape time")
chains = st.number_input("Chains (seeds)", step=50, key="toy_chains",
                         help="independent TOKEN chains from m = n, seeds derived from the seed")
if not 1 <= chains <= MAX_CHAINS:
    st.error(f"The number of chains must be between 1 and {MAX_CHAINS:,}; it is {chains:,}.")
else:
    times = escape_times(applied["n"], applied["seed"], chains)
    stuck = int((times < 0).sum())
    show(st, escape_chart(times), "toy_escape_chart")
    if stuck < len(times):
        st.caption(f"Median {np.median(times[times > 0]):.0f} passes over {len(times) - stuck:,} "
                   f"chains that escaped; {stuck:,} did not within {ESCAPE_CAP:,} passes.")
    else:
        st.caption(f"None of the {len(times):,} chains escaped within {ESCAPE_CAP:,} passes.")

explanation(ToyModel(applied["n"]))
exercises.show(SETTINGS)  # predict, then run: ui/lesson_exercises.py
