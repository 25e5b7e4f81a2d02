"""The Particle filter lesson's pictures: the particles' weights, ESS and Ẑ over the utterances,
the genealogy, and the heaviest particles' segmentations and lexicons.

The live charts are Vega-Lite with specs fixed by the settings (ui/charts.py says why): scales
depend on N and the corpus's length, never on the utterance reached.
"""
import html

import altair as alt
import numpy as np
import pandas as pd

from engine.report.plots import VALUE_AXIS, style
from engine.samplers import colour
from ui.kinds.segmentation import utterance_html

WEIGHT_COLOUR = "#e07a5f"
RESAMPLED_COLOUR = "#d1495b"
LOG_FLOOR = -12.0  # log10 of the smallest weight the log-scale strip shows
SQRT_TICKS = [0, 0.01, 0.05, 0.1, 0.2, 0.5, 1]  # the weights axis's labels (square-root scale)
# up to this N the genealogy draws every particle's line; above it, the ancestry of this many
# particles of now (evenly spaced): 100 lines per utterance filled the chart solid black
GENEALOGY_PARTICLES = 50
MAX_POINTS = 400  # points per line over the utterances (every k-th, the last kept)


def weights_chart(log_weights, log_scale, height=220):
    """The particles as a strip of bars: the normalised weights the last utterance left them,
    before any resampling.

    Both axes are fixed, so the spec never changes from tick to tick (ui/charts.py says why)
    and every bar is inside: a normalised weight lies in [0, 1]. On a square-root scale over
    [0, 1] the uniform weight 1/N still stands a tenth of the height at N = 100 (a linear axis
    to 1 would show it at 1%, and one fitted to the weights would change on every tick); on a
    log scale, log₁₀ weight from LOG_FLOOR (smaller weights are drawn at it) to 0."""
    n = len(log_weights)
    if log_scale:  # rounding can leave a weight a hair above 1: clipped at the top too
        values = np.clip(log_weights / np.log(10), LOG_FLOOR, 0.0)
        y = alt.Y("value:Q", title="log₁₀ weight", scale=alt.Scale(domain=[LOG_FLOOR, 0]))
    else:
        values = np.minimum(np.exp(log_weights), 1.0)
        y = alt.Y("value:Q", title="weight (square-root scale)",
                  scale=alt.Scale(type="sqrt", domain=[0, 1], nice=False),
                  axis=alt.Axis(values=SQRT_TICKS, format="~g"))
    data = pd.DataFrame({"particle": np.arange(n), "value": values})
    chart = alt.Chart(data).mark_bar(color=WEIGHT_COLOUR).encode(
        x=alt.X("particle:Q", title="particle", scale=alt.Scale(domain=[-0.5, n - 0.5]),
                axis=alt.Axis(format="d")),
        y=y, tooltip=["particle:Q", alt.Tooltip("value:Q", format=".3g")])
    return style(chart, "Weights before resampling", height)  # short: a phone shows it whole


