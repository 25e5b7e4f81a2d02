"""The HMM state (``HmmState``) and the constants of its flat arrays: the parameters' slots and
the decodings. The package's docstring says what the state means.
"""
from collections import namedtuple

from engine.kernels import block_weight, interface
from engine.kernels.interface import for_state


HmmState = namedtuple("HmmState", [
    "words", "tag", "first", "last", "sent_start", "params", "gammas", "trans", "trans_total", "emit",
    "emit_total", "trans_num_t", "emit_num_t", "inv_den",
    "removed", "slot_key", "slot_head", "slot_size", "site_next", "site_prev", "typed"])
HmmState.__doc__ = """State of the HMM (N tokens, K states, V word types, a type table of C slots).

words : int64[N]          word type of each token, sentences concatenated
tag : int64[N]            its state, 1 … K
first, last : uint8[N]    1 on each sentence's first / last token
sent_start : int64[S + 1] where each of the S sentences starts (and N at the end)
params : float64[3]       α (transitions), α′ (emissions), the decoding (POSTERIOR, VITERBI)
gammas : float64[2, 5, G] the explicit samplers' tables for the cells with a count of 0, of α
                          and of α′ (engine.core.dirichlet.zero_count_table)
trans : int64[K+1, K+1]   transition counts n_{jk}, row = from (0 = boundary), column = to
trans_total : int64[K+1]  their row sums n_{j·}
emit : int64[K+1, V]      emission counts n_{kw} (row 0 unused)
emit_total : int64[K+1]   their row sums n_k (0 for the boundary)

Parts of the predictive probabilities that TOKEN's loop over k reads as contiguous rows, kept in
step with the counts (each entry is written from the integer counts, never accumulated, so it
always equals a recount):
trans_num_t : float64[K+1, K+1]  n_{jk} + α, transposed: row n holds n_{k,n} + α over k
emit_num_t : float64[V, K+1]     n_{kw} + α′, row = word (column 0 unused)
inv_den : float64[K+1]           1 / ((n_k + Vα′)(n_{k·} + (K+1)α)), the two denominators of a
                                 token's weight for state k

removed : uint8[N]        1 while a token's choices are removed (inside a move)
slot_key, slot_head, slot_size : int64[C]   the type → tokens table (keyed_lists)
site_next, site_prev : int64[N]             its lists
typed : uint8[1]          1 while the type index is kept: the first TYPE move builds it
                          (``build_type_index``), and from then on every change of state refiles
                          the neighbours. TOKEN alone never reads it: keeping it cost a quarter
                          of a TOKEN sweep (four hash-table updates per change).
"""

ALPHA, ALPHA_EMIT, DECODE = 0, 1, 2  # the entries of params
POSTERIOR, VITERBI = 0.0, 1.0  # params[DECODE]: how EM and VB turn parameters into a tagging
DECODINGS = {"posterior": POSTERIOR, "viterbi": VITERBI}

implements = for_state(HmmState)


implements(interface.block_weights)(block_weight.rising_block_weights)
