"""The toy `ab` posterior of Liang et al. §2: n copies of `ab`, one site each.

z_i = 1 splits the i-th copy into `a b`, z_i = 0 keeps it as the word `ab`; m = Σ z_i.
The exact posterior over m is eq. 2, p(m | x) ∝ C(n, m) g(m), which has a sharp mode; it is
p(z | x) that has modes at m = 0 and m = n (one flip away from each is worse), and TOKEN started
at m = n needs several passes to leave.
"""
import math

import numpy as np
from scipy.special import gammaln, logsumexp

from datasets.text import read_text
from engine.core.rng import chain_rngs, make_rng
from engine.core.special import log_rising
from engine.kernels import block_weight
from engine.models.toy import kernels
from engine.models.protocol import (ChainModel, Lesson, ModelBase, Option, Presentation,
                                    SiteView)
from engine.models.registry import register

MAX_N = 100_000
SPLIT, JOINED = "a b", "ab"  # how write_analysis spells z_i = 1 and z_i = 0


@register
class ToyModel(ModelBase):
    """n copies of `ab` with θ ~ Dirichlet(1, 1, 1) over the words {a, b, ab}."""

    roles = (ChainModel, Presentation, Lesson)
    label = "Toy posterior (n copies of `ab`)"
    summary = ("Liang et al. §2: n copies of `ab`, each one word or two; the exact posterior "
               "is known, and TOKEN started at m = n is stuck there for many passes.")
    # a copy of `ab` is no sentence to block; one-stage (Peng & Gildea) shows its bias here
    samplers = ("token", "type", "anneal", "greedy", "one-stage", "one-stage-mh")
    options = (Option("n", "--n", int, 1000, "copies of `ab`", 1, MAX_N),)
    init_options = (Option("m", "--init-m", int, None,
                           "initial number of split copies (default n)", 0, MAX_N),)
    trace_labels = {"m": "m, the copies analysed as `a b`"}
    display = "copies"  # its kind of data: how pages draw it (ui/kinds/copies.py)
    order = 0

    @classmethod
    def build(cls, path=None, n=1000):
        """The toy has no corpus: ``path`` must be None."""
        if path is not None:
            raise ValueError("the toy model reads no corpus: leave out the data file")
        return cls(n)

    @classmethod
    def tiny(cls):
        return cls(4)

    def __init__(self, n):
        n = int(n)
        if not 1 <= n <= MAX_N:
            raise ValueError(f"n must be between 1 and {MAX_N:,} (got {n:,})")
        self.n = n

    def new_state(self, rng, m=None, eta=None):
        """A state with m sites split (a uniformly random subset), or each split with prob. η.

        With neither given, m = n: every copy analysed as `a b`, the paper's start (Fig. 2b).
        """
        n = self.n
        if m is not None and eta is not None:
            raise ValueError("give either an initial m or η, not both")
        if eta is not None:
            if not 0.0 <= eta <= 1.0:
                raise ValueError(f"η must be in [0, 1] (got {eta})")
            z = (rng.random(n) < eta).astype(np.int8)
        else:
            m = n if m is None else int(m)
            if not 0 <= m <= n:
                raise ValueError(f"the initial m must be between 0 and n = {n:,} (got {m:,})")
            z = np.zeros(n, dtype=np.int8)
            z[rng.choice(n, size=m, replace=False)] = 1
        return self.state_from_values(z)

    def state_from_values(self, values):
        """The state with z = values (0/1 per copy)."""
        z = np.asarray(values, dtype=np.int8).copy()
        if z.shape != (self.n,) or not np.isin(z, (0, 1)).all():
            raise ValueError(f"an analysis of the toy gives each of the {self.n:,} copies 0 or 1")
        n_word = np.zeros(3, dtype=np.int64)
        kernels.add_word_counts_all(n_word, z)
        return kernels.ToyState(z=z, n_word=n_word, removed=np.zeros(self.n, dtype=np.uint8))

    @property
    def n_sites(self):
        return self.n

    # --- likelihood -------------------------------------------------------------------------
    @staticmethod
    def _log_joint(n_a, n_b, n_ab, n):
        """log p(x, z): each copy picks one or two words with probability 1/2, then eq. 3."""
        total = n_a + n_b + n_ab
        return (-n * math.log(2.0) + log_rising(kernels.PRIOR, n_a) + log_rising(kernels.PRIOR, n_b)
                + log_rising(kernels.PRIOR, n_ab) - log_rising(kernels.PRIOR_TOTAL, total))

    def loglik(self, state):
        """Exact log p(x, z) recomputed from z alone."""
        m = int(np.count_nonzero(state.z))
        return self._log_joint(m, m, self.n - m, self.n)

    def loglik_running(self, state):
        """log p(x, z) from the running counts n_word (equals ``loglik`` when they are right)."""
        n_a, n_b, n_ab = (int(c) for c in state.n_word)
        return self._log_joint(n_a, n_b, n_ab, self.n)

    def counts(self, state):
        return {"n_word": state.n_word.copy()}

    def measures(self, state):
        return {"m": int(np.count_nonzero(state.z))}

    def values(self, state):
        return state.z

    # --- showing and exchanging analyses -------------------------------------------------------
    def describe_site(self, state, s):
        """Every site has the same type: `a|b` against `ab`."""
        return SiteView("a|b  ·  ab", (JOINED, SPLIT))

    def write_analysis(self, state):
        """One copy per line: `ab` (z = 0) or `a b` (z = 1)."""
        return "".join(f"{SPLIT if z else JOINED}\n" for z in state.z)

    def read_analysis(self, path):
        lines = [line.strip() for line in read_text(path).splitlines()]
        if len(lines) != self.n:  # a truncated file, or one of another n
            raise ValueError(f"{path} has {len(lines):,} lines; this toy has {self.n:,} "
                             "copies: give one line per copy (and the --n it was run with)")
        spelled = {JOINED: 0, SPLIT: 1}
        for number, line in enumerate(lines, 1):
            if line not in spelled:
                raise ValueError(f"{path}, line {number}: expected `{JOINED}` or `{SPLIT}`, "
                                 f"got {line!r}")
        return self.state_from_values([spelled[line] for line in lines])

    # --- the exact posterior over m ----------------------------------------------------------
    def log_posterior(self):
        """Normalised log p(m | x) for m = 0 … n (eq. 2), float64[n + 1]."""
        out = np.empty(self.n + 1)
        kernels.log_posterior_unnormalised(self.n, out)
        return out - logsumexp(out)

    def log_posterior_z(self):
        """Normalised log p(z | x) of one analysis z with m split copies, m = 0 … n (eq. 1):
        log p(m | x) − log C(n, m). It is bimodal, m = 0 and m = n both being modes in z-space
        (one flip away from each is worse), which is what traps TOKEN; p(m | x) sums the
        C(n, m) analyses and so has no mode at m = n.
        """
        m = np.arange(self.n + 1)
        return self.log_posterior() - (gammaln(self.n + 1) - gammaln(m + 1) - gammaln(self.n - m + 1))

    # --- TOKEN's escape from m = n -------------------------------------------------------------
    def token_escape_times(self, seed, chains, max_passes=1000):
        """For ``chains`` independent TOKEN chains started at m = n, the passes each needed
        until m first dropped below n/2 (int64[chains]; −1 when it did not within max_passes).
        """
        if not 1 <= chains <= 10_000:
            raise ValueError(f"the number of chains must be between 1 and 10,000 (got {chains:,})")
        times = np.empty(chains, dtype=np.int64)
        w = np.empty(2)
        for i, rng in enumerate(chain_rngs(seed, chains)):
            state = self.new_state(rng, m=self.n)
            times[i] = kernels.token_escape_time(rng, state, max_passes, w)
        return times

    # --- TYPE's exact draws of m ---------------------------------------------------------------
    def type_draws(self, seed, count, m=None):
        """m drawn by ``count`` successive TYPE moves from initial m (default n): int64[count]."""
        if not 1 <= count <= 1_000_000:
            raise ValueError(f"the number of draws must be between 1 and 1,000,000 (got {count:,})")
        rng = make_rng(seed)
        state = self.new_state(rng, m=m)
        n = self.n
        out = np.empty(count, dtype=np.int64)
        bufs_int = np.zeros((3, n), np.int64)
        bufs_float = np.zeros((6, max(n + 1, block_weight.MAX_DELTA_TERMS)))
        kernels.type_draws(rng, state, out, bufs_int, bufs_float, np.zeros(n, np.uint8))
        return out

    def warm_lesson(self):
        """Run the lesson's own kernels once (exact posterior, escape times, TYPE's draws)."""
        self.log_posterior()
        self.token_escape_times(seed=0, chains=2, max_passes=2)
        self.type_draws(seed=0, count=2)

    def posterior_mean(self):
        """E[m | x] under the exact posterior."""
        return float(np.exp(self.log_posterior()) @ np.arange(self.n + 1))

    def token_flip_probability(self, m):
        """TOKEN's probability of re-joining one split copy into `ab` when m copies (that one
        included) are split: eq. 4 with n_a = n_b = m − 1, n_ab = n − m (why TOKEN is stuck
        at m = n: there it is (2n + 2) / (2n + 2 + n²) ≈ 2/n per site).
        """
        if not 1 <= m <= self.n:
            raise ValueError(f"m must be between 1 and n = {self.n:,} (got {m:,})")
        n_a = n_b = m - 1
        n_ab = self.n - m
        total = n_a + n_b + n_ab
        join = (kernels.PRIOR + n_ab) * (kernels.PRIOR_TOTAL + 1 + total)
        split = (kernels.PRIOR + n_a) * (kernels.PRIOR + n_b)
        return join / (join + split)
