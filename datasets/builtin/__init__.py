"""Corpora written for this project, short enough to watch a sampler settle in seconds."""
from dataclasses import replace
from pathlib import Path

from datasets.segmented import SegmentedCorpus, load_segmented
from datasets.tagged import TaggedCorpus, load_tagged

NURSERY = Path(__file__).resolve().parent / "nursery.txt"
TAGGED = Path(__file__).resolve().parent / "tagged.txt"


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


def tagged_builtin() -> TaggedCorpus:
    """The built-in part-of-speech corpus, "Built-in: simple sentences".

    Short, simple English sentences in the ``word/TAG`` format, tagged with the Universal
    Dependencies part-of-speech tags (UPOS), written for this project. Frequent function words
    recur often, and some words carry more than one tag ("run" as NOUN and VERB; "that" as
    DET, PRON and SCONJ; "like" as VERB and ADP), so a tagger has ambiguity to resolve.

    Returns
    -------
    TaggedCorpus
    """
    return replace(load_tagged(TAGGED, format="wordtag"), name="Built-in: simple sentences")
