"""The HMM tag trajectories lesson's views of a race: each token's state pass by pass (TOKEN and
TYPE side by side), the states one word's tokens are in over the passes, the states against
the gold tags, and the words one may follow."""
import numpy as np
import streamlit as st

from engine.run import thinned
from ui import charts
from ui.settings import echo
from ui.theme import label

WINDOW = 60  # tokens in the trajectory heatmaps
FOLLOWED = 200  # the words one may follow: the corpus's most frequent


def trajectories(race, start, key_of):
    """Tokens start … start + WINDOW − 1 × passes coloured by state, for TOKEN and TYPE side by
    side (the race's first two samplers when it runs neither); ``key_of(name)`` keys a
    chain's chart."""
    shown = [name for name in ("token", "type") if name in race.runs] or list(race.runs)[:2]
    model = next(iter(race.runs.values())).model
    start = min(start, max(0, model.n_sites - WINDOW))
    tokens = np.arange(start, min(start + WINDOW, model.n_sites))
    words = [model.vocabulary[w] for w in model.words[tokens]]
    for col, name in zip(st.columns(len(shown)), shown):
        spec, data, cells = charts.state_trajectories(
            race.runs[name].values, tokens, words,
            f"{label(name)}: each token's state, pass by pass")
        charts.show_live(col, spec, data, key_of(name), table=cells)


def word_and_confusion(name, run, word, word_key, confusion_key):
    """Chain ``name``'s states of the tokens of ``word`` over its passes, beside its states
    against the gold tags (when the corpus has them)."""
    model = run.model
    positions = np.flatnonzero(model.words == model.vocabulary.index(word))
    passes = thinned(len(run.values), charts.AREA_ROWS)
    shares = np.array([np.bincount(run.values[p][positions], minlength=model.n_states + 1)[1:]
                       for p in passes]) / len(positions)
    left, right = st.columns(2)
    title = f"{label(name)}: states of the {len(positions):,} tokens of “{word}”"
    charts.show_live(left, *charts.state_shares(passes, shares, model.n_states, title), word_key)
    if model.gold is not None:
        charts.show_live(right, *charts.confusion(model.confusion(run.state), model.n_states,
                                                  list(model.tag_set),
                                                  f"{label(name)}: states against gold tags"),
                         confusion_key)


def frequent_words(model):
    """The corpus's FOLLOWED most frequent words, most frequent first: the words one may
    follow."""
    counts = np.bincount(model.words, minlength=len(model.vocabulary))
    return [model.vocabulary[i] for i in np.argsort(-counts, kind="stable")[:FOLLOWED]]


def default_word(frequent):
    """The most frequent word with a letter in it: punctuation like "." is one flat band."""
    return next((w for w in frequent if any(c.isalpha() for c in w)), frequent[0])


def fit_word(settings, name, model):
    """The words one may follow in ``model``'s corpus, the followed word (setting ``name`` of
    the page's ``settings``) fitted to them: one they do not hold (a link's, another corpus's)
    is said and replaced by ``default_word``."""
    frequent = frequent_words(model)
    word = st.session_state[settings.key(name)]
    if word not in frequent:
        why = f"it is not among this corpus's {FOLLOWED} most frequent words"
        if word and name not in settings.linked():  # a link's is said in its notice
            st.warning(f"{echo(word)}: {why}; following another.")
        settings.fit(name, default_word(frequent), why)
    return frequent
