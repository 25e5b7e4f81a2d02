"""Tree fragments from forests (Peng & Gildea 2014): SCFG rules learned from word-aligned sentence
pairs. Each pair's phrase-decomposition forest holds every way to split it into phrase pairs;
TOKEN, TYPE, TYPE-greedy, TYPE-anneal and the one-stage draw (as the paper has it, and
corrected) race from the same start, each choosing a tree in every forest and where to cut it
into rules. The page draws one pair as the paper's Fig. 1 (its alignment grid, the phrase pairs
boxed) and Fig. 2 (its forest, the current tree and its cuts), the rules in use, and
log p(rules) against engine time and against passes (Fig. 4).

Widgets and plots only; every number comes from the model (engine.models.scfg) and engine.run.
"""
import html

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from engine.report.plots import style
from engine.models import registry
from ui import exercises, forest_parallel, playback, race_page
from ui.charts import show, show_traces
from ui.forest_svg import alignment_grid, hypergraph
from ui.kinds.aligned import VIEW, pair_view
from ui.models import ModelOptions, build_model, show_formulas
from ui.page import prologue
from ui.settings import PageSettings, Setting
from ui.theme import EXACT_COLOUR, ROW_FONT, colour, label, row_number
from ui.warmup import warm_samplers

KEY = "fo"
MAX_PASSES = 5_000
MODEL = registry.get("scfg")
OPTIONS = ModelOptions((MODEL,))
PICKER = VIEW.picker
LARGEST_DRAWN = 80  # nodes: a larger forest is not drawn
EXACT_PAIRS = 5     # a corpus of at most so many pairs keeps every pass's analysis …
EXACT_LIMIT = 4096  # … and, with at most so many analyses, is checked against its posterior

# each claim is checked by tests/app/test_preset_claims.py. Measured on the built-in pairs
# (48 pairs, 396 sites) over seeds 0–29 at equal passes, where a seeded run is the same on any
# machine: from η = 1, TOKEN's log p(rules) at pass 30 is exactly its start's in 30 of 30 seeds,
# and TYPE is at least 160 above it at every pass from 5 on; TYPE-anneal is more than 400 below
# TOKEN at pass 3 (β = 0.1: hot) and at pass 60 at least 335 above TOKEN and within 121 of TYPE.
# On the tiny four-word pair over 2,000 passes, TOKEN without deg(v) has the root's middle edge
# in 31–37 % of its passes (exact: 20 %), with it in 17–23 %. On the tiny recurring pairs over
# 1,000 passes from η = 1, one-stage spends 50–56 % of its passes at three rules (exact 77.7 %),
# one-stage + MH and TYPE (no skip) 74–81 %.
# On the five copies of one pair under the Pitman-Yor prior (α = 1, d = 0.9) over 1,000 passes
# from η = 1, seeds 0–29: with T = N^d TOKEN and TYPE spend 81–88 % of their passes with every
# pair one rule (five rules; exact 96.7 %), with exact seating 95–98 %.
# Too many workers (the parallel section, TYPE from η = 1, 30 iterations, seeds 0–5): one
# worker ends at −1,171 … −1,223, two at −1,422 … −1,486, one pair a worker stays at the start
# (−1,587).
PRESETS = {
    "TOKEN stuck at all-cut": dict(
        source="builtin", samplers=("token", "type"), eta=1.0, passes=30, seed=0,
        clock="passes", shown="token"),
    "TYPE-anneal: hot, then as high as TYPE": dict(
        source="builtin", samplers=("token", "type", "type-anneal"), eta=1.0, passes=60,
        seed=0, clock="passes", shown="type-anneal"),
    "Without deg(v) the edge sampler is wrong": dict(
        source="monotone", samplers=("token",), eta=1.0, passes=2000, seed=0,
        clock="passes", shown="token", pair=1, no_deg=True),
    "Too many workers": dict(
        source="builtin", samplers=("type",), eta=1.0, passes=30, seed=0, clock="passes",
        shown="type", workers=("1", "2", forest_parallel.EVERY_PAIR), iterations=30,
        parallel_sampler="type"),
    "Pitman-Yor with T = Nᵈ: too many rules": dict(
        source="copies", samplers=("token", "type"), eta=1.0, passes=1000, seed=0,
        clock="passes", shown="token", skip=False, alpha=1.0, pitman_yor=True, discount=0.9),
    "Pitman-Yor with exact seating: on the mark": dict(
        source="copies", samplers=("token", "type"), eta=1.0, passes=1000, seed=0,
        clock="passes", shown="token", skip=False, alpha=1.0, pitman_yor=True, discount=0.9,
        exact_seating=True),
    "One-stage is biased; corrected, it is not": dict(
        source="recurring", samplers=("one-stage", "one-stage-mh", "type"), eta=1.0,
        passes=1000, seed=0, clock="passes", shown="one-stage", skip=False),
}
SETTINGS = PageSettings(KEY, (
    *PICKER.settings,
    *race_page.race_settings((MODEL,), MAX_PASSES, samplers=("token", "type", "type-anneal")),
    *OPTIONS.settings(),
    Setting("skip", True, bool, "the skip approximation"),
    Setting("shown", "type", str, "the sampler shown", choices=MODEL.samplers, words=label),
    Setting("pair", 1, int, "the pair shown", 1, 10**6),
    Setting("alone", False, bool, "the race on the shown pair alone"),
    *forest_parallel.SETTINGS,
    *playback.SETTINGS,
), PRESETS)


