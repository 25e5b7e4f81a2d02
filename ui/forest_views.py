"""The Forests lesson's views of an SCFG race (Peng & Gildea 2014): a tile per sampler and
log p(rules) against engine time and passes (Fig. 4), one pair's alignment grid (Fig. 1) and
forest (Fig. 2) with the chain's tree and cuts, one node's edges as eq. 9 weighs them, the
rules in use, and on a tiny corpus every chain's visits against the exact posterior."""
import html

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from engine.models import registry
from engine.report.plots import style
from ui import race_page
from ui.charts import show, show_traces
from ui.forest_svg import alignment_grid, hypergraph
from ui.kinds.aligned import pair_view
from ui.theme import EXACT_COLOUR, ROW_FONT, colour, label, row_number

MODEL = registry.get("scfg")
LARGEST_DRAWN = 80  # nodes: a larger forest is not drawn
EXACT_PAIRS = 5     # a corpus of at most so many pairs keeps every pass's analysis …
EXACT_LIMIT = 4096  # … and, with at most so many analyses, is checked against its posterior


def pairs(settings, race):
    """The pairs one can choose: the race's, or the whole corpus's when it races one alone
    (the page's settings keep its size: ``pairs``)."""
    if st.session_state[settings.key("alone")]:
        return st.session_state.get(settings.key("pairs"), 1)
    return len(race_page.first_model(race).forests)


def shown_pair(settings):
    """The shown pair's place in the race's corpus (0 when the race has it alone)."""
    state = st.session_state
    return 0 if state[settings.key("alone")] else state[settings.key("pair")] - 1


def view_controls(settings, race):
    """Below the charts (on a phone they come first), above the views they choose; a sampler
    or a pair this race does not have (a link's) falls back to one it has."""
    state, key = st.session_state, settings.key
    race_page.fit_shown(settings, race)
    count = pairs(settings, race)
    settings.fit("pair", max(1, min(state[key("pair")], count)),
                 f"the corpus has {count:,} pairs")
    cols = st.columns(2)
    cols[0].selectbox("Show the sampler", list(race.runs), format_func=label, key=key("shown"))
    cols[1].number_input("Pair", 1, count, key=key("pair"),
                         help="the sentence pair drawn below (its line in the corpus)")


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


def metrics_and_charts(race, key_of):
    """One metric per sampler, then log p(rules) against engine time and passes (Fig. 4);
    ``key_of`` keys the page's widgets."""
    items = []
    for name, run in race.runs.items():
        last = run.trace[-1]
        items.append((f"{label(name)} · pass {run.sweeps_done:,}", f"{last['loglik']:,.1f}",
                      f"{run.model.loglik_label} ({prior_name(run.model)}); {last['rules']:,} "
                      f"rules in use, {last['rule_types']:,} distinct; engine time "
                      f"{run.seconds:,.3f} s", f"{last['rule_types']:,} distinct rules"))
    race_page.metric_row(items, key=key_of("metrics"))
    left, right = st.columns(2)
    race_page.over_time(left, race, "loglik", "log p(rules)",
                        "Log p(rules) over engine time (Fig. 4, left)", key_of("loglik_time"))
    show_traces(right, race, "loglik", "log p(rules)",
                "Log p(rules) over passes (Fig. 4, right)", key_of("loglik_passes"))


def draw_pair(name, run, u, number, key_of):
    """Chain ``name``'s tree in pair ``u`` of its corpus (number ``number`` of the page's):
    the alignment grid (Fig. 1), the forest (Fig. 2), the pair's rules, one node's edges and
    the chain's rules over the corpus."""
    model, state = run.model, run.state
    view = pair_view(model, state, u)
    st.markdown(f"<div style='{ROW_FONT} font-size:0.95rem'>"
                f"{row_number(number)}"
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
                     hide_index=True, key=key_of(f"pair_rules_{name}"))
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
    draw_edges(model, state, u, number, key_of)
    draw_lexicon(name, model, state, key_of)


def draw_edges(model, state, u, number, key_of):
    """One node's incoming edges as eq. 9 weighs them, with and without ∏ deg(v)."""
    fo, base = model.forests[u], int(model.pair_start[u])
    words = model.corpus.source[u]
    choices = [base + v for v in range(fo.n_nodes)
               if fo.deg(v) > 1 and (v == fo.root or state.up[base + v] >= 0)]
    if not choices:
        st.caption(f"No node on pair {number}'s tree has more than one incoming edge: its "
                   "tree is the forest's only one.")
        return
    n = st.selectbox("A node on the tree with a choice of edges", choices,
                     format_func=lambda n: " ".join(words[fo.f_lo[n - base]:fo.f_hi[n - base]]),
                     key=key_of("node"))
    table = pd.DataFrame(model.edge_alternatives(state, n)).rename(columns={
        "edge": "edge (its parts)", "chosen": "now", "rule": "the rule holding the node",
        "deg": "∏ deg(v)", "log_p_rules": "log Π P(rᵢ)", "p": "P(edge) (eq. 9)",
        "p_without_deg": "without deg(v)"})
    st.markdown("**Its incoming edges as eq. 9 weighs them**: the rules each would make, drawn "
                "in turn, times ∏ deg(v) over the nodes it brings onto the tree below the node "
                "(their values off the tree as they stand now; a step first redraws those "
                "at random)")
    st.dataframe(table, hide_index=True, key=key_of("edges_table"),
                 column_config={c: st.column_config.NumberColumn(format="%.3f")
                                for c in ("log Π P(rᵢ)", "P(edge) (eq. 9)", "without deg(v)")})


def draw_lexicon(name, model, state, key_of):
    """The shown sampler's rules over the corpus, most used first (``write_rules``'s)."""
    ranked = sorted(model.rule_counts(state).items(), key=lambda item: (-item[1], item[0]))
    table = pd.DataFrame(ranked, columns=["rule", "count"])
    st.markdown(f"**{label(name)}'s rules over the corpus: {len(table):,} distinct, "
                f"{int(table['count'].sum()):,} in use** (most used first)")
    st.dataframe(table, height=300 if len(table) > 8 else "auto", hide_index=True,
                 key=key_of(f"rules_{name}"))
    st.download_button("Rules (Hiero format)", model.write_rules(state),
                       file_name=f"rules-{name}.txt", mime="text/plain",
                       key=key_of(f"rules_download_{name}"),
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


def draw_exact(race, corpus, u, number, key_of):
    """On a tiny corpus: how often each sampler's chain has had each edge at pair ``u``'s root
    (number ``number`` of the page's), and each number of rules, against the exact
    posterior."""
    model = next(iter(race.runs.values())).model
    if next(iter(race.runs.values())).values is None or model.n_analyses() > EXACT_LIMIT:
        return
    prior = (("alpha", model.alpha), ("pitman_yor", model.pitman_yor),
             ("discount", model.discount), ("poisson", model.poisson))
    values, p, rules = exact_posterior(corpus, prior)
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
                               "source words)", "Root edge"), key_of("exact_chart"))
    counts = np.arange(rules.min(), rules.max() + 1)
    seen = {name: np.array([row["rules"] for row in chain.trace[1:]])
            for name, chain in race.runs.items()}
    data = shares([str(k) for k in counts], [p[rules == k].sum() for k in counts],
                  {name: [(chain == k).mean() for k in counts]
                   for name, chain in seen.items() if len(chain)})
    show(right, exact_chart(data, list(race.runs), "rules in use", "Rules in use"),
         key_of("rules_chart"))


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
