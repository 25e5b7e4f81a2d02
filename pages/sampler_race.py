"""The Sampler race (SPEC §9.6; Liang et al. §5.2, Fig. 5): any registered model on any corpus,
several chains per sampler advancing in worker processes, with R̂ and ESS to tell a stuck
chain from a mixed one, and the initialisation sweep over η.

Widgets and plots only: the chains run in engine.live.pool's workers, the diagnostics are
engine.diagnostics', the sweep is engine.grid's (in a process of its own, engine.live.grid_job).
Nothing here knows one model from another: a model's options and measures come from the
registry (engine.models, ui/models), its corpus choice from its kind of data (ui/kinds).
"""
import hashlib
import pickle

import numpy as np
import pandas as pd
import streamlit as st

from engine.diagnostics import RHAT_LIMIT, autocorrelation, diagnose_chains, rhat_text
from engine.grid import BuiltModel, tasks
from engine.live.pool import ChainPool, LiveRace, plan
from engine.report.plots import final_bands, first_up, plain
from engine.models import registry
from engine.samplers import offered
from ui import charts, exercises, playback, race_page
from ui.cluster import show_where_grids_run, start_grid
from ui.grid_progress import GridShelf
from ui.kinds.registry import every_picker_settings, picker_of, view_or_stop
from ui.models import ModelOptions, build_model
from ui.page import prologue
from ui.warmup import warm_samplers
from ui.settings import PageSettings, Setting, start_anew
from ui.theme import label

KEY = "race"
MAX_PASSES = 100_000
MAX_CHAINS = 8
MAX_SITES = race_page.MAX_SITES  # the page's limit: every chain holds the whole corpus
REDIAGNOSE = 0.01    # R̂ and ESS are computed again once the chains have grown by 1%
STARTS = {"shared": "the same η for every chain",
          "spread": "spread: chain c at η = c / (C − 1), from 0 to 1",
          "per_sampler": "one η per sampler"}
SWEEP_STEPS = (0.1, 0.25, 0.5)
DIAGNOSTICS_COLUMNS = ("chains × draws", "R̂", "bulk ESS", "tail ESS", "ESS/s")
SWEEPS = GridShelf("race_sweep", noun="chains")  # this session's η sweeps
# the sweep reports where each chain ends: its measures are scored on the last row and on as
# many others as 5% of the engine time pays for (br-phono: 1.4 ms a row against a 3.5 ms sweep)
MEASURE_SHARE = 0.05
MODELS = registry.models()
OPTIONS = ModelOptions(tuple(MODELS.values()))
ALL_SAMPLERS = tuple(dict.fromkeys(s for cls in MODELS.values() for s in offered(cls.samplers)))


