"""Corpora written for this project (short enough to watch a sampler settle in seconds)."""
from dataclasses import replace
from pathlib import Path

from datasets.segmented import load_segmented

_HERE = Path(__file__).resolve().parent


def nursery_talk():
    """408 short utterances a caregiver might say to a toddler, in plain English spelling:
    the built-in word-segmentation corpus (one letter = one symbol)."""
    return replace(load_segmented(_HERE / "nursery.txt"), name="Built-in: nursery talk")
