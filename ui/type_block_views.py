"""The Type blocks lesson's views (Liang et al. §4): its controls (one TYPE move at a time), the
pivot's type and block, the corpus with the block marked, TYPE's exact p(m | rest) beside
TOKEN's conditional at the same pivot, and the last move's numbers under the equations."""
import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from engine.report.plots import style
from ui import prose
from ui.charts import show
from ui.kinds.registry import views
from ui.theme import EXACT_COLOUR, SITE_MARK, colour
from ui.type_lab import type_move

SHOWN_UTTERANCES = 24
MAX_ROWS = 120  # units drawn at most: a toy's block is every one of its copies


def controls(lab, key_of, reset):
    """TYPE move, 10 moves and Reset (``reset()`` starts the lab anew) and the lab's status;
    returns the lab (a new one after Reset). ``key_of`` keys the page's widgets."""
    # one row of buttons as wide as their labels (columns cut "10 moves" on narrow screens),
    # then the status, which wraps below them when the row is full
    row = st.container(horizontal=True, vertical_alignment="center", gap="small")
    if row.button("TYPE move", icon=":material/skip_next:", type="primary",
                  key=key_of("step"), shortcut="Right"):
        type_move(lab)
    if row.button("10 moves", icon=":material/fast_forward:", key=key_of("ten"),
                  shortcut="Shift+Right"):
        for _ in range(10):
            type_move(lab)
    if row.button("Reset", icon=":material/replay:", key=key_of("reset"), shortcut="0"):
        lab = reset()
    model, state = lab["model"], lab["state"]
    extra = views()[model.display].status(model, state)
    row.markdown(f"Move {lab['moves']:,} · pass {lab['sampler'].sweeps_done + 1:,} · "
                 f"log p = {model.loglik(state):,.2f} · {extra}", width="content")
    st.container(key=key_of("keys_hint")).caption(  # the key: phones hide it
        "Keys: **→** one TYPE move · **Shift+→** ten moves · **0** reset")
    return lab



METRIC_CHARS = 40  # a longer type is written as wrapped text, not as a metric



def type_card(move, view):
    """The pivot's type, its sites, the block, m drawn and the sites changed, as metrics."""
    info = move["info"]
    zero, one = (move["values"][v] for v in move["slice"])
    sliced = len(move["values"]) > 2  # K > 2 values: a binary slice of them
    cols = st.columns([2.2, 1, 1, 1, 1])  # the type needs room: metrics cut long values
    type_help = view.edge_help + (f"; the slice is {zero} ↔ {one}" if sliced else "")
    if len(move["type"]) <= METRIC_CHARS:
        cols[0].metric("The pivot's type", move["type"], help=type_help)
    else:  # a tree fragment's brackets: wrapped, where a metric would cut them to one line
        cols[0].markdown(f"**The pivot's type**  \n`{move['type']}`", help=type_help)
    cols[1].metric("Sites of this type", f"{len(info.type_sites):,}")
    cols[2].metric("In the block |S|", f"{len(info.block):,}",
                   help="the sites of the type that share no choice with an earlier block site"
                        + (f" and are in {zero} or {one}" if sliced else ""))
    cols[3].metric("m drawn", f"{info.drawn:,} of {len(info.block):,}",
                   help=f"how many block sites are now {one}; the rest are {zero}")
    cols[4].metric("Sites changed", f"{len(info.changed):,}")



def marks_by_utterance(model, info):
    """{utterance: {symbol index: (kind, changed?)}} for the pivot, block and conflicts."""
    changed = set(info.changed.tolist())
    marks = {}
    for kind, sites in (("conflict", info.conflicted), ("block", info.block[1:]),
                        ("pivot", info.block[:1])):
        for s in sites.tolist():
            u, i = model.site_place(s)
            marks.setdefault(u, {})[i] = (kind, "changed") if s in changed else (kind,)
    return marks



def corpus_view(lab):
    """The corpus, the units the move touched first, the pivot, block and conflicts marked."""
    model, state, move = lab["model"], lab["state"], lab["move"]
    view = views()[model.display]
    marks = marks_by_utterance(model, move["info"]) if move else {}
    involved = sorted(marks) if marks else []
    rest = [u for u in range(view.n_units(model)) if u not in marks]
    shown = (involved + rest)[:max(SHOWN_UTTERANCES, min(len(involved), MAX_ROWS))]
    rows = [view.row(model, state, u, marks.get(u)) for u in shown]
    key = " &nbsp;·&nbsp; ".join(
        f"<span style='background:{SITE_MARK[k][0]};border:1px solid {SITE_MARK[k][1]};"
        f"border-radius:3px;padding:0 4px;color:{'#fff' if k == 'pivot' else 'inherit'}'>"
        f"{text}</span>"
        for k, text in (("pivot", "pivot"), ("block", "block site"),
                        ("conflict", view.conflict_text)))
    key += " &nbsp;·&nbsp; <span style='border:3px solid #00505c;border-radius:3px;" \
           "padding:0 4px'>changed by this move</span>"
    with st.container(height=430):
        st.markdown("".join(rows), unsafe_allow_html=True)
    st.markdown(view.legend() + f"<div style='font-size:0.9rem;margin-top:4px'>{key}</div>",
                unsafe_allow_html=True)
    if view.drawing_controls:
        view.drawing_controls()
    if involved:
        st.caption(view.caption.format(n=len(involved)) + (
            f" The first {MAX_ROWS:,} are drawn." if len(involved) > MAX_ROWS else ""))



