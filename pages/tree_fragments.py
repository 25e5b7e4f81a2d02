"""Tree fragments (Liang, Jordan & Klein 2010, §3–5 and Fig. 5c): the probabilistic
tree-substitution grammar learned from a treebank by TOKEN, TYPE, TOKEN-anneal, TYPE-greedy and
SENTENCE racing from the same cuts, with log p(fragments) and held-out bracket F1 over engine
time, the trees cut into their fragments, the fragment lexicon, and the held-out parses of the
sampled grammar beside the PCFG baselines.

Widgets and plots only; every number comes from the model (engine.models.ptsg), its grammar
(engine.models.ptsg.grammar), the parsing pipeline and engine.run.
"""
import html
import math
from collections import Counter
from dataclasses import replace

import streamlit as st

from datasets.trees import clean, map_unknown, preterminals
from engine.models import registry
from engine.models.ptsg.grammar import derivation, derivation_parser, posterior_grammar
from engine.models.ptsg.model import MAX_LENGTH, held_out_split
from engine.parsing.grammars import evaluate
from ui import exercises, playback, race_page
from ui.charts import show_traces
from ui.kinds.trees import VIEW, binarised, labels_toggle, legend, tree_row
from ui.models import ModelOptions, build_model
from ui.page import prologue
from ui.settings import PageSettings, Setting
from ui.theme import ROW_FONT, label, row_number
from ui.tree_svg import shown_label, tree_svg
from ui.warmup import warm_samplers

KEY = "tf"
MAX_PASSES = 20_000
SHOWN_TREES = 3     # training trees drawn with their fragments
SHOWN_PARSES = 3    # held-out parses drawn with theirs
HELD_OUT = 0.2      # this page's default share of held-out trees: F1 is charted from the start
MODEL = registry.get("ptsg")
OPTIONS = ModelOptions((MODEL,))
PICKER = VIEW.picker
ALL = "every nonterminal"

# each claim is checked by tests/app/test_preset_claims.py. Measured on the built-in treebank
# (72 training trees, 18 held out) over seeds 0–29 at equal passes, where a seeded run is the
# same on any machine: TYPE above TOKEN at every pass from 5 to 20 from η = 1 in 30 of 30 seeds
# (by 30 or more); TOKEN-anneal more than 200 below both at pass 25 in 30 of 30, and within 54
# of TOKEN at pass 100; TYPE-greedy from η = 0 frozen from pass 50 on, at least 124 below TYPE
# and 59 below TOKEN at pass 100, in 30 of 30 (from η = 1 it ends above both: a hill-climb finds
# a higher state than the posterior's typical ones).
PRESETS = {
    "From η = 1, TYPE climbs ahead of TOKEN": dict(
        source="builtin", samplers=("token", "type"), eta=1.0, passes=20, seed=0,
        clock="passes", shown="type"),
    "TOKEN-anneal: far below while hot, level once cool": dict(
        source="builtin", samplers=("token", "anneal", "type"), eta=1.0, passes=100, seed=0,
        clock="passes", shown="anneal"),
    "From η = 0, TYPE-greedy sticks far below TYPE": dict(
        source="builtin", samplers=("token", "type", "greedy"), eta=0.0, passes=100, seed=0,
        clock="passes", shown="greedy"),
}
SETTINGS = PageSettings(KEY, (
    *PICKER.settings,
    *race_page.race_settings((MODEL,), MAX_PASSES),
    *(replace(setting, default=HELD_OUT) if setting.name == "held_out" else setting
      for setting in OPTIONS.settings()),
    Setting("skip", True, bool, "the skip approximation"),
    Setting("shown", "type", str, "the sampler shown", choices=MODEL.samplers, words=label),
    Setting("first", 1, int, "the first tree shown", 1, 10**7),
    Setting("root", ALL, str, "the nonterminal of the fragment lexicon"),
    Setting("parse", 1, int, "the first held-out sentence shown", 1, 10**7),
    *playback.SETTINGS,
), PRESETS)