def settings():
    """Sidebar widgets; return (corpus, config) — corpus None when unusable."""
    with st.sidebar:
        st.header("Settings")
        SETTINGS.preset_picker()
        corpus = PICKER.choose(KEY)
        st.multiselect("Samplers", MODEL.samplers, format_func=label, key="fo_samplers")
        st.number_input("η — initial cut probability", 0.0, 1.0, step=0.1, key="fo_eta",
                        help="each node starts cut with probability η, on a tree drawn "
                             "uniformly: 1 = every phrase pair its own rule (the paper's "
                             "start), 0 = every pair one rule")
        race_page.length_input(KEY, "Passes per run", 1, MAX_PASSES, step=10,
                               help="TYPE-anneal's β climbs from 0.1 to 1.3 by 0.1 every 3 "
                                    "passes, then falls back to 1 (pass 45 on)")
        race_page.seed_input(KEY)
        with st.expander("Model settings"):
            options = OPTIONS.widgets(SETTINGS, MODEL)
        race_page.skip_checkbox(KEY)
        st.checkbox("Race on the shown pair alone", key="fo_alone",
                    help="the samplers see only the pair chosen below the charts: one pair's "
                         "moves step by step, and on a short pair its exact posterior")
        SETTINGS.share(PICKER.upload_note)
    SETTINGS.save()
    if corpus is not None:
        st.session_state.fo_pairs = len(corpus)
        if st.session_state.fo_alone:
            corpus = corpus.pair(min(st.session_state.fo_pair, len(corpus)) - 1)
    config = race_page.race_config(KEY, corpus, model=MODEL.name, hyperparameters=options,
                                   skip=bool(st.session_state.fo_skip))
    return corpus, config


def prior_name(model):
    return "the Pitman-Yor prior's, exact" if model.pitman_yor else "the DP's, eq. 4"


def prior_caption(model):
    """What the Pitman-Yor prior's samplers are: approximate (the paper's tables) or exact."""
    prior = (f"Pitman-Yor prior per rule length (d = {model.discount:g}, λ = "
             f"{model.poisson:g})")
    if model.exact_seating:
        return (f"{prior}, **exact seating**: the chain keeps each rule's tables; TOKEN's cut "
                "and TYPE's g(m) sum the touched rules' tables out, the edge step is corrected "
                "by Metropolis-Hastings — every sampler but plain one-stage is exact. "
                "log p(rules) is exact, the tables summed out.")
    return (f"{prior}: **every sampler is approximate** here — its moves use the paper's table "
            "counts T = Nᵈ (eqs. 6–7); tick *exact seating* in Model settings for exact moves "
            "on a small corpus. log p(rules) is exact, the tables summed out.")


def make_model(corpus, config):
    return build_model(config["model"], corpus, config["hyperparameters"])


