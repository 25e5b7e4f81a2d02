"""Sites and sentences of a word-segmentation state, the same for every segmentation model (the
unigram model, the bigram model): their states keep the corpus in the same arrays.

Site s is the gap after symbol ``site_pos[s]`` (value 1: a word boundary, ``bound`` = 1 there);
every utterance's last symbol has no site, so the sites of utterance u are
utt_start[u] − u … utt_start[u + 1] − 1 − u.
"""
import numpy as np

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