def settings():
    """Sidebar widgets; return (corpus, config) — corpus None when unusable."""
    with st.sidebar:
        st.header("Settings")
        SETTINGS.preset_picker()
        corpus = PICKER.choose(KEY)
        st.multiselect("Samplers", MODEL.samplers, format_func=label, key="tf_samplers")
        st.number_input("η — initial cut probability", 0.0, 1.0, step=0.1, key="tf_eta",
                        help="each node starts as a fragment's root with probability η: "
                             "1 = every rule its own fragment (the treebank's PCFG, the "
                             "paper's start), 0 = every tree one fragment")
        race_page.length_input(KEY, "Passes per run", 1, MAX_PASSES,
                               help="TOKEN-anneal cools from 10 to 1 over the first half of "
                                    "the run")
        race_page.seed_input(KEY)
        with st.expander("Model settings"):
            options = OPTIONS.widgets(SETTINGS, MODEL)
        race_page.skip_checkbox(KEY)
        SETTINGS.share(PICKER.upload_note)
    SETTINGS.save()
    config = race_page.race_config(KEY, corpus, model=MODEL.name, hyperparameters=options,
                                   skip=bool(st.session_state.tf_skip))
    return corpus, config


def make_model(corpus, config):
    return build_model(config["model"], corpus, config["hyperparameters"])


@st.cache_data(max_entries=8, show_spinner="Parsing with the PCFG baselines…")
def baselines(corpus, held_out, markov):
    """Held-out F1 of the plain and the parent-annotated treebank PCFG trained on the same
    training trees as the model (computed once per corpus and split)."""
    train, test = held_out_split(corpus.trees, held_out)
    return {kind: evaluate(kind, train, test, MAX_LENGTH, markov)[1]["f1"]
            for kind in ("pcfg", "pcfg-parent")}


def model_option(name):
    return dict(st.session_state.tf_config["hyperparameters"])[name]


def draw_race(race):
    """One metric per sampler, then log p(fragments) and held-out F1 over engine time."""
    items = []
    for name, run in race.runs.items():
        last = run.trace[-1]
        f1 = f"held-out F1 {last['f1']:.3f}" if "f1" in last else "no held-out trees"
        if last.get("acceptance", math.nan) == last.get("acceptance"):  # SENTENCE's
            f1 += f" · {last['acceptance']:.0%} accepted"
        items.append((f"{label(name)} · pass {run.sweeps_done:,}", f"{last['loglik']:,.1f}",
                      f"{run.model.loglik_label} (eq. 3); {f1}; {last['fragments']:,} "
                      f"fragments in use, mean size {last['mean_size']:.2f} rules; engine time "
                      f"{run.seconds:,.3f} s", f1))
    race_page.metric_row(items, key="tf_metrics")
    left, right = st.columns(2)
    race_page.over_time(left, race, "loglik", "log p(fragments)",
                        "Log p(fragments) over time (Fig. 5c)", "tf_loglik_chart")
    model = next(iter(race.runs.values())).model
    if model.held_out:
        pcfg = baselines(st.session_state.tf_corpus, model_option("held_out"), model.markov)
        show_traces(right, race, "f1", "held-out bracket F1", "Held-out F1 over time",
                    "tf_f1_chart", x="seconds", x_title="engine time (s)", x_reach=0.01,
                    y_domain=[0, 1], level=(pcfg["pcfg"], "PCFG"))
    else:
        right.info("No tree is held out (Model settings → held-out share): there is nothing "
                   "to parse, so no F1 to chart.")


def shown_run(race):
    return race.runs[st.session_state.tf_shown]


