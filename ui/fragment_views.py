"""The Tree fragments lesson's views of a PTSG race: a chain's training trees cut into their
fragments beside its fragment lexicon, the held-out sentences parsed by its posterior-mean
grammar beside the PCFG baselines, and TOKEN's eq. 4 worked out at one site with its counts."""
import html
import math
from collections import Counter

import streamlit as st

from datasets.trees import clean, map_unknown, preterminals
from engine.models.ptsg.grammar import derivation, derivation_parser, posterior_grammar
from engine.models.ptsg.model import MAX_LENGTH, held_out_split
from engine.parsing.grammars import evaluate
from ui import race_page
from ui.charts import show_traces
from ui.kinds.trees import binarised, labels_toggle, legend, tree_row
from ui.theme import ROW_FONT, label, row_number
from ui.tree_svg import shown_label, tree_svg

ALL = "every nonterminal"  # the fragment lexicon's roots: every one, or one nonterminal's
SHOWN_TREES = 3     # training trees drawn with their fragments
SHOWN_PARSES = 3    # held-out parses drawn with theirs


@st.cache_data(max_entries=8, show_spinner="Parsing with the PCFG baselines…")
def baselines(corpus, held_out, markov):
    """Held-out F1 of the plain and the parent-annotated treebank PCFG trained on the same
    training trees as the model (computed once per corpus and split)."""
    train, test = held_out_split(corpus.trees, held_out)
    return {kind: evaluate(kind, train, test, MAX_LENGTH, markov)[1]["f1"]
            for kind in ("pcfg", "pcfg-parent")}


def held_out_sentences(model):
    """The held-out sentences the measure parses: (gold tree, its (tag, word) pairs), those of
    at most MAX_LENGTH words, in order."""
    tagged = [(gold, preterminals(clean(gold))) for gold in model.held_out]
    return [(gold, pairs) for gold, pairs in tagged if len(pairs) <= MAX_LENGTH]


def root_label(label):
    """A fragment root's label as the drawings say it: the treebank's (@NP|<DT> is part of an
    NP), or with "Binarised labels" on the grammar's."""
    return shown_label(label, binarised())


def root_choices(model):
    """The roots the lexicon can be cut to: the treebank's nonterminals, or the grammar's."""
    return sorted({root_label(label) for label in model.packed.labels})


def fragments_panel(name, run, tree, root, table_key):
    """Chain ``name``'s training trees from number ``tree`` (1, …) cut into fragments, and its
    fragment lexicon (rooted at ``root``, or ALL)."""
    model = run.model
    first = min(tree, len(model.trees)) - 1
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
        if root != ALL:
            table = table[table.root.map(root_label) == root]
        st.markdown(f"**{label(name)}'s fragment lexicon: {len(table):,} fragments** "
                    f"({'all roots' if root == ALL else 'rooted at ' + root}; largest count "
                    "first)")
        st.dataframe(table.sort_values(["count", "root"], ascending=[False, True],
                                       kind="stable"),
                     height=360, hide_index=True, key=table_key,
                     column_config={"probability": st.column_config.NumberColumn(
                         "probability", format="%.4f",
                         help="the posterior mean (n_f + α μ_f) / (n_X + α) under its root's "
                              "DP (Liang et al. fn. 6)")})


def parses_panel(name, run, pcfg_of, sentence, metrics_key):
    """Chain ``name``'s grammar (fn. 6) parsing the held-out sentences from number
    ``sentence`` (1, …), each derivation drawn with its fragments outlined, and its F1 beside
    the PCFG baselines (``pcfg_of()``, asked only when a sentence is held out)."""
    model = run.model
    sentences = held_out_sentences(model)
    if not sentences:
        st.info(f"No held-out sentence of at most {MAX_LENGTH} words: raise the held-out share "
                "in Model settings to see the grammar parse.")
        return
    pcfg = pcfg_of()
    race_page.metric_row((
        (f"{label(name)}'s grammar", f"{run.trace[-1].get('f1'):.3f}",
         "labelled bracket F1 (EVALB's conventions) of the held-out sentences parsed by the "
         "posterior-mean grammar of this sample", f"{len(sentences):,} sentences"),
        ("PCFG", f"{pcfg['pcfg']:.3f}", "the treebank PCFG of the same training trees, "
                                        "maximum likelihood", "same split"),
        ("Parent-annotated PCFG", f"{pcfg['pcfg-parent']:.3f}",
         "the PCFG with each label annotated with its parent's (Johnson 1998)", "same split"),
    ), key=metrics_key)
    grammar = posterior_grammar(model, [run.state])
    parser = derivation_parser(grammar)
    first = min(sentence, len(sentences)) - 1
    rows = [parse_row(parser, grammar, model, sentences[number], number)
            for number in range(first, min(first + SHOWN_PARSES, len(sentences)))]
    st.markdown(f"**Held-out sentences {first + 1}–{first + len(rows)} of {len(sentences):,} "
                f"parsed by {label(name)}'s grammar after pass {run.sweeps_done:,}** (each "
                "colour one fragment of the most probable derivation; a fragment may come from "
                "the sample or be drawn new from the base)", unsafe_allow_html=True)
    st.markdown("".join(rows), unsafe_allow_html=True)


