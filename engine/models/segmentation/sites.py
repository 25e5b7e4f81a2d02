"""Sites and sentences of a word-segmentation state, the same for every segmentation model (the
unigram model, the bigram model): their states keep the corpus in the same arrays.

Site s is the gap after symbol ``site_pos[s]`` (value 1: a word boundary, ``bound`` = 1 there);
every utterance's last symbol has no site, so the sites of utterance u are
utt_start[u] − u … utt_start[u + 1] − 1 − u. The words around a site are found by scanning
``bound`` (``word_start``, ``word_end``, ``site_span``).
"""
import numpy as np

from engine.core.jit import inline
from engine.core.word_hash import same_symbols
from engine.kernels import interface


def n_sites(state):
    """interface.n_sites: the non-final symbols.

    Parameters
    ----------
    state : a segmentation model's state (UsmState, BigramState)

    Returns
    -------
    int
    """
    return state.site_pos.shape[0]


def n_values(state):
    """interface.n_values: 2 (no boundary, boundary).

    Parameters
    ----------
    state : a segmentation model's state (UsmState, BigramState)

    Returns
    -------
    int
    """
    return 2


def get_value(state, s):
    """interface.get_value: b_s, whether a word ends after site s's symbol.

    Parameters
    ----------
    state : a segmentation model's state (UsmState, BigramState)
    s : int

    Returns
    -------
    int64
    """
    return np.int64(state.bound[state.site_pos[s]])


def n_sentences(state):
    """interface.n_sentences: the utterances.

    Parameters
    ----------
    state : a segmentation model's state (UsmState, BigramState)

    Returns
    -------
    int
    """
    return state.utt_start.shape[0] - 1


def sentence_sites(state, u):
    """interface.sentence_sites: utterance u's sites, utt_start[u] − u … utt_start[u + 1] − 2 − u.

    Parameters
    ----------
    state : a segmentation model's state (UsmState, BigramState)
    u : int

    Returns
    -------
    (int, int)
        start, stop.
    """
    return state.utt_start[u] - u, state.utt_start[u + 1] - 1 - u


def implement_sites(implements):
    """Register these for a segmentation model's state (``implements = for_state(State)``)."""
    for stub, impl in ((interface.n_sites, n_sites), (interface.n_values, n_values),
                       (interface.get_value, get_value), (interface.n_sentences, n_sentences),
                       (interface.sentence_sites, sentence_sites)):
        implements(stub)(impl)


# --- the words around a symbol ------------------------------------------------------------------
@inline
def word_start(bound, p):
    """Start of the word that contains symbol p (an utterance's end always has bound = 1, so the
    scan never crosses into the previous utterance). bound, one byte a symbol, stays in the
    processor's cache: these scans cost less than keeping every symbol's word.

    Parameters
    ----------
    bound : uint8[T]
    p : int

    Returns
    -------
    int
    """
    a = p
    while a > 0 and bound[a - 1] == 0:
        a -= 1
    return a


@inline
def word_end(bound, q):
    """End (exclusive) of the word that contains symbol q.

    Parameters
    ----------
    bound : uint8[T]
    q : int

    Returns
    -------
    int
    """
    while bound[q] == 0:
        q += 1
    return q + 1


@inline
def site_span(state, s):
    """(a, p, e): site s follows symbol p; its words cover chars[a:e], split as [a, p] | [p+1, e)
    when b_s = 1. a and e do not depend on b_s.

    Parameters
    ----------
    state : a segmentation model's state (UsmState, BigramState)
    s : int
        The site.

    Returns
    -------
    (int, int, int)
        a, p, e.
    """
    p = np.int64(state.site_pos[s])  # (the USM keeps site_pos in 32 bits)
    return word_start(state.bound, p), p, word_end(state.bound, p + 1)


@inline
def same_halves(state, a, p, e):
    """1 when the words chars[a : p+1] and chars[p+1 : e] are the same word, else 0.

    Parameters
    ----------
    state : a segmentation model's state (UsmState, BigramState)
    a, p, e : int

    Returns
    -------
    int
    """
    length = p + 1 - a
    return 1 if length == e - p - 1 and same_symbols(state.chars, a, p + 1, length) else 0