# each preset's claim is replayed by tests/app/test_preset_claims.py
PRESETS = {
    # TOKEN's chain from m = n keeps near n for ~6 passes while the others are at 0 (R̂ ≈ 4.8
    # at pass 12); TYPE's chains all reach the mode at their first move and agree exactly
    "R̂ catches a stuck chain (toy, starts spread from m = 0 to m = n)": dict(
        model="toy", toy_n=100_000, samplers=("token", "type"), chains=4, starts="spread",
        passes=12, seed=0, clock="passes", speed=1, scalar="m"),
    # the built-in corpus, K = 15, 1,000 passes: the mixture ends highest (median log p
    # −13,100 against TYPE's −13,200 and TOKEN's −13,900), and no sampler has mixed. Both
    # claims are measured at these passes (equal engine time would end at a machine's speed)
    "TYPE + TOKEN on the HMM: best of both, none mixed (α′ = 0.0001)": dict(
        model="hmm", tag_source="builtin", hmm_alpha_emit=0.0001, chains=4, starts="shared",
        eta=1.0, samplers=("token", "type", "type-token"), passes=1000, seed=0,
        clock="passes", speed=50),
    # nursery talk, 2,000 passes: R̂ from 1.66 (TYPE) to ∞ (TYPE-greedy, each chain frozen in
    # its own place); TYPE's chains end highest (median log p −11,700, TOKEN's −13,500)
    "Word segmentation: none of five samplers mixes in 2,000 passes": dict(
        model="usm", seg_source="builtin", chains=4, starts="shared", eta=1.0,
        samplers=("token", "type", "anneal", "greedy", "sentence"), passes=2000, seed=0,
        clock="passes", speed=50),
}
SETTINGS = PageSettings(KEY, (
    Setting("model", "usm", str, "the model", choices=tuple(MODELS),
            words=lambda n: MODELS[n].label),
    *every_picker_settings(),
    Setting("first", 0, int, "the number of units used (0: all)", 0, 10**7),
    *OPTIONS.settings(),
    Setting("samplers", ("token", "type"), tuple, "the samplers", choices=ALL_SAMPLERS,
            words=label),
    Setting("chains", 4, int, "the chains per sampler", 2, MAX_CHAINS),
    Setting("starts", "shared", str, "the starts", choices=tuple(STARTS)),
    Setting("eta", 1.0, float, "η", 0.0, 1.0),
    *(Setting(f"eta_{name}", 1.0, float, f"η of {label(name)}", 0.0, 1.0)
      for name in ALL_SAMPLERS),
    Setting("passes", 500, int, "the number of passes", 10, MAX_PASSES),
    race_page.seconds_setting(10.0, "the engine seconds per chain"),
    Setting("seed", 0, int, "the seed", 0, race_page.MAX_SEED),
    Setting("skip", True, bool, "the skip approximation"),
    Setting("measure", "token_f", str, "the measure charted"),
    Setting("scalar", "loglik", str, "the scalar traced"),
    Setting("sweep_step", 0.1, float, "the η step of the sweep", choices=SWEEP_STEPS),
    Setting("sweep_seconds", 10.0, float, "the engine seconds per chain of the sweep", 0.5, 600.0),
    Setting("sweep_chains", 4, int, "the chains per η of the sweep", 2, MAX_CHAINS),
    *playback.SETTINGS,
), PRESETS)


@st.cache_resource(show_spinner=False)
def chain_pool():
    """The server's worker processes (one per core), shared by every session's race."""
    return ChainPool()


@st.cache_resource(show_spinner=False)
def finished_sweeps():
    """{settings digest: (traces, summary)} of every η sweep this server has finished."""
    return {}


# --- settings ---------------------------------------------------------------------------------
def fit_to_model(model_class):
    """Samplers and charted columns of another model (a link, a model switch) fall back to
    this one's."""
    s = st.session_state
    mine = offered(model_class.samplers)
    kept = [name for name in s.race_samplers if name in mine]
    if not kept:
        kept = [name for name in ("token", "type") if name in mine] or list(mine[:2])
    s.race_samplers = kept
    if s.race_measure not in model_class.trace_labels:
        s.race_measure = next(iter(model_class.trace_labels), "")
    if s.race_scalar != "loglik" and s.race_scalar not in model_class.trace_labels:
        s.race_scalar = "loglik"


def eta_widgets(samplers):
    s = st.session_state
    st.radio("Starts", list(STARTS), format_func=STARTS.get, key="race_starts",
             help="chain c of every sampler starts from seed + c, so every sampler starts "
                  "from the same states. Spread starts are overdispersed, as R̂ assumes: "
                  "chains that end up agreeing have forgotten very different starts.")
    if s.race_starts == "shared":
        st.number_input("η — initial share of sites with value 1", 0.0, 1.0, step=0.1,
                        key="race_eta", help="a boundary (segmentation), state 1 (tagging), "
                                             "a split copy (toy); the rest at random")
    elif s.race_starts == "per_sampler":
        for name in samplers:
            st.number_input(f"η of {label(name)}", 0.0, 1.0, step=0.1, key=f"race_eta_{name}")


