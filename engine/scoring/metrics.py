"""How close an analysis is to the gold one: word segmentation and part-of-speech tagging.

Segmentation (Börschinger & Johnson 2011, §6.1): precision, recall and F of

- tokens: a predicted word is right when both its edges are gold boundaries and no gold
  boundary falls inside it;
- boundaries: word boundaries inside utterances (utterance edges are not counted);
- the lexicon: the set of distinct predicted words against the set of distinct gold words.

Tagging (Gao & Johnson 2008, §4): accuracy after mapping each state to the gold tag it
co-occurs with most (many-to-one), after a greedy one-to-one mapping, after a many-to-one map
learnt on the first half of the sentences and applied to the second (cross-validation), and the
variation of information (Meilă 2003) in bits.

Everything is vectorised over the corpus: a trace row on a 100k-token corpus costs a few
milliseconds.
"""
import numpy as np

from engine.core.word_hash import fill_prefix_hashes, fill_word_keys


def precision_recall_f(correct, predicted, gold):
    """(P, R, F) as fractions; a measure with nothing to count is 0."""
    p = correct / predicted if predicted else 0.0
    r = correct / gold if gold else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def _scores(name, correct, predicted, gold):
    p, r, f = precision_recall_f(int(correct), int(predicted), int(gold))
    return {f"{name}_p": p, f"{name}_r": r, f"{name}_f": f}


def word_spans(bound):
    """(starts, ends) of the words of a segmentation: ends are exclusive. ``bound`` (uint8[T]) has
    a 1 at every symbol that ends a word, utterance ends included."""
    ends = np.flatnonzero(bound) + 1
    starts = np.r_[0, ends[:-1]]
    return starts, ends


def word_types(prefix, power, starts, ends):
    """The distinct words among the spans, as sorted 64-bit keys (engine.core.word_hash: a hash
    of symbols and length).

    Two different words share a key only if their hashes collide, which for a lexicon of n
    words happens with probability about n² / 2⁵⁶ (≈ 10⁻⁸ for 30,000 words).
    """
    keys = np.empty(len(starts), dtype=np.int64)
    fill_word_keys(prefix, power, starts.astype(np.int64), ends.astype(np.int64), keys)
    return np.unique(keys)


def segmentation_scores(final, bound, gold, prefix, power, gold_types=None):
    """The nine segmentation figures of an analysis against the gold one.

    Parameters
    ----------
    final : uint8[T]      1 at the last symbol of each utterance
    bound, gold : uint8[T]   predicted and gold segmentations (1 where a word ends)
    prefix, power : uint64[T + 1]   the corpus's prefix hashes (``fill_prefix_hashes``)
    gold_types : int64[...] or None   the gold lexicon (``gold_lexicon``), when the caller keeps
        it: scoring every sweep of a chain then does not rebuild it every time

    Returns
    -------
    dict
        token_p, token_r, token_f, boundary_p, …, lexicon_f, as fractions in [0, 1].
    """
    bound = np.asarray(bound, dtype=bool)
    gold = np.asarray(gold, dtype=bool)
    inside = np.asarray(final) == 0
    scores = _scores("token", *token_counts(bound, gold))
    scores.update(_scores("boundary", np.count_nonzero(bound & gold & inside),
                          np.count_nonzero(bound & inside), np.count_nonzero(gold & inside)))
    predicted = word_types(prefix, power, *word_spans(bound))
    truth = gold_lexicon(gold, prefix, power) if gold_types is None else gold_types
    scores.update(_scores("lexicon", len(np.intersect1d(predicted, truth, assume_unique=True)),
                          len(predicted), len(truth)))
    return scores


def gold_lexicon(gold, prefix, power):
    """The gold segmentation's distinct words as sorted keys (``word_types``)."""
    return word_types(prefix, power, *word_spans(np.asarray(gold, dtype=bool)))


def token_counts(bound, gold):
    """(correct, predicted, gold) word tokens: a predicted word [x, e) is right when gold ends a
    word at e − 1 and before x, with no gold boundary at x … e − 2."""
    starts, ends = word_spans(bound)
    gold_before = np.r_[0, np.cumsum(gold)]  # gold boundaries among symbols 0 … i − 1
    ends_match = gold[ends - 1]
    starts_match = (starts == 0) | gold[np.maximum(starts - 1, 0)]
    nothing_inside = gold_before[ends - 1] == gold_before[starts]
    correct = np.count_nonzero(ends_match & starts_match & nothing_inside)
    return correct, len(starts), np.count_nonzero(gold)