def draw_trees(race):
    """The shown sampler's training trees cut into fragments, and its fragment lexicon."""
    name, run = st.session_state.tf_shown, shown_run(race)
    model = run.model
    first = min(st.session_state.tf_first, len(model.trees)) - 1
    last = min(first + SHOWN_TREES, len(model.trees))
    left, right = st.columns([3, 2])
    with left:
        st.markdown(f"**{label(name)}'s fragments after pass {run.sweeps_done:,}** "
                    f"(trees {first + 1}–{last} of {len(model.trees):,})")
        st.markdown("".join(tree_row(model, run.state, u, {}) for u in range(first, last))
                    + legend(), unsafe_allow_html=True)
        labels_toggle()
    with right:
        table = model.fragment_table(run.state)
        root = st.session_state.tf_root
        if root != ALL:
            table = table[table.root.map(root_label) == root]
        st.markdown(f"**{label(name)}'s fragment lexicon: {len(table):,} fragments** "
                    f"({'all roots' if root == ALL else 'rooted at ' + root}; largest count "
                    "first)")
        st.dataframe(table.sort_values(["count", "root"], ascending=[False, True],
                                       kind="stable"),
                     height=360, hide_index=True, key=f"tf_lexicon_{name}",
                     column_config={"probability": st.column_config.NumberColumn(
                         "probability", format="%.4f",
                         help="the posterior mean (n_f + α μ_f) / (n_X + α) under its root's "
                              "DP (Liang et al. fn. 6)")})


def held_out_sentences(model):
    """The held-out sentences the measure parses: (gold tree, its (tag, word) pairs), those of
    at most MAX_LENGTH words, in order."""
    tagged = [(gold, preterminals(clean(gold))) for gold in model.held_out]
    return [(gold, pairs) for gold, pairs in tagged if len(pairs) <= MAX_LENGTH]


def draw_parses(race):
    """The shown sampler's grammar (fn. 6) parsing held-out sentences, each derivation drawn
    with its fragments outlined, and F1 beside the PCFG baselines."""
    name, run = st.session_state.tf_shown, shown_run(race)
    model = run.model
    sentences = held_out_sentences(model)
    if not sentences:
        st.info(f"No held-out sentence of at most {MAX_LENGTH} words: raise the held-out share "
                "in Model settings to see the grammar parse.")
        return
    f1 = run.trace[-1].get("f1")
    pcfg = baselines(st.session_state.tf_corpus, model_option("held_out"), model.markov)
    race_page.metric_row((
        (f"{label(name)}'s grammar", f"{f1:.3f}",
         "labelled bracket F1 (EVALB's conventions) of the held-out sentences parsed by the "
         "posterior-mean grammar of this sample", f"{len(sentences):,} sentences"),
        ("PCFG", f"{pcfg['pcfg']:.3f}", "the treebank PCFG of the same training trees, "
                                        "maximum likelihood", "same split"),
        ("Parent-annotated PCFG", f"{pcfg['pcfg-parent']:.3f}",
         "the PCFG with each label annotated with its parent's (Johnson 1998)", "same split"),
    ), key="tf_f1_metrics")
    grammar = posterior_grammar(model, [run.state])
    parser = derivation_parser(grammar)
    first = min(st.session_state.tf_parse, len(sentences)) - 1
    rows = []
    for number in range(first, min(first + SHOWN_PARSES, len(sentences))):
        _, pairs = sentences[number]
        words = [word for _, word in pairs]
        parse, _ = parser.parse(map_unknown(words, model.vocabulary), words)
        head = (f"<div style='{ROW_FONT} font-size:0.9rem'>{row_number(number + 1)}"
                f"{html.escape(' '.join(words))}</div>")
        if parse is None:
            rows.append(f"{head}<p>No parse: the grammar derives no tree over these words "
                        "(EVALB scores it as a flat tree).</p>")
            continue
        tree, cut = derivation(parse, grammar)
        drawing = tree_svg(tree, cut, caption=f"Held-out sentence {number + 1}: parsed with "
                                              f"{int(cut.sum())} fragments",
                           binarised=binarised())
        rows.append(f"<div style='margin:2px 0 10px'>{head}<div style='overflow-x:auto;"
                    f"padding-bottom:2px'>{drawing}</div></div>")
    st.markdown(f"**Held-out sentences {first + 1}–{first + len(rows)} of {len(sentences):,} "
                f"parsed by {label(name)}'s grammar after pass {run.sweeps_done:,}** (each "
                "colour one fragment of the most probable derivation; a fragment may come from "
                "the sample or be drawn new from the base)", unsafe_allow_html=True)
    st.markdown("".join(rows), unsafe_allow_html=True)


