"""The Particle filter lesson's live views: the filter's figures (utterances read, ESS,
resamplings, Ẑ), its weights, ESS, genealogy and Ẑ charts, the heaviest particles' cards, and
§6.1's scores once the corpus is read. The charts themselves: ui/particle_view.py."""
import streamlit as st

from ui import charts
from ui.kinds.segmentation import legend
from ui.particle_view import (GENEALOGY_PARTICLES, ess_chart, genealogy_chart, particle_cards,
                              weights_chart, z_chart)

GENEALOGY_WINDOW = 40  # the utterances the genealogy reaches back
SCORES = (("token_f", "token F"), ("boundary_f", "boundary F"), ("lexicon_f", "lexicon F"),
          ("log_prob", "log-prob ×10³"))


def draw_filter(filter_, log_scale, key):
    """The filter as it stands: its figures, charts and heaviest particles; the weights on a
    log scale when ``log_scale``; ``key(name)`` the page's session keys (the charts')."""
    n, total = filter_.n, filter_.total_sweeps
    trace = filter_.trace
    last = trace[-1] if trace else None
    cols = st.columns(5)
    cols[0].metric("Utterances read", f"{filter_.read:,} / {total:,}")
    cols[1].metric("ESS", f"{last['ess']:.1f}" if last else f"{n}",
                   help="eq. 12: 1 / Σ w², before resampling")
    cols[2].metric("Resamplings", f"{sum(r['resampled'] for r in trace):,}")
    cols[3].metric("Distinct parents", f"{last['distinct_particles']:,}" if last else f"{n}",
                   help="particles with offspring at the last utterance (N when it did not "
                        "resample)")
    cols[4].metric("log Ẑ", f"{filter_.log_z:,.1f}",
                   help="Π over utterances of the mean unnormalised weight: an unbiased "
                        "estimate of P(utterances read)")
    left, right = st.columns(2)
    charts.show(left, weights_chart(filter_.log_w_read, log_scale), key("weights"))
    charts.show(right, ess_chart([(r["utterance"], r["ess"], r["resampled"]) for r in trace],
                                 n, filter_.threshold, total), key("ess"))
    left, right = st.columns(2)
    charts.show(left, genealogy_chart(filter_.history, n, GENEALOGY_WINDOW), key("genealogy"))
    charts.show(right, z_chart([(r["utterance"], r["log_z"]) for r in trace], total), key("z"))
    if n > GENEALOGY_PARTICLES:
        st.caption(f"The genealogy traces {GENEALOGY_PARTICLES} of the {n:,} particles of now "
                   "(evenly spaced) back to their ancestors: where lines merge, resampling "
                   "gave them a common ancestor. All N lines would fill the chart.")
    if filter_.history:
        st.markdown(f"**The heaviest particles on utterance {filter_.read:,}**",
                    help="by their weight after reading it, before resampling: each one's "
                         "segmentation of the utterance, and its most frequent words (count "
                         "after each)")
        st.markdown(legend(), unsafe_allow_html=True)
        st.markdown(particle_cards(filter_, filter_.read - 1), unsafe_allow_html=True)


def evaluation(filter_, key):
    """§6.1's scores once the corpus is read (a button: it segments every utterance again),
    kept in the session as ``key("scores")``."""
    if not filter_.finished:
        st.caption("When every utterance is read, §6.1's evaluation scores the particles here.")
        return
    if st.button("Score the particles (§6.1)", icon=":material/fact_check:", key=key("score"),
                 help="each particle frozen, every utterance segmented by a draw from Q, the "
                      "scores weighted by the particles' weights"):
        st.session_state[key("scores")] = filter_.evaluate()
    scores = st.session_state.get(key("scores"))
    if scores:
        for col, (name, words) in zip(st.columns(len(SCORES)), SCORES):
            value = scores[name] / 1000 if name == "log_prob" else 100 * scores[name]
            col.metric(words, f"{value:,.2f}")
