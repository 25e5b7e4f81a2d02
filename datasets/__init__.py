"""Corpora: loaders for the supported formats (``segmented``), generators of synthetic corpora
with a known segmentation (``synthetic``) and small corpora written for this project
(``builtin``)."""