def score_words(gold_utterances, predicted_utterances):
    """The nine figures for two segmentations of the same utterances, given as word lists.

    Raises ValueError naming the first utterance whose symbols differ.
    """
    if len(gold_utterances) != len(predicted_utterances):
        raise ValueError(f"the analysis has {len(predicted_utterances):,} utterances but the gold "
                         f"corpus has {len(gold_utterances):,}")
    for i, (g, p) in enumerate(zip(gold_utterances, predicted_utterances)):
        if "".join(g) != "".join(p):
            raise ValueError(f"utterance {i + 1} differs from the gold one: "
                             f"{' '.join(p)!r} vs {' '.join(g)!r}")
    gold, final, chars = _boundaries(gold_utterances)
    bound, _, _ = _boundaries(predicted_utterances)
    prefix = np.empty(len(chars) + 1, dtype=np.uint64)
    power = np.empty(len(chars) + 1, dtype=np.uint64)
    fill_prefix_hashes(chars, prefix, power)
    return segmentation_scores(final, bound, gold, prefix, power)


def _boundaries(utterances):
    """(bound, final, chars) arrays of utterances given as word lists."""
    bound, final, chars = [], [], []
    for words in utterances:
        for word in words:
            bound.extend([0] * (len(word) - 1) + [1])
            chars.extend(ord(c) for c in word)
        final.extend([0] * (sum(map(len, words)) - 1) + [1])
    return (np.array(bound, dtype=np.uint8), np.array(final, dtype=np.uint8),
            np.array(chars, dtype=np.int32))


# --- part-of-speech tagging -----------------------------------------------------------------------
def confusion(states, gold, n_states, n_tags):
    """int64[n_states, n_tags]: how often state k (0-based) meets gold tag g."""
    cells = np.bincount(states * n_tags + gold, minlength=n_states * n_tags)
    return cells.reshape(n_states, n_tags)


def greedy_one_to_one(table):
    """Tokens correct when states and tags are paired greedily by the largest remaining cell,
    each state and each tag used at most once (Haghighi & Klein 2006; Johnson 2007)."""
    table = table.astype(float)
    correct = 0.0
    for _ in range(min(table.shape)):
        k, g = np.unravel_index(np.argmax(table), table.shape)
        if table[k, g] <= 0:
            break
        correct += table[k, g]
        table[k, :] = -1
        table[:, g] = -1
    return correct


def variation_of_information(table):
    """VI = H(states | tags) + H(tags | states) in bits, from a confusion table."""
    joint = table / table.sum()
    p_state, p_tag = joint.sum(axis=1), joint.sum(axis=0)
    nz = joint > 0
    mutual = (joint[nz] * np.log2(joint[nz] / np.outer(p_state, p_tag)[nz])).sum()
    entropy = -sum((p[p > 0] * np.log2(p[p > 0])).sum() for p in (p_state, p_tag))
    return float(entropy - 2 * mutual)


def tagging_scores(states, gold, n_states, n_tags, half):
    """The four tagging measures.

    Parameters
    ----------
    states : int[N]   each token's state, 1 … n_states
    gold : int[N]     each token's gold tag, 0 … n_tags − 1
    half : int        tokens before this index are the first half of the sentences
                      (where cross-validation learns its map)

    Returns
    -------
    dict
        acc_many_to_one, acc_one_to_one, acc_cross_validation (fractions) and vi (bits).
    """
    states = np.asarray(states, dtype=np.int64) - 1
    gold = np.asarray(gold, dtype=np.int64)
    table = confusion(states, gold, n_states, n_tags)
    learnt = confusion(states[:half], gold[:half], n_states, n_tags).argmax(axis=1)
    held_out = (learnt[states[half:]] == gold[half:]).mean() if half < len(states) else 0.0
    return {"acc_many_to_one": float(table.max(axis=1).sum() / len(states)),
            "acc_one_to_one": float(greedy_one_to_one(table) / len(states)),
            "acc_cross_validation": float(held_out),
            "vi": variation_of_information(table)}
