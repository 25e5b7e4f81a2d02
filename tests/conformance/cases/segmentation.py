"""What the word-segmentation models' cases share: a segmentation as the bits of its sites,
enumerating every segmentation of a tiny corpus, a larger corpus for the invariants, and the
learned lexical model's base P₀ (Börschinger & Johnson 2011 §4.1) of both particle filters."""
import numpy as np

from tests.statistical.exact import binary_assignments


def n_sites(texts):
    """The sites of a corpus: every symbol but each utterance's last."""
    return sum(len(t) - 1 for t in texts)


def split_by_bits(texts, bits):
    """The segmentation of texts whose sites (non-final symbols in corpus order) have ``bits``."""
    out, k = [], 0
    for text in texts:
        words, start = [], 0
        for i in range(len(text) - 1):
            if bits[k]:
                words.append(text[start:i + 1])
                start = i + 1
            k += 1
        words.append(text[start:])
        out.append(words)
    return out


def every_segmentation(texts, log_p):
    """log_p(segmentation) of every segmentation of ``texts``, indexed by the sites' bits (site
    0 lowest, as ``z_index``): float64[2^|S|]."""
    return np.array([log_p(split_by_bits(texts, bits))
                     for bits in binary_assignments(n_sites(texts))])


def large_corpus(seed=1, n_utterances=40):
    """Utterances of 1–4 words from a small lexicon over 'abc', so words and pairs repeat."""
    rng = np.random.default_rng(seed)
    lexicon = ["a", "b", "ab", "ba", "abc", "ca", "bca", "cc"]
    return ["".join(rng.choice(lexicon, size=rng.integers(1, 5))) for _ in range(n_utterances)]


def learned_base(word, label_counts, label_symbols, phi, n_symbols):
    """P₀(word) with θ ~ Dir(φ) on the n_symbols symbols (`#` one of them) integrated out: each
    symbol's predictive given the labels' symbols and the word's own earlier symbols, then `#`."""
    seen, p = dict(label_counts), 1.0
    for i, c in enumerate(word + "#"):
        p *= (seen.get(c, 0) + phi) / (label_symbols + i + n_symbols * phi)
        seen[c] = seen.get(c, 0) + 1
    return p
