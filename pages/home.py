"""Home: what the lab teaches, the course through the lessons, how to read the plots, the
glossary the lessons link to, and the samplers and models."""
import streamlit as st

from engine import samplers
from engine.models import registry
from ui import course, readiness
from ui.page import prologue
from ui.theme import colour_key

prologue("Typeblocks")  # Home runs no kernel


def term(word, text=None):
    """A link to ``word``'s glossary entry below (it scrolls this page)."""
    return course.term(word, text, here=True)


st.markdown(
    "**An interactive lab for why some MCMC samplers for Bayesian NLP models get stuck and "
    "others don't.** Every sampler here runs step by step in a compiled engine while you "
    "watch. The lessons follow Liang, Jordan & Klein (2010), *Type-based MCMC*: a sampler that "
    f"changes one variable at a time ({term('TOKEN')}) cannot leave a mode that only a "
    "coordinated change of many variables escapes; a sampler that changes all the variables of "
    f"one *{term('type')}* at once ({term('TYPE')}) can, and it stays exact.")

readiness.show()

st.subheader("The course", anchor="course")
st.markdown(
    "The lessons in a suggested order: each builds on the ones it names. Every lesson ends "
    "with exercises — predict what a run will show, open it with one link, then read the "
    "answer. The words linked here and in the exercises are explained in the "
    "[glossary](#glossary) below.")
for number, lesson in enumerate(course.LESSONS, 1):
    with st.container(border=True):
        st.page_link(lesson.page, label=f"{number}. {lesson.title}", icon=lesson.icon)
        assumes = " and ".join(lesson.assumes) if lesson.assumes else "nothing beyond Gibbs "\
            "sampling: start here"
        st.markdown(f"**Goal:** {lesson.goal}  \n{lesson.shows}  \n*Assumes:* {assumes}.")
st.page_link("pages/side_by_side.py", label="Side by side", icon=":material/splitscreen:")
st.markdown("Two views of a lesson at once, each with its own settings and its own Play — for "
            "“what changes if …”: with and without rejuvenation, one prior against another, "
            "any two links from a lesson's **Share this view**.")

st.subheader("How to read the plots")
st.markdown(
    f"- **Colours** stand for samplers, the same on every page: {colour_key(samplers.names())}; "
    "exact quantities are dark grey.\n"
    f"- **A {term('pass')}** ({term('sweep')}) visits every {term('site')} once: TOKEN "
    f"resamples each site in order; TYPE takes each site in turn as a {term('pivot')} (in site "
    "order; for the toy and the HMM in a fresh random order) "
    f"and resamples its whole type {term('block')}; {term('SENTENCE')} proposes each "
    "utterance's whole segmentation.\n"
    "- **Traces against passes** start at pass 0, the shared initial state, so differences "
    "between lines are the samplers' doing, not the start's.\n"
    "- **Exact curves** come from enumeration or closed forms, never from sampling; a "
    "sampler's histogram should match them up to sampling noise.\n"
    "- **Play / Step / Reset** (keys **Space**, **→**, **0**): Play advances every chain on each "
    "tick; Step does one pass; Reset restarts from the same seed (change the seed for other "
    "chains). The **clock** says what a race compares: *equal passes* (every sampler does the "
    f"same number of passes) or *equal {term('engine time')}* (every sampler gets the same "
    "milliseconds, as in the paper's Fig. 5).\n"
    "- **Share this view** (on every lesson) gives a link that opens the page with the same "
    "settings in any browser, and a link for each preset: send it to students. Leaving a page "
    "and coming back finds its run where it was; only Reset starts it again.",
    unsafe_allow_html=True)

st.subheader("Glossary", anchor="glossary")
st.caption("The papers' words as the lessons use them; every entry has a link of its own "
           "(the lessons' exercises link here).")
middle = -(-len(course.GLOSSARY) // 2)
for column, entries in zip(st.columns(2), (course.GLOSSARY[:middle], course.GLOSSARY[middle:])):
    with column:
        for entry in entries:
            # a heading, so that a link to its anchor scrolls here when the page opens
            st.markdown(f"<h6 data-anchor='{course.anchor(entry.word)}'>{entry.word}</h6>\n\n"
                        f"{entry.text}", unsafe_allow_html=True)

st.subheader("The samplers")
st.markdown("| name | what one move does |\n|---|---|\n" + "".join(
    f"| {entry.label} | {entry.help} |\n" for entry in samplers.SAMPLERS.values()))

st.subheader("The models")
st.markdown("| model | what it is | samplers |\n|---|---|---|\n" + "".join(
    f"| {cls.label} | {cls.summary} | "
    f"{', '.join(samplers.label(n) for n in (*samplers.offered(cls.samplers), *cls.populations))} |\n"
    for cls in registry.models().values()))
