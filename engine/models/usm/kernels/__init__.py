"""The unigram segmentation model (USM) of Goldwater, Griffiths & Johnson (2009) behind the model
interface (Liang et al. §3–4).

Sites are the non-final symbols of each utterance; b_s = 1 puts a word boundary after site s's
symbol. Two Dirichlet-process "restaurants" generate the corpus (eq. 3):

- words: θ_0 ~ DP(α₀, P₀), P₀(w = x₁…x_M) = p# (1 − p#)^(M−1) / |Σ|^M;
- utterance ends: each word is followed by the end of its utterance or not, Beta(ρ/2, ρ/2).

Two indexes, both engine.core.keyed_lists tables keyed by hashes of symbols
(engine.core.word_hash), find a type's sites without scanning the corpus (§4.4):

- the lexicon: word → the positions where it occurs; the list's size is n_w (inside a TYPE
  move, the removed sites' words stay on their lists, set aside: see ``count_word``);
- the boundaries: (w1, w2, whether w2 ends its utterance) → the boundaries between such a pair.

The type of site s is t = (w1, w2, end flag), `w1|w2` when b_s = 1 and `w1w2` when 0: its sites
with b = 0 sit inside the occurrences of the word w1w2 in the lexicon, and those with b = 1 are
t's list in the boundary index, so finding a block costs about its size. (Liang et al. find the
latter by intersecting the lists of w1 and w2; on the Brent corpus that walked five list
entries per candidate site, a third of a TYPE sweep, while the boundary index costs a few
entries' upkeep when a boundary flips.) The boundary index is a function of ``bound`` alone.
A key is a hash, so a lookup also checks the entry's first item exactly — same symbols, length,
split and end flag: two different words or types never share an entry.

Word probabilities of any length. α₀P₀(w) falls geometrically with the word's length and
underflows for long words (a few hundred symbols; tens with thousands of symbols), so the state
keeps it in both scales (``base``). Words of at most counts[LINEAR] symbols have
α₀P₀ ≥ LINEAR_MIN, and any product of the model's terms for them is safely inside float64's
range (for hyperparameters within 1e-9 … 1e9): the kernels work linearly there — the common
case, with no logs — and in logs for a longer word, where a term n_w + α₀P₀(w) with n_w = 0
is taken as log α₀P₀(w).

The kernels, one idea a module, each importing only those before it: ``layout`` (the state
and its arrays), ``indexes`` (the lexicon and the boundaries), ``word_probability``,
``site_moves`` (a site out and back in), ``token_moves`` and ``type_blocks`` (TOKEN's and
TYPE's sides of the interface), ``scoring``. The model's ``kernel_modules`` name those whose
import registers its interface implementations (``for_state``).
"""
