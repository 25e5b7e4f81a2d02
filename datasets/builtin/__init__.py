"""Corpora written for this project, short enough to watch a sampler settle in seconds: the text
files here, read by their kinds' modules (datasets.segmented, datasets.tagged)."""
from datasets.segmented import builtin_corpus
from datasets.tagged import tagged_builtin
from datasets.trees import builtin as trees_builtin

__all__ = ["builtin_corpus", "tagged_builtin", "trees_builtin"]
