"""Corpora: one module per kind of data (``segmented``, ``tagged``), each with its readers and
registered in ``kinds``; generators of synthetic corpora with a known truth (``synthetic``) and
small corpora written for this project (``builtin``)."""