def settings():
    """Sidebar widgets; (model name, corpus or None, config)."""
    s = st.session_state
    with st.sidebar:
        st.header("Settings")
        SETTINGS.preset_picker()
        name = st.selectbox("Model", list(MODELS), format_func=lambda n: plain(MODELS[n].label),
                            key="race_model")
    model_class = MODELS[name]
    view_or_stop(model_class)  # a model of a kind no page draws says so here
    with st.sidebar:
        fit_to_model(model_class)
        picker = picker_of(model_class)
        corpus = picker.choose(f"{KEY}_{picker.code}") if picker else None
        with st.expander("Model settings"):
            options = OPTIONS.widgets(SETTINGS, model_class)
        st.multiselect("Samplers", offered(model_class.samplers), format_func=label,
                       key="race_samplers",
                       help="TYPE + TOKEN and TYPE + SENTENCE alternate whole sweeps of the two")
        st.slider("Chains per sampler", 2, MAX_CHAINS, key="race_chains",
                  help="R̂ compares chains: at least 2, and 4 is the usual choice")
        eta_widgets(s.race_samplers)
        race_page.length_input(KEY, "Passes per chain", 10, MAX_PASSES, step=100,
                               seconds_label="Engine seconds per chain")
        st.number_input("Seed", 0, race_page.MAX_SEED, key="race_seed",
                        help="chain c starts from seed + c; same seed, same chains")
        st.checkbox("TYPE: skip approximation", key="race_skip",
                    help="skip pivots already sampled in a block this pass (§4.4)")
        SETTINGS.share(picker.upload_note if picker else None)
    SETTINGS.save()
    config = dict(model=name, corpus=corpus, first=int(s.race_first), options=options,
                  samplers=tuple(s.race_samplers), chains=int(s.race_chains),
                  starts=s.race_starts, eta=chosen_etas(s.race_samplers),
                  length=race_page.length(KEY), seed=int(s.race_seed), skip=bool(s.race_skip))
    return model_class, corpus, config


def chosen_etas(samplers):
    s = st.session_state
    if s.race_starts == "per_sampler":
        return tuple((name, float(s[f"race_eta_{name}"])) for name in samplers)
    return float(s.race_eta)


# --- the corpus, cut to the page's size -------------------------------------------------------
def corpus_in_use(model_class, corpus, first):
    """The corpus the chains use: the first ``first`` units when set, else all of it."""
    picker = picker_of(model_class)
    if picker is None or corpus is None:
        return corpus
    if 0 < first < picker.data.n_units(corpus):
        return corpus.head(first)
    return corpus


def too_large(model_class, corpus, model):
    """Whether the model is too large for the page; if so, say so and offer a subsample."""
    if model.n_sites <= MAX_SITES:
        return False
    picker = picker_of(model_class)
    what = f"**{corpus.name}**" if picker else f"This {model_class.label}"
    st.warning(f"{what} has {model.n_sites:,} sites; the race page takes at most "
               f"{MAX_SITES:,} (every chain holds the whole corpus, and the page redraws them "
               "all). " + (f"Race its first {picker.data.unit} instead, or run" if picker else
                           "Choose smaller settings, or run") +
               " the whole of it with `python -m engine race` (docs/command-line.md).",
               icon=":material/warning:")
    if picker:
        kind = picker.data
        st.number_input(f"Use the first … {kind.unit}", 1, kind.n_units(corpus),
                        value=kind.units_within(corpus, model.n_sites, MAX_SITES),
                        key="race_first_offer")
        st.button("Race a subsample", on_click=use_first, type="primary")
    return True


def use_first():
    st.session_state.race_first = int(st.session_state.race_first_offer)


# --- the race ---------------------------------------------------------------------------------
def chain_plan(config):
    eta = dict(config["eta"]) if isinstance(config["eta"], tuple) else config["eta"]
    return plan(config["samplers"], config["chains"], config["seed"], **config["length"],
                skip=config["skip"], eta=eta, spread=config["starts"] == "spread")


def start(model, config):
    old = st.session_state.get("race_race")
    if old is not None:
        old.close()
    try:
        race = LiveRace(chain_pool(), model, chain_plan(config))
    except ValueError as err:
        st.error(f"Cannot start these chains: {err}")
        return
    st.session_state.race_race = race
    st.session_state.race_config = config
    st.session_state.race_model_built = model
    st.session_state.race_playing = False
    with st.spinner(f"Starting {len(race.tasks)} chains in {chain_pool().size} worker "
                    "processes…"):
        race.wait_ready()


def restart():
    start(st.session_state.race_model_built, st.session_state.race_config)


def by_sampler(race):
    """{sampler: [trace frames of its chains]} of the chains that have reported."""
    found = {}
    for task, frame in race.chain_frames():
        found.setdefault(task.sampler, []).append(frame)
    return found