def parse_row(parser, grammar, model, sentence, number):
    """One held-out sentence and the drawing of its most probable derivation (HTML)."""
    _, pairs = sentence
    words = [word for _, word in pairs]
    parse, _ = parser.parse(map_unknown(words, model.vocabulary), words)
    head = (f"<div style='{ROW_FONT} font-size:0.9rem'>{row_number(number + 1)}"
            f"{html.escape(' '.join(words))}</div>")
    if parse is None:
        return (f"{head}<p>No parse: the grammar derives no tree over these words "
                "(EVALB scores it as a flat tree).</p>")
    tree, cut = derivation(parse, grammar)
    drawing = tree_svg(tree, cut, caption=f"Held-out sentence {number + 1}: parsed with "
                                          f"{int(cut.sum())} fragments", binarised=binarised())
    return (f"<div style='margin:2px 0 10px'>{head}<div style='overflow-x:auto;"
            f"padding-bottom:2px'>{drawing}</div></div>")


def metrics_and_charts(race, key_of, pcfg_of):
    """One metric per sampler, then log p(fragments) and held-out F1 over engine time
    (``key_of`` keys the page's widgets; ``pcfg_of()``: the PCFG baselines)."""
    def f1(last):
        said = f"held-out F1 {last['f1']:.3f}" if "f1" in last else "no held-out trees"
        return said + (f" · {last['acceptance']:.0%} accepted"  # SENTENCE's
                       if last.get("acceptance", float("nan")) == last.get("acceptance") else "")
    race_page.metric_row([(
        f"{label(name)} · pass {run.sweeps_done:,}", f"{run.trace[-1]['loglik']:,.1f}",
        f"{run.model.loglik_label} (eq. 3); {f1(run.trace[-1])}; {run.trace[-1]['fragments']:,} "
        f"fragments in use, mean size {run.trace[-1]['mean_size']:.2f} rules; engine time "
        f"{run.seconds:,.3f} s", f1(run.trace[-1])) for name, run in race.runs.items()],
        key=key_of("metrics"))
    left, right = st.columns(2)
    race_page.over_time(left, race, "loglik", "log p(fragments)",
                        "Log p(fragments) over time (Fig. 5c)", key_of("loglik_chart"))
    model = race_page.first_model(race)
    if model.held_out:
        show_traces(right, race, "f1", "held-out bracket F1", "Held-out F1 over time",
                    key_of("f1_chart"), x="seconds", x_title="engine time (s)",
                    x_reach=0.01, y_domain=[0, 1], level=(pcfg_of()["pcfg"], "PCFG"))
    else:
        right.info("No tree is held out (Model settings → held-out share): there is nothing "
                   "to parse, so no F1 to chart.")


def view_controls(settings, race):
    """Below the charts (on a phone they come first), above the views they choose; a sampler,
    tree or nonterminal this race does not have (a link's) falls back to one it has."""
    model = race_page.first_model(race)
    value = settings.values()
    race_page.fit_shown(settings, race)
    settings.fit("first", min(value["first"], len(model.trees)),
                 f"the corpus has {len(model.trees):,} trees")
    held_out = len(held_out_sentences(model))
    settings.fit("parse", max(1, min(value["parse"], held_out)),
                 f"there are {held_out:,} held-out sentences")
    root = value["root"]
    if root != ALL and root not in root_choices(model):
        if root in model.packed.labels:
            settings.fit("root", root_label(root), "with “Binarised labels” off the "
                         "lexicon names the treebank's nonterminals")
        else:
            settings.fit("root", ALL, "the corpus has no such nonterminal")
    cols = st.columns(4)
    cols[0].selectbox("Show the sampler", list(race.runs), format_func=label,
                      key=settings.key("shown"))
    cols[1].number_input("From tree", 1, len(model.trees), key=settings.key("first"))
    cols[2].selectbox("Fragments rooted at", [ALL, *root_choices(model)],
                      key=settings.key("root"), help="with “Binarised labels” off, NP stands "
                      "for its binarisation's parts too (@NP|<DT>)")
    cols[3].number_input("From held-out sentence", 1, max(held_out, 1), key=settings.key("parse"))


# --- eq. 4 worked out at one site -----------------------------------------------------------
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
    x = site_label(model, s)
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


def site_label(model, s):
    """The label of site s's node."""
    names = {i: name for name, i in model.packed.labels.items()}
    return names[model.packed.label[model.packed.site_node[s]]]


def example_site(model, tree):
    """The site the worked example uses: the first site of ``tree`` whose node is not a
    preterminal (a merge there joins two rules), else its first site."""
    p = model.packed
    nodes = range(p.tree_start[tree] + 1, p.tree_start[tree + 1])
    node = next((n for n in nodes if p.left[n] >= 0), nodes[0])
    return int(p.node_site[node])


def equation_numbers(name, run, tree):
    """Eq. 3's and eq. 4's numbers for the lesson's equations (ui.lesson.prose): chain
    ``name``'s counts at the example site of ``tree``."""
    model, state = run.model, run.state
    s = example_site(model, tree)
    e = token_numbers(model, state, s)
    shown_tree, place = model.site_place(s)
    n, mu = e["n"], e["log_mu"]
    return dict(
        alpha=f"{model.alpha:g}", stop=f"{model.stop:g}", labels=f"{len(model.packed.labels):,}",
        sites=f"{model.n_sites:,}", who=label(name), passes=f"{run.sweeps_done:,}",
        loglik=f"{run.trace[-1]['loglik']:,.1f}", place=place + 1, X=e["X"], R=e["R"],
        tree=shown_tree + 1, n_X=f"{e['n_X']:,}", same=int(e["same"]), XR=int(e["X"] == e["R"]),
        w1=f"{e['w1']:.4g}", w0=f"{e['w0']:.4g}", p1=f"{e['p1']:.4f}",
        **{f"{k}": bracket(e[k]) for k in "MUL"},
        **{f"n_{k}": f"{n[k]:,}" for k in "MUL"},
        **{f"mu_{k}": f"{math.exp(mu[k]):.3g}" for k in "MUL"})
