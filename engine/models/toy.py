"""The toy `ab` posterior of Liang et al. §2: n copies of `ab`, one site each.

z_i = 1 splits the i-th copy into `a b`, z_i = 0 keeps it as the word `ab`; m = Σ z_i.
The exact posterior over m is eq. 2, p(m | x) ∝ C(n, m) g(m); it is sharply bimodal with
modes at m ≈ 0 and m = n, and TOKEN started at m = n needs several passes to leave.
"""
import math

import numpy as np
from scipy.special import logsumexp

from engine.core.special import log_rising
from engine.kernels import toy as kernels

MAX_N = 100_000


class ToyModel:
    """n copies of `ab` with θ ~ Dirichlet(1, 1, 1) over the words {a, b, ab}."""

    name = "toy"

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
        n_word = np.zeros(3, dtype=np.int64)
        kernels.add_word_counts_all(n_word, z)
        return kernels.ToyState(z=z, n_word=n_word, removed=np.zeros(n, dtype=np.uint8))

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

    def measures(self, state):
        return {"m": int(np.count_nonzero(state.z))}

    def values(self, state):
        return state.z

    # --- the exact posterior over m ----------------------------------------------------------
    def log_posterior(self):
        """Normalised log p(m | x) for m = 0 … n (eq. 2), float64[n + 1]."""
        out = np.empty(self.n + 1)
        kernels.log_posterior_unnormalised(self.n, out)
        return out - logsumexp(out)