def diagnosis(race, name, chains, column):
    """R̂ and ESS of ``column`` over one sampler's chains (None while they are too short),
    computed again only once the chains have grown by REDIAGNOSE (R̂ and ESS of long chains
    move slowly: a tick then costs about as much at pass 10,000 as at pass 100)."""
    held = st.session_state.get("race_diagnoses")
    if held is None or held["race"] != race.id:
        held = st.session_state.race_diagnoses = {"race": race.id, "found": {}}
    length = min(len(chain) for chain in chains)
    known = held["found"].get((name, column))
    if known is not None and length < known[0] + max(1, REDIAGNOSE * known[0]):
        return known[1]
    try:
        found = diagnose_chains(chains, column)
    except (ValueError, KeyError):  # too short yet, or no such column (no gold)
        found = None
    held["found"][(name, column)] = (length, found)
    return found


def verdict_line(race, name, chains):
    """The sampler's verdict on its log-probability, and whether its chains are still
    annealing (then they are not sampling the posterior yet, whatever R̂ says)."""
    found = diagnosis(race, name, chains, "loglik")
    if found is None:
        return (f":gray[:material/hourglass_empty:] **{label(name)}** — too few passes yet for "
                "R̂ (it needs 4 draws per chain after the warm-up half: 7 passes)")
    mark = (":green[:material/check_circle:]" if found.mixed
            else ":orange[:material/warning:]")
    line = f"{mark} **{label(name)}** — {found.verdict()}"
    hottest = max(chain["temperature"].iloc[-1] for chain in chains)
    if hottest > 1:
        line += (f"; still annealing (T = {hottest:.2f}): these chains are not sampling the "
                 "posterior yet")
    return line


def shown_ess(rhat, ess, decimals=0):
    """An ESS (or ESS/s) as the tables show it: "—" unless R̂ says the chains have mixed.
    Chains that have not mixed are not draws of one distribution, so their ESS counts
    nothing: a stuck sampler whose chains barely move can show the largest ESS/s."""
    if not rhat < RHAT_LIMIT or np.isnan(ess):
        return "—"
    return f"{ess:,.{decimals}f}"


def diagnostics_notes(rhats, too_short=False):
    """What a "—" in a diagnostics table means, for the R̂ values it shows."""
    rhats = np.asarray(rhats, dtype=float)
    notes = []
    if too_short:
        notes.append("A row of — has too few passes yet for R̂ (it needs 4 draws per chain "
                     "after the warm-up half: 7 passes).")
    if np.isnan(rhats).any():
        notes.append("R̂ — : every draw of every chain is the same value (the chains agree "
                     "exactly, or none has moved), so there is no spread to compare.")
    if (rhats >= RHAT_LIMIT).any() or np.isnan(rhats).any():
        notes.append(f"ESS — : R̂ is not below {RHAT_LIMIT}, so those chains have not mixed. "
                     "Their draws do not come from one distribution, and an effective sample "
                     "size counts nothing comparable between samplers: a stuck sampler whose "
                     "chains barely move can show the largest ESS/s.")
    return " ".join(notes)


def diagnostics_tables(race, chains_of, columns):
    """{title: table} for each of ``columns`` ({column: title}): R̂, bulk and tail ESS and ESS
    per second of that column, a row per sampler, as text; and the notes on their "—"s.
    A table per column keeps each narrow enough for a phone."""
    tables, rhats, too_short = {}, [], False
    for column, title in columns.items():
        rows = []
        for name, chains in chains_of.items():
            row = {"sampler": label(name)}
            found = diagnosis(race, name, chains, column)
            if found is None:
                too_short = True
                row.update(dict.fromkeys(DIAGNOSTICS_COLUMNS, "—"))
            else:
                rhats.append(found.rhat)
                row.update(zip(DIAGNOSTICS_COLUMNS, (
                    f"{found.chains} × {found.draws:,}", rhat_text(found.rhat),
                    shown_ess(found.rhat, found.ess_bulk), shown_ess(found.rhat, found.ess_tail),
                    shown_ess(found.rhat, found.ess_per_second, 1))))
            rows.append(row)
        tables[title] = pd.DataFrame(rows).set_index("sampler")
    return tables, diagnostics_notes(rhats, too_short)


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


