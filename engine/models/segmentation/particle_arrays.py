"""What the segmentation models' particle kernels (engine.models.usm.particles,
engine.models.bigram.particles, engine.models.usm.rejuvenation) share besides the particles: the
corpus as they read it, and what reading one utterance gives each particle."""
from collections import namedtuple


class ParticleCorpus(namedtuple("ParticleCorpus", ["chars", "utt_start", "sub", "sub_off"])):
    """A corpus of U utterances (T symbols) and its substrings' types, read and never written.

    chars : int32[T]          symbol codes, utterances concatenated
    utt_start : int64[U + 1]  where each utterance starts (and T at the end)
    sub : int32[Σ n²]         each substring's type (engine.core.substrings: utterance u of n
                              symbols owns sub[sub_off[u] + i·n + j − 1] for its symbols i … j − 1)
    sub_off : int64[U + 1]    where each utterance's block of ``sub`` starts
    """

    __slots__ = ()


class Reading(namedtuple("Reading", ["log_inc", "log_qo", "bounds"])):
    """What reading one utterance of n symbols gives each of N particles (written by the
    kernels' ``propagate``).

    log_inc : float64[N]   eq. 10's factor of the particle's weight
    log_qo : float64[N]    log Q(o | s), the proposal's normaliser
    bounds : uint8[N, ≥ n] the drawn segmentation: 1 where a word ends
    """

    __slots__ = ()
