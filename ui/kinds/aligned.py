"""Word-aligned sentence pairs on the pages: each pair's forest of phrase pairs, whose sites are
its nodes below the root (b = 1: the node roots a rule). Its corpus picker (the built-in pairs
or an upload of pairs with their links) and the Type blocks view: each pair with the rules its
current tree is cut into, the nodes of a move marked."""
import html

import streamlit as st

from datasets.aligned import ALIGNED, SEPARATOR, AlignedCorpus, copies, monotone, recurring
from ui.corpus_choice import builtin, read_file, upload, wrong_suffix
from ui.corpus_picker import CorpusPicker
from ui.forest_svg import PairView
from ui.kinds.registry import View, register
from ui.settings import Setting
from ui.theme import ROW_FONT, mark_style, row_number

# --- the corpus picker ------------------------------------------------------------------------
SOURCES = {"builtin": "Built-in: small Japanese–English pairs",
           "monotone": "Tiny: one four-word pair (its exact posterior known)",
           "recurring": "Tiny: three pairs whose rules recur (exact posterior known)",
           "copies": "Tiny: one two-word pair, five times (exact posterior known)",
           "upload": "Upload a file (links on each line)",
           "upload2": "Upload pairs and alignments (two files)"}
TINY = {"monotone": monotone, "recurring": recurring, "copies": copies}
SETTINGS = (Setting("source", "builtin", str, "the corpus", choices=tuple(SOURCES)),)


def choose(key):
    """Sidebar widgets for aligned pairs; the AlignedCorpus, or None after showing why not."""
    source = st.radio("Corpus", list(SOURCES), format_func=SOURCES.get, key=f"{key}_source")
    if source == "builtin":
        return builtin(ALIGNED.name)
    if source in TINY:
        return TINY[source]()
    if source == "upload":
        return upload(ALIGNED, key, f"One pair a line with its links: source{SEPARATOR}target"
                                    f"{SEPARATOR}0-0 1-2 … (Pharaoh links, 0-based)")
    # both boxes drawn on every run: a box a run leaves out loses its file
    pairs = st.file_uploader(f"Pairs: one a line, source{SEPARATOR}target", key=f"{key}_upload")
    links = st.file_uploader("Alignments: a line of Pharaoh links a pair, i-j (0-based)",
                             key=f"{key}_links_upload")
    if pairs is None or links is None:
        st.info("Choose the pairs' file and the alignments' file.")
        return None
    refusal = wrong_suffix(ALIGNED, pairs.name)
    if refusal:
        st.error(refusal)
        return None
    return read_file(ALIGNED, pairs, alignments=links.getvalue(), alignments_name=links.name)


# --- the Type blocks view ---------------------------------------------------------------------
SMALL_CORPORA = ("Japanese–English pairs (first pairs)",)


def small_corpus(source, size, seed):
    """The first ``size`` built-in pairs (one small corpus: ``source`` and ``seed`` choose
    nothing more)."""
    full = builtin(ALIGNED.name)
    return AlignedCorpus(full.source[:size], full.target[:size], full.links[:size],
                         f"Japanese–English pairs, first {size}")


def pair_view(model, state, u):
    """Pair u's forest and the chain's tree in it (ui.forest_svg.PairView)."""
    fo, base = model.forests[u], int(model.pair_start[u])
    nodes = range(fo.n_nodes)
    on = model.on_tree(state)
    return PairView(
        source=model.corpus.source[u], target=model.corpus.target[u],
        links=model.corpus.links[u],
        spans=tuple((int(fo.f_lo[n]), int(fo.f_hi[n]), int(fo.e_lo[n]), int(fo.e_hi[n]))
                    for n in nodes),
        edges=tuple(tuple(tuple(int(t) for t in e) for e in fo.edges(n)) for n in nodes),
        edge=tuple(int(state.edge[base + n]) for n in nodes),
        on_tree=tuple(bool(on[base + n]) for n in nodes),
        cut=tuple(bool(state.cut[base + n]) for n in nodes), root=int(fo.root))


RULE_STYLE = ("display:inline-block;margin:2px 6px 2px 0;padding:1px 6px;border-radius:4px;"
              "background:#f1f3f5;border:1px solid #d0d4d9;font-size:0.85rem")


def pair_row(model, state, u, marks):
    """Pair u: its two sentences, then the rules its current tree is cut into (the rule of
    each node in ``marks`` — {position in the pair's forest: (kind, …)}, or None — highlighted:
    the node's own rule when it is cut, else the rule holding it)."""
    source, target = model.corpus.source[u], model.corpus.target[u]
    base = int(model.pair_start[u])
    marked = {}
    for position, mark in (marks or {}).items():
        node = base + position
        while not state.cut[node] and state.up[node] >= 0:
            node = int(state.up[node])
        marked[node] = mark
    chips = []
    for r in model.rule_roots(state, u):
        style = RULE_STYLE + (mark_style(marked[r]) if r in marked else "")
        chips.append(f"<span style='{style}'>{html.escape(model.rule_text(state, r))}</span>")
    words = f"{html.escape(' '.join(source))} <span style='color:#999'>‖</span> " \
            f"{html.escape(' '.join(target))}"
    return (f"<div style='margin:2px 0 10px'><div style='{ROW_FONT} font-size:0.95rem'>"
            f"{row_number(u + 1)}{words}</div><div style='padding-left:2.6em'>"
            f"{''.join(chips)}</div></div>")


def legend():
    return ("<div style='font-size:0.9rem;color:#555'>Each pair, then the rules its current "
            "tree is cut into, source ||| target, [X,k] the k-th nonterminal in source order; "
            "a marked rule holds a site of the move.</div>")


def status(model, state):
    scalars = model.scalars(state)
    return (f"{scalars['rules']:,} rules in use, {scalars['rule_types']:,} distinct; "
            f"{scalars['mean_size']:.2f} phrase pairs a rule")


VIEW = register(View(
    name=ALIGNED.name, picker=CorpusPicker("pairs", ALIGNED, SETTINGS, choose),
    unit="Pairs", corpora=SMALL_CORPORA, small_corpus=small_corpus,
    analysis="tree and cuts",
    edge_help=("the rule r₁ the pivot node is inside (b = 0) against the upper rule r₂ and the "
               "rule r₃ it would root (b = 1), source ||| target"),
    conflict_text="same type, left out (its rule shares a node with an earlier block site's)",
    caption=("Pairs with a node of this type come first ({n:,}); each with the rules of its "
             "tree as the move left them."),
    n_units=lambda model: len(model.forests),
    row=pair_row,
    legend=legend,
    status=status,
    lessons=("Tree fragments", "Type blocks (with SCFG rules)",
             "Sampler race (with SCFG rules)")))
