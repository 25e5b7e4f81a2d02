"""The samplers, by the names the pages and the command line use.

TOKEN and TOKEN-anneal are one class with different temperature schedules; TYPE and
TYPE-greedy are one class with a flag; SENTENCE is blocked Metropolis-Hastings. All are written once against the model interface
(engine.kernels.interface), so a new model brings no sampler code of its own.
"""
from engine.samplers import schedule
from engine.samplers.token import TokenSampler
from engine.samplers.sentence import SentenceSampler
from engine.samplers.type_based import TypeSampler

LABELS = {"token": "TOKEN", "type": "TYPE", "anneal": "TOKEN-anneal", "greedy": "TYPE-greedy",
          "sentence": "SENTENCE"}
NAMES = tuple(LABELS)


def make_sampler(name, total_sweeps=None, skip=True, anneal_start=10.0):
    """A fresh sampler for one chain.

    total_sweeps is the run's planned length; TOKEN-anneal needs it for its schedule
    (temperature ``anneal_start`` → 1 over the first half, then 1).
    """
    if name == "token":
        return TokenSampler()
    if name == "anneal":
        if not total_sweeps:
            raise ValueError("TOKEN-anneal needs the run's length (total sweeps) for its schedule")
        return TokenSampler(schedule.anneal(total_sweeps, anneal_start))
    if name == "type":
        return TypeSampler(skip=skip)
    if name == "greedy":
        return TypeSampler(skip=skip, greedy=True)
    if name == "sentence":
        return SentenceSampler()
    raise ValueError(f"unknown sampler {name!r}: choose one of {', '.join(NAMES)}")