def check_view(race):
    """Views of samplers, trees or nonterminals this race does not have (a link, a smaller
    corpus) fall back to ones it has."""
    s = st.session_state
    model = next(iter(race.runs.values())).model
    if s.tf_shown not in race.runs:
        SETTINGS.fit("shown", next(iter(race.runs)), "this race does not run that sampler")
    SETTINGS.fit("first", min(s.tf_first, len(model.trees)),
                 f"the corpus has {len(model.trees):,} trees")
    held_out = len(held_out_sentences(model))
    SETTINGS.fit("parse", max(1, min(s.tf_parse, held_out)),
                 f"there are {held_out:,} held-out sentences")
    if s.tf_root != ALL and s.tf_root not in root_choices(model):
        if s.tf_root in model.packed.labels:
            SETTINGS.fit("root", root_label(s.tf_root), "with “Binarised labels” off the "
                         "lexicon names the treebank's nonterminals")
        else:
            SETTINGS.fit("root", ALL, "the corpus has no such nonterminal")


def root_label(label):
    """A fragment root's label as the drawings say it: the treebank's (@NP|<DT> is part of an
    NP), or with "Binarised labels" on the grammar's."""
    return shown_label(label, binarised())


def root_choices(model):
    """The roots the lexicon can be cut to: the treebank's nonterminals, or the grammar's."""
    return sorted({root_label(label) for label in model.packed.labels})


def view_controls(race):
    """Below the charts, above the views they choose: on a phone the charts come first."""
    model = next(iter(race.runs.values())).model
    cols = st.columns(4)
    cols[0].selectbox("Show the sampler", list(race.runs), format_func=label, key="tf_shown")
    cols[1].number_input("From tree", 1, len(model.trees), key="tf_first")
    cols[2].selectbox("Fragments rooted at", [ALL, *root_choices(model)], key="tf_root",
                      help="with “Binarised labels” off, NP stands for its binarisation's "
                           "parts too (@NP|<DT>)")
    cols[3].number_input("From held-out sentence", 1,
                         max(1, len(held_out_sentences(model))), key="tf_parse")


# --- eqs. 3 and 4 with this page's numbers ------------------------------------------------------
def bracket(fragment):
    """A fragment (``PtsgModel.fragments``' nested tuples) in Penn brackets."""
    if isinstance(fragment, str):
        return fragment
    if len(fragment) == 2:
        return f"({fragment[0]} {fragment[1]})"
    return f"({fragment[0]} {bracket(fragment[1])} {bracket(fragment[2])})"


def token_numbers(model, state, s):
    """Eq. 4 at site s with every count: the merged fragment M (b_s = 0) against upper U and
    lower L (b_s = 1), each with its count among the other sites' fragments and its base μ.

    Returns
    -------
    dict
        M, U, L (fragments), their counts n_M, n_U, n_L and log μ, X and R (the root labels of
        L and of M), n_X and n_R, same (L = U), w0, w1 (the two unnormalised terms, the shared
        1 / (α + n_R) cancelled) and p1 = p(b_s = 1 | rest).
    """
    values = model.values(state).copy()
    values[s] = 0
    joined = model.fragments(values)
    values[s] = 1
    split = model.fragments(values)
    (merged,) = (joined - split).keys()
    parts = list((split - joined).elements())
    rest = joined - Counter({merged: 1})
    # the lower fragment is rooted at the site's node, labelled X; when its label is M's too,
    # the two terms are symmetric and either order gives the same numbers
    x = _site_label(model, s)
    upper, lower = parts if parts[1][0] == x else parts[::-1]
    roots = Counter()
    for fragment, n in rest.items():
        roots[fragment[0]] += n
    r = merged[0]
    alpha, same = model.alpha, upper == lower
    n = {"M": rest[merged], "U": rest[upper], "L": rest[lower]}
    mu = {"M": model.log_base(merged), "U": model.log_base(upper),
          "L": model.log_base(lower)}
    w0 = n["M"] + alpha * math.exp(mu["M"])
    w1 = ((n["U"] + alpha * math.exp(mu["U"])) * (n["L"] + same + alpha * math.exp(mu["L"]))
          / (alpha + roots[x] + (x == r)))
    return dict(M=merged, U=upper, L=lower, n=n, log_mu=mu, X=x, R=r, n_X=roots[x],
                n_R=roots[r], same=same, w0=w0, w1=w1, p1=w1 / (w0 + w1))