def draw_race(race):
    """One metric per sampler, then log p(rules) against engine time and passes (Fig. 4)."""
    items = []
    for name, run in race.runs.items():
        last = run.trace[-1]
        items.append((f"{label(name)} · pass {run.sweeps_done:,}", f"{last['loglik']:,.1f}",
                      f"{run.model.loglik_label} ({prior_name(run.model)}); {last['rules']:,} rules "
                      f"in use, {last['rule_types']:,} distinct; engine time "
                      f"{run.seconds:,.3f} s", f"{last['rule_types']:,} distinct rules"))
    race_page.metric_row(items, key="fo_metrics")
    left, right = st.columns(2)
    race_page.over_time(left, race, "loglik", "log p(rules)",
                        "Log p(rules) over engine time (Fig. 4, left)", "fo_loglik_time")
    show_traces(right, race, "loglik", "log p(rules)",
                "Log p(rules) over passes (Fig. 4, right)", "fo_loglik_passes")


def shown_run(race):
    return race.runs[st.session_state.fo_shown]


def check_view(race):
    """A sampler or a pair this race does not have (a link, a smaller corpus) falls back to
    one it has."""
    s = st.session_state
    if s.fo_shown not in race.runs:
        SETTINGS.fit("shown", next(iter(race.runs)), "this race does not run that sampler")
    SETTINGS.fit("pair", max(1, min(s.fo_pair, pairs(race))),
                 f"the corpus has {pairs(race):,} pairs")


def pairs(race):
    """The pairs one can choose: the race's, or the whole corpus's when it races one alone."""
    if st.session_state.fo_alone:
        return st.session_state.get("fo_pairs", 1)
    return len(next(iter(race.runs.values())).model.forests)


def shown_pair():
    """The shown pair's place in the race's corpus (0 when the race has it alone)."""
    return 0 if st.session_state.fo_alone else st.session_state.fo_pair - 1


def view_controls(race):
    """Below the charts, above the views they choose: on a phone the charts come first."""
    cols = st.columns(2)
    cols[0].selectbox("Show the sampler", list(race.runs), format_func=label, key="fo_shown")
    cols[1].number_input("Pair", 1, pairs(race), key="fo_pair",
                         help="the sentence pair drawn below (its line in the corpus)")


def draw_pair(race):
    """The shown sampler's tree in the shown pair: the alignment grid (Fig. 1), the forest
    (Fig. 2) and the pair's rules."""
    name, run = st.session_state.fo_shown, shown_run(race)
    model, state = run.model, run.state
    u = shown_pair()
    view = pair_view(model, state, u)
    st.markdown(f"<div style='{ROW_FONT} font-size:0.95rem'>"
                f"{row_number(st.session_state.fo_pair)}"
                f"{html.escape(' '.join(view.source))} <span style='color:#999'>‖</span> "
                f"{html.escape(' '.join(view.target))}</div>", unsafe_allow_html=True)
    fo = model.forests[u]
    left, right = st.columns([3, 2])
    with left:
        st.markdown(f"**The alignment, its {fo.n_nodes} phrase pairs boxed** (Fig. 1; "
                    f"{label(name)}'s rules after pass {run.sweeps_done:,} coloured, one "
                    "colour a rule, a rule's inner phrase pairs dashed)")
        st.markdown(scrolled(alignment_grid(view)), unsafe_allow_html=True)
    with right:
        rules = [model.rule_text(state, r) for r in model.rule_roots(state, u)]
        counts = model.rule_counts(state)
        st.markdown(f"**The pair's {len(rules)} rules** (their counts over the corpus; [X,k] "
                    "is the k-th nonterminal in source order)")
        st.dataframe(pd.DataFrame({"rule": rules, "count": [counts[r] for r in rules]}),
                     hide_index=True, key=f"fo_pair_rules_{name}")
    trees = fo.n_trees()
    st.markdown(f"**The forest: {fo.n_nodes} nodes, {fo.n_edges} hyperedges, {trees:,} "
                f"tree{'s' if trees != 1 else ''}** (Fig. 2; each node a phrase pair, source "
                "over target; each dot a hyperedge, joining a node to the phrase pairs it "
                "splits into; the current tree's edges dark, a cut dashed, a rule's root "
                "filled; deg: the node's choice of edges)")
    if fo.n_nodes > LARGEST_DRAWN:
        st.caption(f"This forest has more than {LARGEST_DRAWN} nodes: it is not drawn "
                   "(choose a shorter pair).")
    else:
        st.markdown(scrolled(hypergraph(view)), unsafe_allow_html=True)
    draw_edges(model, state, u)
    draw_lexicon(name, model, state)


