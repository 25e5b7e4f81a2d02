"""The Bayesian HMM for part-of-speech induction (SPEC §4; Liang et al. §3, Gao & Johnson §2).

K hidden states plus a boundary state 0 that starts and ends every sentence; symmetric
Dirichlet priors on transitions (α) and emissions (α′). Its exact collapsed log-probability of a
tagging is eq. 3 of Liang et al. (``engine.models.hmm.kernels.log_likelihood``).
"""
import copy
import math

import numpy as np

from datasets.builtin import tagged_builtin
from datasets.tagged import AUTO, FORMATS, format_wordtag, load_tagged
from engine.core.dirichlet import zero_count_table
from engine.core.state import clone
from engine.models.hmm.kernels import scoring, token_moves, type_blocks
from engine.models.hmm.kernels.layout import DECODINGS, HmmState
from engine.models.hmm.kernels.neighbours import build_type_index
from engine.models.hmm.kernels.scoring import count_all, log_likelihood
from engine.models.hmm import estimators as hmm_estimators
from engine.models.hmm import sentence as hmm_sentence
from engine.scoring.metrics import confusion, tagging_scores
from engine.models.protocol import (ChainModel, CorpusModel, ModelBase, Option, Parameters,
                                    Presentation, SiteView)
from engine.models.registry import register

BOUNDARY = "·"  # how a page writes the boundary state 0 in a type
# the state's fields that hold the corpus: read by kernels, never written, shared by copies
CORPUS_FIELDS = ("words", "first", "last", "sent_start", "params", "gammas")


def check_prior(alpha, alpha_emit):
    """A ValueError unless α and α′ are positive numbers."""
    for label, value in (("α", alpha), ("α′", alpha_emit)):
        if not (math.isfinite(value) and value > 0):
            raise ValueError(f"{label} must be a positive number (got {value})")


