"""Corpora written for this project, short enough to watch a sampler settle in seconds."""
from dataclasses import replace
from pathlib import Path

from datasets.segmented import SegmentedCorpus, load_segmented

NURSERY = Path(__file__).resolve().parent / "nursery.txt"


def builtin_corpus() -> SegmentedCorpus:
    """The built-in word-segmentation corpus, "Built-in: nursery talk".

    Short utterances a caregiver might say to a toddler, in plain lowercase English spelling
    (one letter = one symbol), written for this project.

    Returns
    -------
    SegmentedCorpus
    """
    return replace(load_segmented(NURSERY), name="Built-in: nursery talk")


nursery_talk = builtin_corpus  # the name the pages and the command line already use
