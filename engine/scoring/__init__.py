"""Scoring an analysis against the gold one.

- ``metrics``: word segmentation (token, boundary and lexicon precision, recall and F) and
  part-of-speech tagging (many-to-one, one-to-one, cross-validated accuracy, VI).
- ``evalb``: labelled brackets of parse trees, as EVALB scores them with COLLINS.prm.
"""
