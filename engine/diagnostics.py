"""Convergence diagnostics of several chains of one sampler: split-R̂ and bulk/tail ESS.

The statistics are ArviZ's (arviz-stats' array interface): rank-normalised split-R̂ and the
bulk and tail effective sample sizes of Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021).
This module only chooses what they are computed on: the last half of each chain's trace (the
first half is warm-up), every chain cut to the same number of sweeps.

R̂ compares the spread between chains with the spread within them. Chains that have forgotten
where they started agree, and R̂ ≈ 1; Vehtari et al. recommend trusting the chains only when
R̂ < 1.01. ESS is how many independent draws the correlated draws are worth.
"""
from dataclasses import dataclass

import numpy as np
from arviz_stats.base import array_stats

RHAT_LIMIT = 1.01       # Vehtari et al. (2021): use the draws only when R̂ is below this
TAIL_PROB = (0.05, 0.95)  # tail ESS: of the 5% and 95% quantiles
MIN_DRAWS = 4           # per chain, after the warm-up is dropped (split-R̂ halves each chain)


SUPERSCRIPTS = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def rhat_text(rhat):
    """R̂ as a reader sees it: "—" when there is none (every draw the same), "∞" for chains
    that each keep one value, else 3 decimals near 1, 2 beyond, and from 1,000 on (chains
    that barely move, each in its own place) as a power of ten: 1.1×10¹⁶, not 17 digits."""
    if np.isnan(rhat):
        return "—"
    if np.isinf(rhat):
        return "∞"
    if rhat >= 1000:
        mantissa, exponent = f"{rhat:.1e}".split("e")
        return f"{mantissa}×10{str(int(exponent)).translate(SUPERSCRIPTS)}"
    return f"{rhat:.3f}" if rhat < 1.1 else f"{rhat:,.2f}"


@dataclass(frozen=True)
class Diagnosis:
    """What several chains of one sampler say about one scalar (e.g. the log-likelihood)."""

    rhat: float
    ess_bulk: float
    ess_tail: float
    ess_per_second: float  # bulk ESS per second of engine time, all chains together
    chains: int
    draws: int             # per chain, after the warm-up

    @property
    def mixed(self):
        return bool(self.rhat < RHAT_LIMIT)

    def verdict(self):
        """One line a reader can act on, with the threshold."""
        if np.isnan(self.rhat):
            return ("no R̂: every draw of every chain is the same value (the chains agree "
                    "exactly, or none has moved)")
        if np.isinf(self.rhat):
            return "not mixed: R̂ = ∞ (each chain stays at its own value)"
        if self.mixed:
            return (f"mixed: R̂ = {rhat_text(self.rhat)} < {RHAT_LIMIT} "
                    f"(bulk ESS {self.ess_bulk:,.0f} from {self.chains} × {self.draws} draws)")
        return f"not mixed: R̂ = {rhat_text(self.rhat)} ≥ {RHAT_LIMIT}"


def after_warmup(traces, warmup=0.5):
    """(chains, draws) array of the last ``1 − warmup`` of each chain, every chain cut to the
    shortest one's length first.

    traces : sequence of 1-D float arrays, one chain each (a scalar per sweep, sweep 0 first).
    """
    length = min(len(trace) for trace in traces)
    start = int(length * warmup)
    return np.array([np.asarray(trace[:length], dtype=float)[start:] for trace in traces])


def diagnose(draws, seconds):
    """Split-R̂ and bulk/tail ESS of ``draws`` (chains, draws); ``seconds``: the engine time
    the kept draws cost, all chains together (for ESS per second)."""
    chains, n = draws.shape
    if chains < 2 or n < MIN_DRAWS:
        raise ValueError(f"R̂ needs at least 2 chains of {MIN_DRAWS} draws after the warm-up "
                         f"(have {chains} of {n})")
    if np.ptp(draws) == 0:  # every chain constant and equal: nothing to compare
        nan = float("nan")
        return Diagnosis(nan, nan, nan, nan, chains, n)
    with np.errstate(divide="ignore", invalid="ignore"):  # a chain that never moves: R̂ = ∞
        rhat = float(array_stats.rhat(draws))
    bulk = float(array_stats.ess(draws, method="bulk"))
    tail = float(array_stats.ess(draws, method="tail", prob=TAIL_PROB))
    return Diagnosis(rhat, bulk, tail, bulk / seconds if seconds > 0 else float("nan"),
                     chains, n)


def diagnose_chains(chains, column="loglik", warmup=0.5):
    """Diagnose ``column`` over several chains' traces (frames with a ``seconds`` column, one
    row per sweep): the last ``1 − warmup`` of each, chains cut to the shortest; ESS per second
    is per second of the engine time those kept sweeps cost."""
    draws = after_warmup([chain[column].to_numpy() for chain in chains], warmup)
    length, kept = min(len(chain) for chain in chains), draws.shape[1]
    before = max(length - kept - 1, 0)  # the row before the first kept draw
    seconds = sum(chain["seconds"].iloc[length - 1] - chain["seconds"].iloc[before]
                  for chain in chains)
    return diagnose(draws, seconds)


class GrowingChains:
    """R̂ and ESS of chains that keep growing (a live race's), per sampler and column, computed
    again only once the chains have grown by ``share`` of their length since the last time:
    R̂ and ESS of long chains move slowly, so a tick then costs about as much at pass 10,000
    as at pass 100."""

    def __init__(self, share=0.01):
        self.share = share
        self.found = {}  # {(sampler, column): (chain length then, Diagnosis or None)}

    def diagnosis(self, sampler, chains, column="loglik"):
        """``diagnose_chains(chains, column)`` of ``sampler``'s chains, or the last one while
        they have grown by less than ``share``; None while they are too short (or have no such
        column: a corpus without gold)."""
        length = min(len(chain) for chain in chains)
        known = self.found.get((sampler, column))
        if known is not None and length < known[0] + max(1, self.share * known[0]):
            return known[1]
        try:
            found = diagnose_chains(chains, column)
        except (ValueError, KeyError):
            found = None
        self.found[(sampler, column)] = (length, found)
        return found


def autocorrelation(chains, column="loglik", max_lag=50, warmup=0.5):
    """The autocorrelation of ``column`` at lags 0 … max_lag (fewer for short chains), averaged
    over the chains that move, after the warm-up: how many sweeps a chain needs to forget
    where it was.

    chains : sequence of frames, one per chain. Returns a float array (lags + 1,), or an empty
    one when the chains are too short or none moves."""
    draws = after_warmup([chain[column].to_numpy() for chain in chains], warmup)
    moving = draws[np.ptp(draws, axis=1) > 0]
    if draws.shape[1] < MIN_DRAWS or not len(moving):
        return np.empty(0)
    lags = min(max_lag, draws.shape[1] // 2)
    return array_stats.autocorr(moving)[:, :lags + 1].mean(axis=0)