def draw_edges(model, state, u):
    """One node's incoming edges as eq. 9 weighs them, with and without ∏ deg(v)."""
    fo, base = model.forests[u], int(model.pair_start[u])
    words = model.corpus.source[u]
    choices = [base + v for v in range(fo.n_nodes)
               if fo.deg(v) > 1 and (v == fo.root or state.up[base + v] >= 0)]
    if not choices:
        st.caption(f"No node on pair {st.session_state.fo_pair}'s tree has more than one incoming edge: its tree "
                   "is the forest's only one.")
        return
    n = st.selectbox("A node on the tree with a choice of edges", choices,
                     format_func=lambda n: " ".join(words[fo.f_lo[n - base]:fo.f_hi[n - base]]),
                     key="fo_node")
    table = pd.DataFrame(model.edge_alternatives(state, n)).rename(columns={
        "edge": "edge (its parts)", "chosen": "now", "rule": "the rule holding the node",
        "deg": "∏ deg(v)", "log_p_rules": "log Π P(rᵢ)", "p": "P(edge) (eq. 9)",
        "p_without_deg": "without deg(v)"})
    st.markdown("**Its incoming edges as eq. 9 weighs them**: the rules each would make, drawn "
                "in turn, times ∏ deg(v) over the nodes it brings onto the tree below the node "
                "(their values off the tree as they stand now; a step first redraws those "
                "at random)")
    st.dataframe(table, hide_index=True, key="fo_edges_table",
                 column_config={c: st.column_config.NumberColumn(format="%.3f")
                                for c in ("log Π P(rᵢ)", "P(edge) (eq. 9)", "without deg(v)")})


def draw_lexicon(name, model, state):
    """The shown sampler's rules over the corpus, most used first (``write_rules``'s)."""
    ranked = sorted(model.rule_counts(state).items(), key=lambda item: (-item[1], item[0]))
    table = pd.DataFrame(ranked, columns=["rule", "count"])
    st.markdown(f"**{label(name)}'s rules over the corpus: {len(table):,} distinct, "
                f"{int(table['count'].sum()):,} in use** (most used first)")
    st.dataframe(table, height=300 if len(table) > 8 else "auto", hide_index=True,
                 key=f"fo_rules_{name}")
    st.download_button("Rules (Hiero format)", model.write_rules(state),
                       file_name=f"rules-{name}.txt", mime="text/plain",
                       key=f"fo_rules_download_{name}",
                       help="[X] ||| source ||| target ||| count, a rule a line")


@st.cache_data(max_entries=4, show_spinner="Enumerating every analysis…")
def exact_posterior(corpus, prior):
    """Every analysis of a tiny corpus, its exact posterior (``ScfgModel.exact_posterior``)
    under the prior's options ((name, value) pairs) and its rules in use; the same whether or
    not the sampler weighs by deg(v): that is a sampler's setting."""
    model = MODEL.from_corpus(corpus, **dict(prior))
    values, p = model.exact_posterior()
    rules = np.array([model.state_from_values(v).n_rules[0] for v in values])
    return values, p, rules


def root_edges(model, u):
    """(the place of pair u's root edge in ``values``, each of its edges in words)."""
    fo = model.forests[u]
    words = model.corpus.source[u]
    names = [" | ".join(" ".join(words[fo.f_lo[t]:fo.f_hi[t]]) for t in tails)
             for tails in fo.edges(fo.root)]
    return model.n_sites + int(model.arrays["pair_root"][u]), names


