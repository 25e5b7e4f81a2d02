"""Parsing with a grammar learnt from trees: what the learnt grammar is worth (issue 26).

- ``pcfg``: a grammar in flat arrays (binary rules grouped by left child, lexical rules grouped
  by word), built from rule weights by ``grammar_from_rules`` — the maximum-likelihood PCFG of
  binarised treebank trees, its parent-annotated variant, or a tree-substitution grammar
  flattened into rules with fresh internal symbols (each symbol keeps the label it stands for).
- ``cky``: the Viterbi parse of a sentence with a Numba CKY over a sparse chart.
- ``pipeline``: the grammars the ``parse`` command offers, training one and parsing and scoring
  a held-out treebank with EVALB (``engine.evalb``).
"""