def headline(race, chains_of):
    items = []
    for name, chains in chains_of.items():
        passes = min(len(chain) - 1 for chain in chains)
        seconds = np.median([chain["seconds"].iloc[-1] for chain in chains])
        logliks = [chain["loglik"].iloc[-1] for chain in chains]
        items.append((f"{label(name)} · pass {passes:,}", f"{np.median(logliks):,.1f}",
                      f"median log p of its {len(chains)} chains (from {min(logliks):,.1f} to "
                      f"{max(logliks):,.1f}); median engine time {seconds:,.2f} s"))
    race_page.metric_row(items)


def draw_race(race):
    if race.error:
        st.error(f"The chains stopped: {race.error}")
        return
    if not race.ready:
        st.info("The chains are starting (a worker loads the kernels on its first race)… "
                "press Play or Step.")
        return
    model_class = MODELS[st.session_state.race_config["model"]]
    measure = st.session_state.race_measure
    measure_label = model_class.trace_labels.get(measure, measure)
    chains_of = by_sampler(race)
    names = list(chains_of)
    headline(race, chains_of)
    for name, chains in chains_of.items():
        st.markdown(verdict_line(race, name, chains))
    frame = race.trace_frame(charts.CHAIN_ROWS)
    panels = [("loglik", "log-probability", "Log-probability")]
    if measure in frame:
        panels.append((measure, measure_label, first_up(measure_label)))
    for column, y_title, title in panels:
        left, right = st.columns(2)
        by_time = charts.chain_traces_spec(tuple(names), column, y_title,
                                           f"{title} against engine time", x="seconds",
                                           x_title="engine time (s)", x_reach=0.01)
        charts.show_spec(left, by_time, charts.chain_traces_data(frame, column, "seconds"),
                         f"race_{column}_time")
        by_sweep = charts.chain_traces_spec(tuple(names), column, y_title,
                                            f"{title} against passes")
        charts.show_spec(right, by_sweep, charts.chain_traces_data(frame, column),
                         f"race_{column}_sweeps")
    st.markdown("**Convergence diagnostics** (last half of every chain; R̂ below "
                f"{RHAT_LIMIT} means mixed)")
    columns = {"loglik": "log p"}
    if measure in frame:
        columns[measure] = measure_label
    tables, notes = diagnostics_tables(race, chains_of, columns)
    # side by side on a wide screen, one under the other on a phone (Streamlit's columns stack)
    for col, (title, table) in zip(st.columns(len(tables)), tables.items()):
        col.markdown(f"R̂ and ESS of **{title}**")
        col.table(table)
    if notes:
        st.caption(notes)
    cost = st.session_state.get("race_tick_seconds")
    if cost is not None:
        st.caption(f"The server took {cost * 1000:,.0f} ms to read and draw the chains last "
                   "time (the chains themselves run in the workers).",
                   help="each play tick reads the new trace rows, computes R̂ and ESS and "
                        "redraws the charts")


def explain_diagnostics():
    with st.expander("How to read R̂ and ESS", icon=":material/help:"):
        st.markdown(
            "Each sampler runs several chains from different starts. **R̂** (split, "
            "rank-normalised; Vehtari, Gelman, Simpson, Carpenter & Bürkner 2021) compares the "
            "spread of the log-probability *between* the chains with its spread *within* each. "
            "Chains that have forgotten where they started agree, and R̂ ≈ 1; a chain stuck "
            "near its start keeps its own level and R̂ grows. Vehtari et al. recommend using "
            f"the draws only when **R̂ < {RHAT_LIMIT}**.\n\n"
            "**ESS** (effective sample size) is how many independent draws the correlated "
            "draws are worth: *bulk* ESS for the centre of the distribution, *tail* ESS for its "
            "5% and 95% quantiles. **ESS/s** divides the bulk ESS by the engine time the kept "
            "sweeps cost, all chains together: the sampler's speed at producing information. "
            "Both use the last half of every chain (the first half is warm-up), every chain "
            "cut to the shortest one's length. The statistics are ArviZ's (arviz-stats).\n\n"
            "The **autocorrelation** at lag k is how alike a chain is to itself k sweeps "
            "later: a sampler that mixes slowly decays slowly.")
        st.markdown("With M chains (each split in two halves) of N draws, chain means "
                    "θ̄ₘ and variances sₘ², the between-chain variance B and the within-chain "
                    "variance W give (computed on the draws' normalised ranks):")
        st.latex(r"B = \frac{N}{M-1}\sum_{m}\big(\bar\theta_m - \bar\theta\big)^2,\quad "
                 r"W = \frac{1}{M}\sum_m s_m^2,\quad "
                 r"\hat R = \sqrt{\frac{\frac{N-1}{N}\,W + \frac{1}{N}\,B}{W}}")
        st.latex(r"\mathrm{ESS} = \frac{M N}{1 + 2\sum_{t \ge 1} \hat\rho_t}")
        st.caption("ρ̂ₜ: the autocorrelation at lag t, combined over the chains and summed "
                   "until it dies out (Geyer's initial monotone sequence).")