def draw_exact(race):
    """On a tiny corpus: how often each sampler's chain has had each edge at the shown pair's
    root, and each number of rules, against the exact posterior."""
    model = next(iter(race.runs.values())).model
    u, number = shown_pair(), st.session_state.fo_pair
    if shown_run(race).values is None or model.n_analyses() > EXACT_LIMIT:
        return
    prior = (("alpha", model.alpha), ("pitman_yor", model.pitman_yor),
             ("discount", model.discount), ("poisson", model.poisson))
    values, p, rules = exact_posterior(st.session_state.fo_corpus, prior)
    st.markdown(f"**How often each chain has been where, against the exact posterior** (over "
                f"every pass so far; {model.n_analyses():,} analyses enumerated)")
    left, right = st.columns(2)
    where, names = root_edges(model, u)
    if len(names) < 2:
        left.caption(f"Pair {number}'s root has one edge: there is no edge to check.")
    else:
        seen = {name: np.array([v[where] for v in chain.values[1:]])
                for name, chain in race.runs.items()}
        data = shares(names, [p[values[:, where] == e].sum() for e in range(len(names))],
                      {name: [(chain == e).mean() for e in range(len(names))]
                       for name, chain in seen.items() if len(chain)})
        show(left, exact_chart(data, list(race.runs), f"pair {number}'s root edge (its parts' "
                               "source words)", "Root edge"), "fo_exact_chart")
    counts = np.arange(rules.min(), rules.max() + 1)
    seen = {name: np.array([row["rules"] for row in chain.trace[1:]])
            for name, chain in race.runs.items()}
    data = shares([str(k) for k in counts], [p[rules == k].sum() for k in counts],
                  {name: [(chain == k).mean() for k in counts]
                   for name, chain in seen.items() if len(chain)})
    show(right, exact_chart(data, list(race.runs), "rules in use", "Rules in use"),
         "fo_rules_chart")


def shares(values, exact, chains):
    """The exact posterior's share of each value and each chain's, as rows for
    ``exact_chart``."""
    rows = [dict(value=v, sampler=label("exact"), share=float(x)) for v, x in zip(values, exact)]
    for name, part in chains.items():
        rows += [dict(value=v, sampler=label(name), share=float(x)) for v, x in zip(values, part)]
    return pd.DataFrame(rows)


def exact_chart(data, samplers, axis, what):
    """Bars of each chain's share of passes at each value, the exact share a dark tick."""
    order = [label(name) for name in samplers]
    bars = alt.Chart(data[data.sampler != label("exact")]).mark_bar().encode(
        x=alt.X("value:N", title=axis, sort=None, axis=alt.Axis(labelAngle=0)),
        xOffset=alt.XOffset("sampler:N", sort=order),
        y=alt.Y("share:Q", title="share of passes", scale=alt.Scale(domain=[0, 1])),
        color=alt.Color("sampler:N", sort=order, scale=alt.Scale(
            domain=order, range=[colour(name) for name in samplers]), title=None),
        tooltip=["sampler:N", "value:N", alt.Tooltip("share:Q", format=".3f")])
    ticks = alt.Chart(data[data.sampler == label("exact")]).mark_tick(
        color=EXACT_COLOUR, thickness=3, size=30).encode(
        x=alt.X("value:N", sort=None), y="share:Q",
        tooltip=[alt.Tooltip("share:Q", format=".3f", title="exact")])
    return style(alt.layer(bars, ticks), [f"{what}: the chains' shares of passes",
                                          "against the exact posterior (dark ticks)"], 260)


def scrolled(svg):
    """A drawing that scrolls sideways when wider than its column."""
    return f"<div style='overflow-x:auto;padding-bottom:4px'>{svg}</div>"


# --- the page ---------------------------------------------------------------------------------
prologue("Tree fragments from forests",
         "SCFG rules learned from word-aligned sentence pairs (Peng & Gildea 2014): each "
         "pair's forest holds every way to split it into phrase pairs, and a sampler chooses a "
         "tree in it and where to cut the tree into rules. Every sampler starts from the same "
         "trees and cuts; a pass visits every node of every pair's current tree once.")
SETTINGS.restore()
corpus, config = settings()
warm_samplers(MODEL, config["samplers"])
race_page.follow_settings(KEY, corpus, config, make_model,
                          record_values=corpus is not None and len(corpus) <= EXACT_PAIRS)