@register
class HmmModel(ModelBase):
    """Sentences of words under the HMM with K states.

    Parameters
    ----------
    sentences : sequence of sequences of str
        The words of each sentence (no sentence may be empty).
    n_states : int
        K, the number of hidden states (≥ 2).
    gold_tags : sequence of sequences of str, or None
        Gold tags per token; enables the measures.
    alpha, alpha_emit : float
        α (transitions) and α′ (emissions).
    decode : str
        How EM and variational Bayes tag the corpus from their parameters: "posterior" (each
        token's max-marginal state) or "viterbi" (the most probable tagging).
    """

    roles = (ChainModel, Presentation, CorpusModel, Parameters)
    label = "Part-of-speech tagging (HMM)"
    summary = ("The Bayesian HMM of Goldwater & Griffiths / Gao & Johnson: sites are tokens, "
               "a type is (previous state, word, next state).")
    samplers = ("token", "type", "anneal", "greedy", "sentence",
                "em", "vb", "explicit-token", "explicit-sentence")
    options = (
        Option("n_states", "--states", int, None,
               "K, the number of hidden states (default: the number of gold tags, else 10)",
               2, 1000),
        Option("alpha", "--alpha", float, 0.1, "α, the transition prior", 1e-9, 1e9),
        Option("alpha_emit", "--alpha-emit", float, 0.1, "α′, the emission prior", 1e-9, 1e9),
        Option("decode", "--decode", str, "posterior",
               "how EM and variational Bayes tag the corpus from their parameters: posterior "
               "(each token's most probable state) or viterbi (the most probable tagging)",
               choices=tuple(DECODINGS)),
        Option("format", "--format", str, AUTO,
               "the corpus format: auto (told from the text), conllu (UPOS), conllu-xpos, "
               "wordtag (word/TAG, a sentence per line) or wordtag-lines (word TAG per line)",
               choices=(AUTO,) + FORMATS, reads=True),
        Option("lowercase", "--lowercase", bool, False, "lowercase the words", reads=True),
    )
    display = "tagging"  # its kind of data (datasets/tagged.py, ui/kinds/tagging.py)
    trace_labels = {"acc_many_to_one": "many-to-one accuracy",
                    "acc_one_to_one": "greedy 1-to-1 accuracy",
                    "acc_cross_validation": "cross-validation accuracy",
                    "vi": "variation of information (bits)", "states_used": "states used"}
    loglik_label = "log p(tags, words)"
    order = 2
    kernel_modules = (scoring, token_moves, type_blocks, hmm_sentence, hmm_estimators)
    lowercased = False  # whether build lowercased the corpus's words

    @classmethod
    def build(cls, path=None, n_states=None, alpha=0.1, alpha_emit=0.1, decode="posterior",
              format=AUTO, lowercase=False):
        """The model of a tagged corpus file, or of the built-in simple sentences when path
        is None."""
        corpus = tagged_builtin() if path is None else load_tagged(path, format, lowercase)
        model = cls.from_corpus(corpus, n_states, alpha=alpha, alpha_emit=alpha_emit,
                                decode=decode)
        model.lowercased = bool(lowercase)
        if corpus.skipped:
            model.notes = [f"skipped {corpus.skipped:,} multiword-token or empty-node lines"]
        return model

    @classmethod
    def tiny(cls):
        return cls([["a", "b", "a"], ["b"]], 3, gold_tags=[["X", "Y", "X"], ["Y"]])

    def __init__(self, sentences, n_states, gold_tags=None, alpha=0.1, alpha_emit=0.1,
                 decode="posterior"):
        if not sentences or not all(len(s) for s in sentences):
            raise ValueError("the corpus needs at least one sentence and no empty ones")
        if not (isinstance(n_states, (int, np.integer)) and 2 <= n_states <= 1000):
            raise ValueError(f"the number of states K must be a whole number from 2 to 1,000 "
                             f"(got {n_states})")
        check_prior(alpha, alpha_emit)
        if decode not in DECODINGS:
            raise ValueError(f"the decoding must be one of {', '.join(DECODINGS)} "
                             f"(got {decode!r})")
        self.decode = decode
        self.sentences = tuple(tuple(s) for s in sentences)
        self.n_states = int(n_states)
        self.alpha, self.alpha_emit = float(alpha), float(alpha_emit)
        self.vocabulary = sorted({w for s in self.sentences for w in s})
        index = {w: i for i, w in enumerate(self.vocabulary)}
        self.words = np.array([index[w] for s in self.sentences for w in s], dtype=np.int64)
        lengths = np.array([len(s) for s in self.sentences])
        self.sent_start = np.r_[0, np.cumsum(lengths)].astype(np.int64)
        self.first = np.zeros(len(self.words), dtype=np.uint8)
        self.first[self.sent_start[:-1]] = 1
        self.last = np.zeros(len(self.words), dtype=np.uint8)
        self.last[self.sent_start[1:] - 1] = 1
        self.tag_set, self.gold = (), None
        if gold_tags is not None:
            if [len(t) for t in gold_tags] != [len(s) for s in self.sentences]:
                raise ValueError("the gold tags must give every token of every sentence a tag")
            self.tag_set = tuple(sorted({t for tags in gold_tags for t in tags}))
            code = {t: i for i, t in enumerate(self.tag_set)}
            self.gold = np.array([code[t] for tags in gold_tags for t in tags], dtype=np.int64)
        # cross-validation learns its state → tag map on the first half of the sentences
        self.half = int(self.sent_start[len(self.sentences) // 2])

    def with_prior(self, alpha, alpha_emit):
        """This model with other Dirichlet parameters, its corpus shared (Gao & Johnson's grid
        of (α, α′))."""
        check_prior(alpha, alpha_emit)
        other = copy.copy(self)
        other.alpha, other.alpha_emit = float(alpha), float(alpha_emit)
        return other

    @classmethod
    def from_corpus(cls, corpus, n_states=None, **prior):
        """The model of a TaggedCorpus (datasets.tagged); K defaults to the number of gold tags
        (10 without gold)."""
        if n_states is None:
            n_states = max(2, len(corpus.tag_set)) if corpus.tags else 10
        return cls(corpus.sentences, n_states, gold_tags=corpus.tags, **prior)

    @property
    def n_sites(self):
        return len(self.words)

    def new_state(self, rng, eta=1.0):
        """Each token in state 1 with probability η, else in a uniformly random state (§5.2)."""
        if not 0.0 <= eta <= 1.0:
            raise ValueError(f"η must be in [0, 1] (got {eta})")
        n = self.n_sites
        tags = np.where(rng.random(n) < eta, 1, rng.integers(1, self.n_states + 1, size=n))
        return self.state_from_tags(tags)

    def state_from_tags(self, tags):
        """A state for the tagging ``tags`` (int[N], states 1 … K)."""
        tags = np.asarray(tags, dtype=np.int64).copy()
        if tags.shape != self.words.shape or tags.min() < 1 or tags.max() > self.n_states:
            raise ValueError(f"a tagging must give every token a state from 1 to {self.n_states}")
        k1, n, v = self.n_states + 1, self.n_sites, len(self.vocabulary)
        capacity = 1 << max(4, int(2 * n).bit_length())
        state = HmmState(
            words=self.words, tag=tags, first=self.first, last=self.last,
            sent_start=self.sent_start,
            params=np.array([self.alpha, self.alpha_emit, DECODINGS[self.decode]]),
            gammas=np.stack([zero_count_table(self.alpha), zero_count_table(self.alpha_emit)]),
            trans=np.zeros((k1, k1), np.int64), trans_total=np.zeros(k1, np.int64),
            emit=np.zeros((k1, v), np.int64), emit_total=np.zeros(k1, np.int64),
            trans_num_t=np.zeros((k1, k1)), emit_num_t=np.zeros((v, k1)), inv_den=np.zeros(k1),
            removed=np.zeros(n, np.uint8),
            slot_key=np.full(capacity, -1, np.int64), slot_head=np.full(capacity, -1, np.int64),
            slot_size=np.zeros(capacity, np.int64), site_next=np.full(n, -1, np.int64),
            site_prev=np.full(n, -1, np.int64), typed=np.zeros(1, np.uint8))
        count_all(state)
        return state

    def state_from_values(self, values):
        """The state of a tagging as ``values`` gives it (states 1 … K)."""
        return self.state_from_tags(values)

    def clone_state(self, state):
        return clone(state, shared=CORPUS_FIELDS)

    def loglik(self, state):
        """Exact log p(z, w), recounted from the tags alone."""
        return log_likelihood(self.state_from_tags(state.tag))

    def loglik_running(self, state):
        """The same from the state's running counts."""
        return log_likelihood(state)

    def measures(self, state):
        """The four tagging measures against the gold tags ({} without gold)."""
        if self.gold is None:
            return {}
        return tagging_scores(state.tag, self.gold, self.n_states, len(self.tag_set), self.half)

    def scalars(self, state):
        return {"states_used": int(np.count_nonzero(state.emit_total[1:]))}

    def confusion(self, state):
        """int64[K, tags]: how many tokens in each state carry each gold tag."""
        return confusion(state.tag - 1, self.gold, self.n_states, len(self.tag_set))

    def counts(self, state):
        """The count tables and the type → tokens index ({key: sorted tokens}; built on a copy
        when the state does not keep it)."""
        if not state.typed[0]:
            state = self.clone_state(state)
            build_type_index(state)
        index = {}
        for slot in np.flatnonzero(state.slot_key >= 0):
            tokens, x = [], state.slot_head[slot]
            while x >= 0:
                tokens.append(int(x))
                x = state.site_next[x]
            if len(tokens) != state.slot_size[slot]:
                raise AssertionError(f"the type index's slot {slot} miscounts its tokens")
            index[int(state.slot_key[slot])] = sorted(tokens)
        tables = ("trans", "trans_total", "emit", "emit_total",  # the counts, and the
                  "trans_num_t", "emit_num_t", "inv_den")           # float copies TOKEN reads
        return {name: getattr(state, name).copy() for name in tables} | {"type_index": index}

    def describe_site(self, state, s):
        """The token's type as `previous → “word” → next` (· for a sentence edge)."""
        previous, following, word = self.site_type(state, s)
        edge = [str(previous or BOUNDARY), str(following or BOUNDARY)]
        return SiteView(f"{edge[0]} → “{word}” → {edge[1]}",
                        tuple(f"state {v + 1}" for v in range(self.n_states)))

    def write_analysis(self, state):
        """The tagging as word/STATE tokens, a sentence per line (states 1 … K)."""
        states = [[str(k) for k in state.tag[a:b]]
                  for a, b in zip(self.sent_start[:-1], self.sent_start[1:])]
        return format_wordtag(self.sentences, states)

    def read_analysis(self, path):
        """The state of a word/STATE tagging of this model's sentences (their words exactly:
        a tagging from a ``--lowercase`` run is scored by a lowercased model)."""
        analysis = load_tagged(path, "wordtag")
        if analysis.sentences != self.sentences:
            lowered = tuple(tuple(w.lower() for w in s) for s in self.sentences)
            hint = (" (its words are lowercased: score it with --lowercase too)"
                    if analysis.sentences == lowered else "")
            raise ValueError(f"{path}: its words differ from the corpus's{hint}: give a tagging "
                             "of the same sentences")
        try:
            states = [int(k) for tags in analysis.tags for k in tags]
        except ValueError:
            raise ValueError(f"{path}: the tags must be state numbers 1 … {self.n_states}") from None
        return self.state_from_tags(states)

    def site_type(self, state, s):
        """The type of token s (Liang et al. §4.2): (previous state, next state, word), with 0
        for the boundary state at a sentence's edge."""
        previous = 0 if self.first[s] else int(state.tag[s - 1])
        following = 0 if self.last[s] else int(state.tag[s + 1])
        return previous, following, self.vocabulary[self.words[s]]

    def site_place(self, s):
        """(sentence, position within it) of token s."""
        u = int(np.searchsorted(self.sent_start, s, side="right")) - 1
        return u, int(s - self.sent_start[u])

    def values(self, state):
        """Every token's state, 1 … K, in corpus order."""
        return state.tag.copy()
