"""The particle filter's bigram model (Goldwater et al. 2009's HDP bigram model with Börschinger &
Johnson's learned lexical model) over a population of particles in pooled flat arrays.

A particle is two levels of Chinese restaurants with every table recorded:

- a *bigram restaurant* per previous word w′ (`$` at an utterance's start): its customers are
  the words that followed w′ (and the `$` that ends an utterance); a customer of dish w joins a
  table of w with weight n_k or opens one with weight α₁ P₁(w);
- the *unigram restaurant*: every bigram table is one of its customers, labelled with its dish;
  it joins a unigram table of w with weight m_k or opens one with weight α₀ P₀′(w), where
  P₀′(`$`) = p$ and P₀′(w) = (1 − p$) P₀(w), P₀ the learned lexical model (eqs. 3–4) over the
  symbols of the words labelling unigram tables.

So P₁(w) = (t_w + α₀ P₀′(w)) / (t + α₀) (t_w: bigram tables of w, t: all bigram tables) and
P₂(w | w′) = (n_{w′w} + α₁ P₁(w)) / (n_{w′} + α₁). The state's probability is exchangeable:

    log P(s) = B log α₁ + Σ_b log (n_b − 1)! − Σ_{w′} log α₁^(n_{w′})          (bigram level)
             + U log α₀ + Σ_u log (m_u − 1)! − log α₀^(t)                       (unigram level)
             + U_$ log p$ + U_w log (1 − p$) + Σ_k log φ^(cc_k) − log (|chars| φ)^(S)

(B bigram and U unigram tables, U_$ of them labelled `$`, U_w with words; S label symbols).

Reading an utterance, a particle draws a segmentation from Q — the model frozen, every word
scored P₂(w | w′) with eq. 4's P₀, a forward algorithm over (start of the previous word, start
of the word), backward sampling — then adds the words and the final `$` one by one, each seated
from its exact conditional at both levels; eq. 10's factor is the sequential P₂'s product over
Q(words | o) (engine.models.usm.particles says why the seating is drawn sequentially).

Word slot 0 is `$`. The lexicon is the unigram particles' (engine.models.usm.particles:
``find_word``, ``link_word``); pairs ⟨w′, w⟩ with customers have a slot in a second
engine.core.hash_table per particle, keyed by ``hash_table.pair_key``. The kernels read the
corpus as a ``ParticleCorpus`` and write into a ``Reading``
(engine.models.segmentation.particle_arrays), their work arrays a ``BigramWork``.

The kernels, one idea a module, each importing only those before it: ``layout`` (the arrays),
``lexicon`` (word slots and pairs), ``proposal`` (Q) and ``target`` (P, and reading an
utterance).
"""
