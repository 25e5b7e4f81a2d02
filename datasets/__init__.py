"""Corpora: loaders for the supported formats, generators of synthetic corpora with known
truth, and small corpora written for this project (``builtin/``)."""
