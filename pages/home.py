"""Home: what the lab teaches, the lessons, and how to read the plots."""
import streamlit as st

from engine import samplers
from engine.models import registry
from ui.page import prologue
from ui.theme import colour_key

prologue("Typeblocks")  # Home runs no kernel
st.markdown(
    "**An interactive lab for why some MCMC samplers for Bayesian NLP models get stuck and "
    "others don't.** Every sampler here runs step by step in a compiled engine while you "
    "watch. The lessons follow Liang, Jordan & Klein (2010), *Type-based MCMC*: a sampler that "
    "changes one variable at a time (TOKEN) cannot leave a mode that only a coordinated change "
    "of many variables escapes; a sampler that changes all the variables of one *type* at once "
    "(TYPE) can, and it stays exact.")

st.subheader("Lessons")
st.page_link("pages/toy_posterior.py", label="Toy posterior", icon=":material/stacked_line_chart:")
st.markdown(
    "n copies of the string `ab`, each either one word or two. The exact posterior over m, "
    "the number of split copies, has a sharp mode; TOKEN started at m = n needs several passes "
    "to leave it, TYPE jumps there in one move. Race TOKEN, TYPE, TOKEN-anneal and TYPE-greedy "
    "from the same start, see TYPE's draws against the exact posterior, and measure TOKEN's "
    "escape time over many seeds.")
st.page_link("pages/type_blocks.py", label="Type blocks", icon=":material/view_module:")
st.markdown(
    "One TYPE move at a time on a small corpus of utterances: the pivot boundary, its type "
    "(`ab|c` versus `abc`), every site of that type across the corpus, the ones left out "
    "because they touch a word already in the block, the exact distribution of how many to "
    "split (eq. 7), the draw, and what TOKEN would do at the same site.")
st.page_link("pages/word_segmentation.py", label="Word segmentation",
             icon=":material/segment:")
st.markdown(
    "The unigram or the bigram word-segmentation model on a corpus of child-directed speech "
    "(built in, synthetic, or yours): TOKEN, TYPE, TOKEN-anneal, TYPE-greedy and SENTENCE "
    "(the bigram model: TOKEN, TOKEN-anneal, SENTENCE) race from the same start, with log-probability and F against engine time (Fig. 5), the segmentation "
    "coloured correct / spurious / missed, and the lexicon each sampler has found.")
st.page_link("pages/tag_trajectories.py", label="HMM tag trajectories", icon=":material/label:")
st.markdown(
    "The Bayesian HMM for part-of-speech induction on simple tagged sentences (built in, "
    "synthetic from a known HMM, or your CoNLL-U / word/TAG file): heatmaps of every token's "
    "state pass by pass for TOKEN and TYPE side by side, one word's states over time, accuracy "
    "and log-probability for all five samplers, and the states-against-tags confusion matrix.")
st.page_link("pages/hmm_estimators.py", label="HMM estimators",
             icon=":material/compare_arrows:")
st.markdown(
    "Gao & Johnson's six estimators of the same HMM from one start: EM, variational Bayes, "
    "explicit and collapsed Gibbs, pointwise and blocked. Their objectives and the four "
    "tagging measures against iterations or engine time, their eight (α, α′), and a grid on "
    "Dask that fills their Figures 2–5 on your corpus.")
st.page_link("pages/restaurants.py", label="Restaurants", icon=":material/restaurant:")
st.markdown(
    "The Chinese restaurant behind the Dirichlet and Pitman-Yor processes, filling up customer "
    "by customer, with its seating kept both explicitly and as the histogram of table sizes "
    "(Blunsom et al. 2009); then the note's Figure 2 on a corpus you pick: the expected number "
    "of tables against word frequency, Antoniak's and GGJ06's approximations, and why the "
    "bigram segmentation model must count its tables.")
st.page_link("pages/particle_filter.py", label="Particle filter", icon=":material/scatter_plot:")
st.markdown(
    "Word segmentation learned online (Börschinger & Johnson 2011): N weighted particles read "
    "the utterances once, each drawing a segmentation from its own frozen model. Watch the "
    "weights degenerate, the effective sample size fall to the threshold, resampling merge "
    "the genealogy, and Ẑ estimate the corpus's probability; switch on rejuvenation (TOKEN or "
    "TYPE moves inside each particle), run their Table 1 on Dask, and see what reading once "
    "costs against batch samplers of the same model.")
st.page_link("pages/sampler_race.py", label="Sampler race", icon=":material/monitoring:")
st.markdown(
    "Diagnose mixing on any model and any corpus (yours too): several chains of every sampler "
    "(and of TYPE + TOKEN, TYPE + SENTENCE) from different starts, running in worker processes, "
    "with R̂ and ESS per sampler, a verdict line, the autocorrelation, and the initialisation "
    "sweep over η (Fig. 5 d–f) on a Dask cluster.")

st.subheader("How to read the plots")
st.markdown(
    f"- **Colours** stand for samplers, the same on every page: {colour_key(samplers.names())}; "
    "exact quantities are dark grey.\n"
    "- **A pass** (sweep) visits every site once: TOKEN resamples each site in order; TYPE "
    "picks each site as a pivot in random order and resamples its whole type block; SENTENCE "
    "proposes each utterance's whole segmentation.\n"
    "- **Traces against passes** start at pass 0, the shared initial state, so differences "
    "between lines are the samplers' doing, not the start's.\n"
    "- **Exact curves** come from enumeration or closed forms, never from sampling; a "
    "sampler's histogram should match them up to sampling noise.\n"
    "- **Play / Step / Reset** (keys **Space**, **→**, **0**): Play advances every chain on each "
    "tick; Step does one pass; Reset restarts from the same seed (change the seed for other "
    "chains). The **clock** says what a race compares: *equal passes* (every sampler does the "
    "same number of passes) or *equal engine time* (every sampler gets the same milliseconds, "
    "as in the paper's Fig. 5).\n"
    "- **Share this view** (on every lesson) gives a link that opens the page with the same "
    "settings in any browser, and a link for each preset: send it to students. Leaving a page "
    "and coming back finds its run where it was; only Reset starts it again.",
    unsafe_allow_html=True)

st.subheader("The samplers")
st.markdown("| name | what one move does |\n|---|---|\n" + "".join(
    f"| {entry.label} | {entry.help} |\n" for entry in samplers.SAMPLERS.values()))

st.subheader("The models")
st.markdown("| model | what it is | samplers |\n|---|---|---|\n" + "".join(
    f"| {cls.label} | {cls.summary} | "
    f"{', '.join(samplers.label(n) for n in (*samplers.offered(cls.samplers), *cls.populations))} |\n"
    for cls in registry.models().values()))