def _site_label(model, s):
    """The label of site s's node."""
    names = {i: name for name, i in model.packed.labels.items()}
    return names[model.packed.label[model.packed.site_node[s]]]


def shown_site(model, state):
    """The site the worked example uses: the first site of the first tree shown whose node is
    not a preterminal (a merge there joins two rules), else its first site."""
    p = model.packed
    u = min(st.session_state.tf_first, len(model.trees)) - 1
    nodes = range(p.tree_start[u] + 1, p.tree_start[u + 1])
    node = next((n for n in nodes if p.left[n] >= 0), nodes[0])
    return int(p.node_site[node])


def show_formulas(race):
    """Eq. 3 and TOKEN's eq. 4 with the shown sampler's counts at one site."""
    name, run = st.session_state.tf_shown, shown_run(race)
    model, state = run.model, run.state
    s = shown_site(model, state)
    e = token_numbers(model, state, s)
    tree, place = model.site_place(s)
    n, mu = e["n"], e["log_mu"]
    with st.expander("The model and its equations, with this run's numbers",
                     icon=":material/function:"):
        st.markdown(
            "A **PTSG** writes each tree as fragments glued at their frontier nodes. Every "
            "node s below a root is a site with b_s ∈ {0, 1}: b_s = 1 cuts the tree there, so "
            "s roots a fragment of its own. The fragments rooted at label X are draws from "
            "θ_X ~ DP(α, μ_X), whose base μ_X is the treebank's PCFG: a fragment's rules' "
            "probabilities, times s for each frontier node and 1 − s for each node inside, so "
            "a big fragment is improbable under the base unless the data use it often. "
            "Integrating θ out, the fragments of the whole treebank have probability (eq. 3)")
        st.latex(r"p(\text{fragments}) = \prod_X \frac{\prod_{f:\,\mathrm{root}(f)=X}"
                 r"(\alpha\,\mu_X(f))^{(n_f)}}{\alpha^{(n_X)}}")
        st.markdown(
            f"with a⁽ᵏ⁾ = a(a+1)…(a+k−1), n_f the fragment's count and n_X the fragments "
            f"rooted at X. Here α = {model.alpha:g}, s = {model.stop:g}, "
            f"{len(model.packed.labels):,} labels (a DP each) over {model.n_sites:,} sites; "
            f"{label(name)}'s fragments after pass {run.sweeps_done:,} have log p = "
            f"{run.trace[-1]['loglik']:,.1f}.")
        st.markdown(
            f"**TOKEN** (eq. 4) at one site — here node {place + 1} ({e['X']}) of tree "
            f"{tree + 1}, the first drawn above — weighs the merged fragment M (b = 0) "
            "against the upper fragment U and the lower L (b = 1), with the counts n⁻ˢ of "
            "every other site's fragments:")
        st.latex(r"\frac{p(b_s=1\mid\text{rest})}{p(b_s=0\mid\text{rest})} = "
                 r"\frac{(n_U + \alpha\mu_U)\,(n_L + [L{=}U] + \alpha\mu_L)}"
                 r"{(n_M + \alpha\mu_M)\,(n_X + [X{=}R] + \alpha)}")
        st.markdown(
            f"- M = `{bracket(e['M'])}`: n_M = {n['M']:,}, μ_M = {math.exp(mu['M']):.3g}\n"
            f"- U = `{bracket(e['U'])}`: n_U = {n['U']:,}, μ_U = {math.exp(mu['U']):.3g}\n"
            f"- L = `{bracket(e['L'])}`: n_L = {n['L']:,}, μ_L = {math.exp(mu['L']):.3g}\n"
            f"- X = {e['X']}, R = {e['R']} (M's and U's root), n_X = {e['n_X']:,}, "
            f"[L = U] = {int(e['same'])}, [X = R] = {int(e['X'] == e['R'])}")
        st.latex(rf"\frac{{p(b_s=1)}}{{p(b_s=0)}} = \frac{{{e['w1']:.4g}}}{{{e['w0']:.4g}}}"
                 rf"\quad\Rightarrow\quad p(b_s = 1\mid\text{{rest}}) = {e['p1']:.4f}")
        st.markdown(
            "**TYPE** (eqs. 5–9) takes every site whose (M, U, L) is the same — in a treebank, "
            "every node where the same two fragments could merge into the same larger one — "
            "that touches no fragment another block site changes, and draws how many m of "
            "them are cut from p(m) ∝ C(|S|, m) g(m). From η = 1 every rule is its own "
            "fragment, so a type such as `(NP DT NN)` against `(NP DT NN)` + `(DT the)` "
            "covers every `the` under such an NP: one move makes or unmakes the fragment "
            "`(NP (DT the) NN)` everywhere, where TOKEN must make it one site at a time, each "
            "first copy against the base's small μ. The **Type blocks** page takes one such "
            "move apart.")