def scalar_controls(model_class):
    choices = ["loglik", *model_class.trace_labels]
    st.selectbox("Trace and autocorrelation of", choices,
                 format_func=lambda c: "log-probability" if c == "loglik"
                 else plain(model_class.trace_labels[c]), key="race_scalar")
    measures = list(model_class.trace_labels)
    if measures:
        st.selectbox("Measure charted above", measures,
                     format_func=lambda c: plain(model_class.trace_labels[c]), key="race_measure")


def draw_scalar(race):
    if not race.ready or race.error:
        return
    model_class = MODELS[st.session_state.race_config["model"]]
    column = st.session_state.race_scalar
    title = "log-probability" if column == "loglik" else model_class.trace_labels[column]
    frame = race.trace_frame(charts.CHAIN_ROWS)
    if column not in frame:
        st.caption(f"This corpus gives no {title} (it has no gold analysis).")
        return
    chains_of = by_sampler(race)
    names = list(chains_of)
    lags = [pd.DataFrame({"sampler": name, "lag": np.arange(len(acf)), "acf": acf})
            for name, chains in chains_of.items()
            for acf in [autocorrelation(chains, column)] if len(acf)]
    left, right = st.columns(2)
    charts.show_spec(left, charts.chain_traces_spec(tuple(names), column, title,
                                                    f"Trace of the {title}"),
                     charts.chain_traces_data(frame, column), "race_scalar_trace")
    if lags:
        spec = charts.autocorrelations_spec(tuple(names), "autocorrelation",
                                            f"Autocorrelation of the {title}")
        charts.show_spec(right, spec, charts.autocorrelations_data(pd.concat(lags)), "race_acf")
    else:
        right.caption("The autocorrelation needs 8 passes per chain, and chains that move.")


# --- the initialisation sweep -----------------------------------------------------------------
def sweep_settings(config):
    s = st.session_state
    cols = st.columns(3)
    cols[0].select_slider("η spacing", SWEEP_STEPS, key="race_sweep_step",
                          help="η from 0 to 1 in steps of this size: 0.1 gives 11 values")
    cols[1].number_input("Engine seconds per chain and η", 0.5, 600.0, step=1.0, format="%g",
                         key="race_sweep_seconds")
    cols[2].slider("Chains per sampler and η", 2, MAX_CHAINS, key="race_sweep_chains")
    etas = tuple(float(round(e, 10)) for e in np.arange(0, 1 + 1e-9, s.race_sweep_step))
    return dict(config, etas=etas, seconds=float(s.race_sweep_seconds),
                sweep_chains=int(s.race_sweep_chains))


def sweep_digest(model, sweep):
    """The settings of a sweep as a key for its cached result."""
    parts = {k: v for k, v in sweep.items() if k not in ("corpus", "eta", "starts", "length")}
    return hashlib.sha256(pickle.dumps((parts, model.n_sites, getattr(model, "name", ""),
                                        sweep["corpus"]))).hexdigest()


def start_sweep(model, sweep):
    grid = tasks(sweep["samplers"], sweep["sweep_chains"], sweep["etas"], sweep["seed"],
                 seconds=sweep["seconds"], skip=sweep["skip"], measure_share=MEASURE_SHARE)
    st.session_state.race_playing = False  # the sweep measures engine time: leave it the cores
    words = (f"{', '.join(map(label, sweep['samplers']))} from {len(sweep['etas'])} values of "
             f"η, {sweep['sweep_chains']} chains × {sweep['seconds']:g} s each; "
             f"{MODELS[sweep['model']].label}, seed {sweep['seed']}")
    SWEEPS.add(sweep_digest(model, sweep), words, start_grid(BuiltModel(model), grid),
               context=sweep)