if "fo_race" in st.session_state:
    race = st.session_state.fo_race
    shown = st.session_state.fo_corpus
    first_model = next(iter(race.runs.values())).model
    st.caption(f"**{shown.name}**: {len(first_model.forests):,} pairs, "
               f"{first_model.n_nodes:,} forest nodes ({first_model.n_sites:,} sites).")
    if first_model.pitman_yor:
        st.caption(prior_caption(first_model))
    playback.controls(KEY, on_reset=lambda: race_page.restart(
        KEY, make_model, record_values=len(shown) <= EXACT_PAIRS))
    check_view(race)
    playback.live(KEY, draw_race)
    view_controls(race)
    playback.live(KEY, draw_pair, advances=False)
    playback.live(KEY, draw_exact, advances=False)
    forest_parallel.section(shown, st.session_state.fo_config, make_model)
    show_formulas(first_model)
    st.markdown(
        "#### What to look for\n"
        "- **TOKEN** (Algorithm 1) walks each pair's tree from the root: at every node it "
        "redraws the incoming hyperedge (eq. 9), then the cut (eq. 8). From η = 1 every phrase "
        "pair is its own rule; merging two means making a composed rule that does not exist "
        "yet, whose first copy is weighed by the base P₀ alone — 1/V_f for each of its source "
        "symbols times 1/V_e for each target symbol, tiny — so TOKEN hardly ever merges: its log p stays where it started.\n"
        "- **TYPE** (Algorithm 2) gathers every node of the same type (r₁, r₂, r₃) whose rules "
        "share no node, and draws how many to cut: merging a whole block at once pays the "
        "base once and the counts after, so composed rules such as `[X,1] o [X,2] ||| [X,2] "
        "the [X,1]` appear everywhere in one move. [Type blocks](./type_blocks?model=scfg) "
        "takes TYPE's moves on these pairs one at a time: the pivot's type (r₁ against r₂ + "
        "r₃), the sites the rule index finds, those left out for r₂ or for a conflict, and "
        "p(m).\n"
        "- **∏ deg(v)** in eq. 9: the chain keeps an edge and a cut at every node, on the "
        "tree or not, and a tree whose nodes have more incoming edges has more such "
        "completions. Leaving the factor out (Model settings) samples the wrong posterior.\n"
        "- **One-stage** (eq. 12) draws a block's sites one after another, each from its "
        "conditional given those before: each step is normalised as if the later sites did "
        "not exist, so it is not the block's exact law; **one-stage + MH** accepts or rejects "
        "the draw against the exact weights. On the tiny recurring pairs (preset \"One-stage "
        "is biased\") one-stage spends about half its passes with every pair one rule, where "
        "the exact posterior puts 78 %: the bars beside the exact ticks show it.\n"
        "- **Pitman-Yor** (Model settings): a restaurant per rule length with a Poisson "
        "length prior (eq. 5), which favours reusing rules more than the DP. The paper's moves "
        "count tables as T = Nᵈ (eqs. 6–7), an approximation: the lab labels every sampler "
        "approximate under it and reports the exact log p (tables summed out). At d = 0 it is "
        "a DP per length, and the samplers are exact again. **Exact seating** keeps each "
        "rule's tables in the chain and makes the moves exact at any d (small corpora): on "
        "five copies of one two-word pair at d = 0.9 the approximate TOKEN spends 85 % of its "
        "passes with every pair one rule where the exact posterior puts 97 %; with exact "
        "seating it puts 97 % too.\n"
        "- **Parallel** (below the charts): k workers each sweep a share of the pairs with "
        "counts that are one iteration old, and TYPE's blocks come only from their own pairs. "
        "On KFTT two workers nearly halve an iteration; with one pair a worker (preset \"Too "
        "many workers\") every block is one pair's and TYPE is as stuck as TOKEN.\n"
        "- **TYPE-anneal** raises the posterior to β, from 0.1 up to 1.3 and back to 1: hot, "
        "it merges and splits almost at random; cooled, it samples the posterior.\n"
        "- The paper measures the rules by the BLEU of a translation system built on them, "
        "trained on tens of thousands of pairs (TYPE 25.88 against TOKEN 25.62 on its KFTT "
        "test set); the lab has neither the system nor the pairs, so it shows the "
        "likelihood.")
exercises.show(SETTINGS)  # predict, then run: ui/lesson_exercises.py