def _thin(frame):
    stride = max(1, -(-len(frame) // MAX_POINTS))
    rows = list(range(0, len(frame), stride))
    if rows and rows[-1] != len(frame) - 1:
        rows.append(len(frame) - 1)
    return frame.iloc[rows]


def ess_chart(trace, n, threshold, utterances, height=240):
    """ESS after each utterance, the threshold as a dashed line, resamplings as red ticks."""
    frame = pd.DataFrame(trace, columns=["utterance", "ess", "resampled"]) if trace else \
        pd.DataFrame({"utterance": [0], "ess": [float(n)], "resampled": [0]})
    x = alt.X("utterance:Q", title="utterances read", scale=alt.Scale(domain=[0, utterances]))
    line = alt.Chart(_thin(frame)).mark_line(color="#00798c", strokeWidth=2).encode(
        x=x, y=alt.Y("ess:Q", title="ESS", scale=alt.Scale(domain=[0, n])),
        tooltip=["utterance:Q", alt.Tooltip("ess:Q", format=".1f")])
    events = frame[frame["resampled"] == 1].tail(MAX_POINTS)
    ticks = alt.Chart(events).mark_tick(color=RESAMPLED_COLOUR, thickness=1, size=10).encode(
        x=x, y=alt.datum(n), tooltip=["utterance:Q"])
    rule = alt.Chart(pd.DataFrame({"y": [threshold]})).mark_rule(
        strokeDash=[4, 4], color="#555").encode(y="y:Q")
    return style(alt.layer(line, ticks, rule),
                 "ESS (eq. 12), threshold dashed, resamplings red", height)


def z_chart(trace, utterances, height=240):
    """log Ẑ per utterance read so far: the running mean of log P(utterance | the past)."""
    frame = pd.DataFrame(trace, columns=["utterance", "log_z"]) if trace else \
        pd.DataFrame({"utterance": [1], "log_z": [np.nan]})
    frame = frame.assign(per=frame["log_z"] / frame["utterance"])
    chart = alt.Chart(_thin(frame)).mark_line(color="#6a4c93", strokeWidth=2).encode(
        x=alt.X("utterance:Q", title="utterances read", scale=alt.Scale(domain=[0, utterances])),
        y=alt.Y("per:Q", title="log Ẑ / utterances", scale=alt.Scale(zero=False)),
        tooltip=["utterance:Q", alt.Tooltip("log_z:Q", title="log Ẑ", format=",.2f")])
    return style(chart, "Ẑ: marginal likelihood per utterance", height)


def genealogy_rows(history, window):
    """Lines back in time over the last ``window`` utterances: (ago, parent, child, alive) —
    a particle at step t descends from ``parent`` at step t − 1; alive: a particle of now
    descends from it."""
    steps = history[-window:]
    n = len(steps[-1][1]) if steps else 0
    alive = np.ones(n, bool)
    rows = []
    for ago, (_, ancestors) in enumerate(reversed(steps)):
        parents = np.asarray(ancestors)
        for child in range(n):
            rows.append((-ago, int(parents[child]), child, bool(alive[child])))
        previous = np.zeros(n, bool)
        previous[parents[alive]] = True
        alive = previous
    return pd.DataFrame(rows, columns=["ago", "parent", "child", "alive"])


def traced_particles(n):
    """The particles of now whose ancestry the genealogy draws when there are more than
    GENEALOGY_PARTICLES: that many, evenly spaced from the first to the last."""
    return np.unique(np.linspace(0, n - 1, GENEALOGY_PARTICLES).round().astype(int))


def lineage_rows(history, window, traced):
    """The ancestry of the particles ``traced`` of now over the last ``window`` utterances:
    (ago, parent, child, alive) as ``genealogy_rows``, every line alive, each drawn once
    (lineages that merge share their lines from there back)."""
    current = np.asarray(traced)
    rows = []
    for ago, (_, ancestors) in enumerate(reversed(history[-window:])):
        parents = np.asarray(ancestors)[current]
        rows += [(-ago, int(p), int(c), True) for p, c in zip(parents, current)]
        current = np.unique(parents)
    return pd.DataFrame(rows, columns=["ago", "parent", "child", "alive"])


def genealogy_title(n):
    if n <= GENEALOGY_PARTICLES:
        return "Genealogy (dark: lines that reach now)"
    return f"Ancestry of {GENEALOGY_PARTICLES} of the {n:,} particles"


def genealogy_chart(history, n, window, height=260):
    """Each particle's line back to its parent, utterance by utterance: resampling merges
    lines; those that reach now are dark. Above GENEALOGY_PARTICLES particles, only the
    ancestry of that many particles of now (``traced_particles``): every line of 100 or
    more particles fills the chart."""
    if not history:
        rows = pd.DataFrame({"ago": [0], "parent": [0], "child": [0], "alive": [True]})
    elif n <= GENEALOGY_PARTICLES:
        rows = genealogy_rows(history, window)
    else:
        rows = lineage_rows(history, window, traced_particles(n))
    rows = rows.assign(before=rows["ago"] - 1)
    chart = alt.Chart(rows).mark_rule(strokeWidth=1.2).encode(
        x=alt.X("before:Q", title="utterances ago", scale=alt.Scale(domain=[-window, 0])),
        x2="ago:Q",
        y=alt.Y("parent:Q", title="particle", scale=alt.Scale(domain=[-0.5, n - 0.5]),
                axis=alt.Axis(format="d")),
        y2="child:Q",
        color=alt.Color("alive:N", scale=alt.Scale(domain=[True, False],
                                                    range=["#3d3d3d", "#d9d9d9"]),
                        legend=None))
    return style(chart, genealogy_title(n), height)


def particle_cards(filter_, utterance, count=4, words=8):
    """HTML for the ``count`` heaviest particles after the last utterance (before
    resampling): weight, their segmentation of it (boundaries against the gold), their most
    frequent words. Needs the filter's history (the last move's segmentations and ancestors).

    A particle that survived resampling kept its place (engine.core.resampling.ancestry), so
    its lexicon is read there; one that left no copy is said to be dropped."""
    model = filter_.population.model
    bounds, ancestors = filter_.history[-1]
    log_weights = filter_.log_w_read
    order = np.argsort(-log_weights, kind="stable")[:count]
    x0, x1 = model.utt_start[utterance], model.utt_start[utterance + 1]
    text = model.texts[utterance]
    gold = model.gold_bound[x0:x1 - 1].astype(bool) if model.gold_bound is not None else None
    cards = []
    for l in order:
        found = bounds[l][:-1].astype(bool)
        labels = (np.where(found, "found", "") if gold is None else
                  np.select([found & gold, found & ~gold, ~found & gold],
                            ["correct", "spurious", "missed"], ""))
        if ancestors[l] == l:
            lexicon = filter_.population.lexicon(filter_.parts, int(l), words)
            lexicon_text = "lexicon: " + ", ".join(
                f"{html.escape(w)} <span style='color:#888'>{c}</span>" for w, c, _ in lexicon)
        else:
            lexicon_text = "left no copy at this resampling: its lexicon is gone"
        cards.append(
            f"<div style='margin:0.2rem 0 0.6rem 0'><b>particle {l}</b> · weight "
            f"{np.exp(log_weights[l]):.3g}"
            f"{utterance_html(text, labels)}"
            f"<div style='font-size:0.88rem;color:#444'>{lexicon_text}</div></div>")
    return "".join(cards)



ONLINE_SHAPES = ("diamond", "square", "triangle-up")


def versus_chart(points, lines, column, title, height=300):
    """Batch chains as lines (the samplers' colours), each online learner a marker at the
    engine time its one pass took; the legends below the plot, off the data.

    points : frame of the online learners (learner, seconds, ``column``); lines : {name:
    frame of seconds and ``column``}, names ending in their sampler ("batch TOKEN")."""
    names = list(lines)
    batch = pd.concat([frame[["seconds", column]].assign(chain=name)
                       for name, frame in lines.items()], ignore_index=True)
    online = points[["learner", "seconds", column]].assign(
        learner=points["learner"] + " (one pass)")
    x = alt.X("seconds:Q", title="engine seconds", scale=alt.Scale(zero=True, nice=False))
    y = alt.Y(f"{column}:Q", title=title, scale=alt.Scale(zero=False),
              axis=VALUE_AXIS)
    value = alt.Tooltip(f"{column}:Q", title=title, format=",.4~f")
    seconds = alt.Tooltip("seconds:Q", title="engine seconds", format=",.3f")
    chains = alt.Chart(batch).mark_line(strokeWidth=2.5).encode(
        x=x, y=y, tooltip=["chain:N", seconds, value],
        color=alt.Color("chain:N", title="batch chains", sort=names, scale=alt.Scale(
            domain=names, range=[colour(name.split()[-1].lower()) for name in names])))
    learners = list(online["learner"])
    markers = alt.Chart(online).mark_point(size=170, filled=True, opacity=1,
                                           color=colour("particle")).encode(
        x=x, y=y, tooltip=["learner:N", seconds, value],
        shape=alt.Shape("learner:N", title="online learners", sort=learners, scale=alt.Scale(
            domain=learners, range=list(ONLINE_SHAPES[:len(learners)]))))
    return style(alt.layer(chains, markers).resolve_scale(color="independent",
                                                          shape="independent"),
                 f"{title[0].upper()}{title[1:]} against engine time", height)
