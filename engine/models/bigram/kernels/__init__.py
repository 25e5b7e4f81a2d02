"""The HDP bigram segmentation model of Goldwater, Griffiths & Johnson (2009) behind the model
interface, with its restaurants' seating tracked exactly (Blunsom et al. 2009; SPEC §6).

Every utterance starts in the context `$` and ends with the word `$`. Each word w′ (and `$`) is a
restaurant whose customers are the words following it; a customer of dish w sits at one of the
tables labelled w with weight n_k, or at a new table with weight α₁ P₁(w), where

    P₁(w) = (t_w + α₀ P₀(w)) / (t + α₀)

is the shared unigram level (t_w: tables labelled w in all the bigram restaurants; t: all
tables) with its own seating summed out (its base P₀ is fixed: P₀(`$`) = p$, P₀(x₁…x_M) =
(1 − p$) p# (1 − p#)^(M−1) / |Σ|^M). The state is the segmentation and the bigram restaurants'
seating; its probability is the product, in corpus order, of every customer's (word, table)
probability (``log_likelihood``).

Sites are the non-final symbols, as for the unigram model. TOKEN at a site takes away the
customers of the one or two words there and of the word after them (their tables drawn by
exchangeability in the histogram representation), weighs "one word" against "two words"
summing over the new customers' tables, then seats the chosen words' customers from their exact
conditional (``hypothesis_weights``). SENTENCE proposes an utterance by dynamic programming
from the other utterances' frozen counts (engine.models.bigram.sentence).

Identifiers. A word type has an id (0 is `$`) while it has tokens; the lexicon maps a word's key
(engine.core.word_hash) to its ids (almost always one; symbols are compared, so two words never
share an id), and each id keeps its occurrences in a list so that one of them can be compared.
A pair ⟨w′, w⟩ with customers has an id, which is its group in the seating (engine.core.seating).
A customer is numbered by the start of its word token, or T + (the utterance's last symbol) for
the `$` that ends an utterance.

The kernels, one idea a module, each importing only those before it: ``layout`` (the state
and its arrays), ``lexicon``, ``customers`` (pairs and their tables), ``neighbours`` (the words
around a site), ``token_moves`` (TOKEN behind the interface) and ``scoring``. The model's
``kernel_modules`` name those whose import registers its interface implementations
(``for_state``).
"""