def sweep_section(model, config):
    st.subheader("The initialisation sweep (Fig. 5 d–f)")
    st.caption("Every sampler from starts of every η, several chains each, for a fixed engine "
               "time: where does each end, and does it depend on where it started? The chains "
               "run on Dask in the background.")
    sweep = sweep_settings(config)
    digest = sweep_digest(model, sweep)
    total = len(sweep["etas"]) * len(sweep["samplers"]) * sweep["sweep_chains"]
    show_where_grids_run()
    finished = finished_sweeps().get(digest)  # by this session or another
    row = st.container(horizontal=True)
    if finished is None:
        minutes = total * sweep["seconds"] / chain_pool().size / 60
        if SWEEPS.run_button(row, f"Run the sweep: {total} chains, about {minutes:,.1f} min",
                             digest, icon=":material/play_arrow:"):
            start_sweep(model, sweep)
            st.rerun()
    SWEEPS.cancel_button(row, "Cancel the sweep")
    held = SWEEPS.for_settings(digest)
    if finished is not None and (held is None or held.job.state != "finished"):
        draw_sweep(*finished, sweep, "shared")
    SWEEPS.show(digest, draw_held_sweep)


def draw_held_sweep(grid, slot):
    """What a sweep of this session has finished (all of it, or the chains done before a
    cancel); a whole sweep is kept for every session with its settings."""
    result = grid.job.result()
    if result is None:
        return
    if grid.job.state == "finished":
        finished_sweeps()[grid.settings] = result
    draw_sweep(*result, grid.context, slot)


def draw_sweep(traces, table, sweep, slot="current"):
    """The sweep's bands and table; ``slot`` keeps the charts' keys apart when two sweeps are
    shown (the current one's keys are race_sweep_<column>)."""
    model_class = MODELS[sweep["model"]]
    names = list(dict.fromkeys(traces["sampler"]))
    measure = st.session_state.race_measure
    panels = [("loglik", "log-probability")]
    if measure in traces:
        panels.append((measure, model_class.trace_labels[measure]))
    for col, (column, title) in zip(st.columns(len(panels)), panels):
        charts.show(col, charts.bands(final_bands(traces, column), names, title,
                                      f"{first_up(title)} after {sweep['seconds']:g} s, "
                                      "against η"),
                    f"race_sweep_{column}" + ("" if slot == "current" else f"_{slot}"))
    st.caption("Lines: the median over the chains; bands: from the lowest to the highest chain.")
    st.dataframe(sweep_table(table), hide_index=True)
    st.caption(sweep_notes(table))


# --- the page ---------------------------------------------------------------------------------
prologue("Sampler race",
         "Several chains of every sampler, from different starts, on any model and corpus: do "
         "they agree (mixed) or does each stay near its start (stuck)? The chains run in worker "
         "processes on every core; this page only reads their traces.")
SETTINGS.restore()
model_class, corpus, config = settings()
warm_samplers(model_class, config["samplers"])  # also what its chain workers load
used = corpus_in_use(model_class, corpus, config["first"])
if not config["samplers"]:
    st.error("Choose at least one sampler.")
elif picker_of(model_class) is not None and corpus is None:
    st.info("The chains below keep the last usable corpus.")
else:
    try:
        model = build_model(config["model"], used, config["options"])
    except ValueError as err:
        st.error(f"Cannot build this model: {err}")
        model = None
    if model is not None and not too_large(model_class, used, model) and \
            start_anew(KEY, config):
        start(model, config)

if "race_race" in st.session_state:
    race = st.session_state.race_race
    shown_class = MODELS[st.session_state.race_config["model"]]
    built = st.session_state.race_model_built
    st.caption(f"**{shown_class.label}**, {built.n_sites:,} sites; "
               f"{len(race.tasks)} chains ({st.session_state.race_config['chains']} per "
               f"sampler) in {chain_pool().size} worker processes.")
    playback.controls(KEY, on_reset=restart)
    playback.live(KEY, draw_race)
    explain_diagnostics()
    scalar_controls(shown_class)
    playback.live(KEY, draw_scalar, advances=False)
    sweep_section(built, st.session_state.race_config)
exercises.show(SETTINGS)  # predict, then run: ui/lesson_exercises.py