def m_chart(move):
    """TYPE's exact p(m | rest) over the block's split counts m (eq. 7), the drawn m coloured."""
    info = move["info"]
    p = np.exp(info.log_p)
    m = np.arange(len(p))
    every = -(-len(p) // 20)  # at most about 20 labelled m
    data = pd.DataFrame({"m": m, "probability": p, "drawn": m == info.drawn})
    chart = alt.Chart(data).mark_bar().encode(
        x=alt.X("m:O", title=f"m — block sites set to {move['values'][move['slice'][1]]}",
                axis=alt.Axis(labelAngle=0, values=m[::every].tolist())),
        y=alt.Y("probability:Q", title="probability"),
        color=drawn_colour("type"),
        tooltip=["m:O", alt.Tooltip("probability:Q", format=".4f")])
    return style(chart, ["TYPE: p(m | rest), eq. 7", f"drawn: m = {info.drawn}"], 220)



def token_chart(move, token):
    """TOKEN's exact conditional at the same pivot (eq. 4), the drawn value coloured."""
    names = list(move["values"])
    data = pd.DataFrame({"value": names, "probability": token["p"],
                         "drawn": np.arange(len(names)) == token["drawn"]})
    chart = alt.Chart(data).mark_bar().encode(
        x=alt.X("value:N", sort=names, title=None, axis=alt.Axis(labelAngle=0)),
        y=alt.Y("probability:Q", title="probability", scale=alt.Scale(domain=[0, 1])),
        color=drawn_colour("token"),
        tooltip=["value:N", alt.Tooltip("probability:Q", format=".4f")])
    return style(chart, ["TOKEN at the same pivot,", "same state (eq. 4)"], 220)



def drawn_colour(sampler):
    """The exact distribution dark grey, the value the sampler drew in its colour."""
    return alt.condition("datum.drawn", alt.value(colour(sampler)), alt.value(EXACT_COLOUR))



def explain(move, token):
    """What TOKEN could have done at the same pivot, against what TYPE did."""
    info = move["info"]
    size = len(info.block)
    if size == 1:
        st.caption("A block of one site: TYPE and TOKEN make the same move here.")
        return
    flip = 1.0 - token["p"][token["old"]]
    others = f"{size - 1:,} other site" + ("s" if size > 2 else "")
    st.caption(f"TOKEN can only change this one site, keeping the {others} of the block as "
               f"they are: it would change it with probability {flip:.3f}. TYPE "
               f"weighs every split count m at once — C(|S|, m) g(m) — and moved "
               f"{len(info.changed):,} sites in one step.")


def move_view(lab, key_of):
    """Under the controls: the move's type card and drawing (or what to press), the corpus
    beside the move's two exact distributions, and the recent moves."""
    move, model = lab["move"], lab["model"]
    view = views()[model.display]
    if move is None:
        st.info("Press **TYPE move**: a pivot site is chosen at random and its whole type block "
                f"is resampled. The corpus below is the current {view.analysis}.")
    else:
        type_card(move, view)
        if view.type_drawing:
            st.markdown(view.type_drawing(model, lab["state"], int(move["info"].pivot)),
                        unsafe_allow_html=True)
    left, right = st.columns([3, 2])
    with left:
        corpus_view(lab)
    with right:
        if move is not None:
            show(st, m_chart(move), key_of("m_chart"))
            show(st, token_chart(move, lab["token"]), key_of("token_chart"))
            explain(move, lab["token"])


def equations(move, path):
    """Eq. 4, 7 and 9 of Liang et al. (the Markdown at ``path``), with the last move's
    numbers."""
    with st.expander("The equations", icon=":material/function:"):
        prose.show(prose.read(path))
        if move is not None:
            info = move["info"]
            p = np.exp(info.log_p)
            st.markdown(f"Last move: |S| = {len(info.block):,}, m drawn = {info.drawn:,}, "
                        f"p(m = {info.drawn} | rest) = {p[info.drawn]:.4f}; the most probable m "
                        f"is {int(p.argmax()):,} (p = {p.max():.4f}).")


def history(lab, key):
    """The recent moves, a row each."""
    if lab["history"]:
        st.markdown("**Recent moves**")
        st.dataframe(lab["history"], hide_index=True, key=key)
