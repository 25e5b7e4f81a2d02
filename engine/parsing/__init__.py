"""Parsing with a grammar learnt from trees: what the learnt grammar is worth (issue 26).

- ``pcfg``: a grammar in flat arrays (binary rules grouped by left child, lexical rules grouped
  by word), built from rule weights by ``grammar_from_rules`` — the maximum-likelihood PCFG of
  binarised treebank trees, its parent-annotated variant, or a tree-substitution grammar
  flattened into rules with fresh internal symbols (each symbol keeps the label it stands for).
- ``cky``: the Viterbi parse of a sentence with a Numba CKY over a sparse chart.
- ``pipeline``: a trained grammar (``Trained``), the treebank PCFG, and the parses of a held-out
  treebank's sentences from their words.
- ``grammars``: the grammars the ``parse`` command offers (the PTSG's declared in
  engine.models.ptsg.training), each trained, parsing a held-out treebank scored with EVALB
  (``engine.scoring.evalb``).
"""