# --- the page ---------------------------------------------------------------------------------
prologue("Tree fragments",
         "A probabilistic tree-substitution grammar learned from a treebank (Liang, Jordan & "
         "Klein 2010, §3–5 and Fig. 5c): every sampler starts from the same cuts. A pass "
         "visits every node below a tree's root once.")
SETTINGS.restore()
corpus, config = settings()
warm_samplers(MODEL, config["samplers"])
race_page.follow_settings(KEY, corpus, config, make_model)

if "tf_race" in st.session_state:
    race = st.session_state.tf_race
    shown = st.session_state.tf_corpus
    first_model = next(iter(race.runs.values())).model
    st.caption(f"**{shown.name}**: {len(shown.trees):,} trees, {len(first_model.trees):,} "
               f"learned from ({first_model.n_sites:,} sites) and "
               f"{len(first_model.held_out):,} held out for F1.")
    playback.controls(KEY, on_reset=lambda: race_page.restart(KEY, make_model))
    check_view(race)
    playback.live(KEY, draw_race)
    view_controls(race)
    playback.live(KEY, draw_trees, advances=False)
    playback.live(KEY, draw_parses, advances=False)
    show_formulas(race)
    st.markdown(
        "#### What to look for\n"
        "- **TOKEN** cuts or joins one node at a time (eq. 4). From η = 1 each rule is its own "
        "fragment; a fragment of two rules appears only when TOKEN joins one node, and then "
        "its first copy is weighed by the base alone — improbable — so useful fragments grow "
        "slowly, copy by copy.\n"
        "- **TYPE** takes every node where the same upper and lower fragments could merge: "
        "from η = 1 most nodes sit in large types (every `the` under an NP → DT NN), so one "
        "move creates or removes a fragment across the whole treebank and log p(fragments) "
        "climbs faster per pass (Fig. 5c compares at equal engine time: the clock beside "
        "Play).\n"
        "- **TOKEN-anneal** samples eq. 4 raised to 1/T, T cooling from 10 to 1 over the first "
        "half of the run: hot, it cuts and joins almost at random. **TYPE-greedy** sets each "
        "block all cut or all joined, whichever is more probable: a hill-climb, not a "
        "sampler, that stops moving within a few passes.\n"
        "- **SENTENCE** redraws every cut of one tree at once: with the other trees' counts "
        "frozen, an inside pass over the tree sums the proposal over all its fragmentations "
        "(the counts' part for fragments up to three levels deep, the base's for any), draws "
        "one top-down, and Metropolis-Hastings accepts it against the exact probability, in "
        "which the tree's own repeated fragments count; its acceptance rate is on its tile.\n"
        "- **Held-out F1** parses the held-out sentences with the posterior-mean grammar of "
        "the sample (fn. 6) and scores them with EVALB's conventions (sentences of at most "
        f"{MAX_LENGTH} words); the dotted line is the plain PCFG of the same training trees. "
        "On a treebank this small F1 moves by a few points from pass to pass: each held-out "
        "bracket is worth about one point.\n"
        "- **The η sweep** (Fig. 5 d–f: how the start changes who wins) runs on the "
        "[Sampler race](./sampler_race?model=ptsg) page, with the PTSG as its model.")
exercises.show(SETTINGS)  # predict, then run: ui/lesson_exercises.py
