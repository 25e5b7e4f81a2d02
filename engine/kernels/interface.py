"""The model interface every sampler is written against (Liang et al. §3–4).

A model keeps its state in a namedtuple of numpy arrays and implements each function below with
``numba.extending.overload``, selecting on the state's class (see ``for_state``). The generic
moves in ``moves.py`` then compile once per model and load from Numba's cache like any
``@kernel`` function; passing model functions as arguments would not cache.

Vocabulary (the paper's): a *site* s carries a variable b_s with values 0 … n_values−1;
``remove_site`` takes away the choices Δz^{s:b_s} that depend on b_s and ``add_site`` puts back
Δz^{s:v}. Between the two the site is *removed*, and the counts are n^{-s} (or n^{-S} for a block).
The Python functions here only raise: they are never meant to run. ``weights_by_removal`` and
``set_by_removal`` in moves.py give token_weights and set_value to models with no faster way.

Functions that may draw take the chain's Generator first (``rng``). Most models' choices are
determined by the site values and draw nothing; a model whose choices carry seats in Chinese
restaurants (the bigram segmentation model: Blunsom et al. 2009) draws which table a leaving
customer vacates and where a new one sits, and says so with ``reseats``.
"""
import inspect

from numba.extending import overload


def _stub(name, doc):
    def stub(*args):
        raise TypeError(f"{name} is a model-interface function: call it from njit code "
                        "with a model state that implements it")
    stub.__name__ = name
    stub.__doc__ = doc
    return stub


n_sites = _stub("n_sites", """n_sites(state) -> int
    The number of sites |S|; sites are 0 … |S|−1.""")

n_values = _stub("n_values", """n_values(state) -> int
    The values a site can take: 2 for binary models, K for the HMM.""")

get_value = _stub("get_value", """get_value(state, s) -> int
    The current b_s.""")

remove_site = _stub("remove_site", """remove_site(state, s)
    Decrement the counts of the choices that depend on b_s and mark s removed (so ``conflicts``
    can see it). Mutates state.""")

add_site = _stub("add_site", """add_site(state, s, v)
    Set b_s = v on a removed site, increment the counts of Δz^{s:v} and unmark s.
    Mutates state.""")

site_weights = _stub("site_weights", """site_weights(state, s, w)
    For a removed site, write w[v] ∝ p(b_s = v | rest) (eq. 4, linear scale, any common factor)
    for every value v.""")

token_weights = _stub("token_weights", """token_weights(rng, state, s, w)
    Like site_weights, but for a site whose choices are in place: the model discounts the
    site's own counts itself. TOKEN uses it so that a move that keeps b_s writes nothing.
    A model that ``reseats`` takes the site's customers away here instead (drawing, by
    exchangeability, which tables they leave) and writes the weights given the rest.""")

set_value = _stub("set_value", """set_value(rng, state, s, v)
    Set b_s = v on a site whose choices are in place, updating the counts (nothing to do when
    v = b_s). A model that ``reseats`` seats the customers of value v here (their tables drawn
    from their exact conditional given v), whatever b_s was. Mutates state.""")

reseats = _stub("reseats", """reseats(state) -> bool
    A constant of the model: whether its token_weights takes the site's choices away (their
    seats must be drawn again), so that TOKEN calls set_value after every draw, not only when
    the value changes.""")

pivots_in_order = _stub("pivots_in_order", """pivots_in_order(state) -> bool
    A constant of the model: whether TYPE takes its pivots in site order (Fig. 4's loop over
    the sites, as TOKEN visits them: the model's memory is then read in order) rather than in
    a fresh random order each sweep.""")

conflicts = _stub("conflicts", """conflicts(state, s) -> bool
    Whether a choice that depends on b_s has been removed, i.e. s conflicts with a site already
    in the block (or is in it).""")

block_candidates = _stub("block_candidates", """block_candidates(state, s0, out) -> int
    Write into out, in any order, the sites whose type t(z, s) = (Δn^{s:0}, Δn^{s:1})
    (eq. 5) is the type of the pivot s0, among the sites none of whose choices is removed, s0
    itself possibly included; return how many. s0 is removed when this is called, and its type
    is the one it had in place. Models find them through an index, not a scan of the corpus.
    A model may leave out sites whose type the move itself could change (they would make
    TB(z, s0) unstable, breaking criterion B of §4.4); the pivot is never left out.""")

block_weights = _stub("block_weights", """block_weights(state, s0, v0, v1, size, linear, out, work) -> bool
    The block weight g(m) of eq. 7, p(m) ∝ C(|S|, m) g(m), for m = 0 … size (m = the block's
    sites set to v1), with the block S of s0 (size ≥ 2 sites of the slice {v0, v1}) removed.
    Either, only when ``linear`` (plain sampling), p(m) itself in scaled linear form —
    out[1, m] · SCALE^out[0, m] (engine.core.draw.scale_steps) — returning True; or
    log g(m) − log g(0) in out[0, : size + 1], returning False. out: float64[2, ≥ size + 1];
    work: float64[4, ≥ max(size + 1, block_weight.MAX_DELTA_TERMS)], the model's own.
    A Dirichlet-process model registers engine.kernels.block_weight.rising_block_weights,
    built on its ``block_delta``; another (Pitman-Yor, a forest) writes its own.""")

block_delta = _stub("block_delta", """block_delta(state, s0, v0, v1, base, d0, d1, sign) -> int
    The Dirichlet-process family's g(m) (``rising_block_weights`` reads it). With the block S
    removed, write the terms of g(m) (eq. 9): term j contributes
    sign[j] · log base[j]^(m·d1[j] + (|S|−m)·d0[j]), where base is α_r μ_ro + n_ro^{-S} (sign +1)
    or α_r + n_r^{-S} (sign −1) and d0, d1 are the counts one site adds with value v0, v1.
    A negative base[j] stands for a base too small for linear scale: the term uses −base[j] as
    log base[j] directly (word segmentation's α₀P₀ on a long word). Return the number of terms,
    at most MAX_DELTA_TERMS (block_weight.py checks).""")


# --- SENTENCE (blocked Metropolis-Hastings over one sentence) ------------------------------------
n_sentences = _stub("n_sentences", """n_sentences(state) -> int
    The number of sentences (utterances); sentence u's sites are a contiguous run.""")

sentence_sites = _stub("sentence_sites", """sentence_sites(state, u) -> (start, stop)
    The sites of sentence u: start … stop − 1.""")

sentence_remove = _stub("sentence_remove", """sentence_remove(rng, state, u) -> float
    Take away every choice of sentence u and return the exact log-probability of its current
    analysis given the rest (the product of predictive probabilities, intra-sentence counts
    included; for a model that reseats, given the seats its customers had). Mutates state.""")

sentence_add = _stub("sentence_add", """sentence_add(rng, state, u, values) -> float
    Give the removed sentence u the analysis values[i] at site start + i, count its choices
    (drawing seats from the predictive, for a model that reseats) and return the exact
    log-probability of that analysis given the rest. Mutates state.""")

sentence_restore = _stub("sentence_restore", """sentence_restore(rng, state, u, values)
    Undo the last sentence_add of u exactly and give u back the analysis ``values`` it had
    before the last sentence_remove, exactly as it was (seats included): a rejected proposal.
    Mutates state.""")

sentence_proposal = _stub("sentence_proposal", """sentence_proposal(rng, state, u, inv_temp, old, new, work) -> (float, float)
    With sentence u removed, draw ``new`` from the proposal q built from the other sentences'
    counts held fixed (tempered by inv_temp) by dynamic programming, and return
    (log q(new), log q(old)). work: float64[sentence_work_size(state)].""")

sentence_work_size = _stub("sentence_work_size", """sentence_work_size(state) -> int
    Length of the work buffer sentence_proposal needs.""")


# --- FOREST (a tree chosen in each sentence's forest, then cut: Peng & Gildea 2014) -------------
# The sites are the forest's nodes but its roots, each carrying its cut; a node's incoming edge
# is no site value but the model's own, sampled by ``edge_step``. Only the sites on the current
# tree are visited: engine.kernels.forest's sweep walks each tree from its root (Algorithm 1).
sentence_root = _stub("sentence_root", """sentence_root(state, u) -> int
    The root node of sentence u's forest (whose tree the sweep walks down from).""")

site_of_node = _stub("site_of_node", """site_of_node(state, n) -> int
    Node n's site, or −1 for a root (which is always cut).""")

n_edges = _stub("n_edges", """n_edges(state, n) -> int
    deg(n): the number of node n's incoming edges (1 at a leaf).""")

tree_children = _stub("tree_children", """tree_children(state, n, out) -> int
    Write into out the tails of node n's current edge (its children on the tree); return how
    many.""")

edge_step = _stub("edge_step", """edge_step(rng, state, n, inv_temp, w) -> bool
    Resample the incoming edge of node n (on the current tree, deg(n) > 1) from its
    conditional given everything else, the posterior's part tempered by inv_temp; w: float64
    work of at least 2 deg(n). Return whether it changed. Mutates state.""")


# --- parameters (Gao & Johnson's explicit samplers, EM and variational Bayes) ---------------------
# A model with explicit parameters keeps them, for the samplers, in one flat float64 array
# ``theta`` laid out as the model likes; the samplers never look inside.
parameter_size = _stub("parameter_size", """parameter_size(state) -> int
    The length of ``theta`` (and of ``expected``, expected counts in the same layout).""")

draw_parameters = _stub("draw_parameters", """draw_parameters(rng, state, theta)
    Draw the parameters from their posterior given the current analysis's counts (conjugate:
    Dirichlet rows, Gao & Johnson eq. 5) into theta.""")

explicit_weights = _stub("explicit_weights", """explicit_weights(state, theta, s, w)
    Write w[v] ∝ p(b_s = v | the other sites, theta) for every value v (eq. 6): the counts are
    not read, so the site's own choices need not be removed.""")

explicit_sentence = _stub("explicit_sentence", """explicit_sentence(rng, state, theta, u, new, work)
    Draw sentence u's analysis from p(values | words, theta) exactly (forward filtering,
    backward sampling) into new[: its length]; work: float64[sentence_work_size(state)]. The
    state is not changed.""")

estimate_work_size = _stub("estimate_work_size", """estimate_work_size(state) -> int
    Length of the work buffer expected_counts and reestimate need.""")

expected_from_values = _stub("expected_from_values", """expected_from_values(state, expected, pseudo)
    The current analysis's counts as expected counts, plus ``pseudo`` times the prior's
    pseudo-counts: where EM (pseudo = 1, the posterior mean) and variational Bayes (pseudo = 0)
    start from a tagging.""")

expected_counts = _stub("expected_counts", """expected_counts(state, theta, expected, decoded, work) -> float
    The E-step: expected counts under p(analysis | words, theta) into ``expected``, and into
    decoded[s] the value the model's decoding gives each site (posterior marginals' argmax or
    the most probable analysis, as the model is set). Return log Σ over analyses of the
    weights theta gives them — log p(words | theta) when theta is normalised (EM). The state
    is not changed.""")

put_value = _stub("put_value", """put_value(state, s, v)
    b_s = v and nothing else: the counts (and any index) are stale until ``recount``. Between
    the two only explicit_weights and explicit_sentence, which read values and theta alone,
    may be called: a sweep of the explicit samplers or EM's new tagging then costs one
    rebuild instead of a count update per changed site. Mutates state.""")

recount = _stub("recount", """recount(state)
    Rebuild every count (and index) from the values. Mutates state.""")

reestimate = _stub("reestimate", """reestimate(state, expected, theta, variational, work) -> float
    The M-step from expected counts: maximum likelihood (EM, eq. 2) or the variational
    posterior's exponentiated expected log parameters (VB, eq. 4) into theta. For VB return
    KL(q(θ) ‖ p(θ)) of the new variational posterior Dir(expected + prior), else 0.""")


# {state class: {interface function's name: its implementation}} (filled by for_state), so a
# model that offers a sampler without implementing what it calls is refused with a message, not
# a Numba "No implementation of function …" at the first move
IMPLEMENTED = {}

TOKEN_FUNCTIONS = ("n_sites", "n_values", "get_value", "token_weights", "set_value", "reseats")
TYPE_FUNCTIONS = TOKEN_FUNCTIONS + ("remove_site", "add_site", "site_weights", "conflicts",
                                    "block_candidates", "block_weights")
FOREST_FUNCTIONS = TOKEN_FUNCTIONS + ("n_sentences", "sentence_root", "site_of_node", "n_edges",
                                       "tree_children", "edge_step")
SENTENCE_FUNCTIONS = ("n_sites", "get_value", "n_sentences", "sentence_sites", "sentence_remove",
                      "sentence_add", "sentence_restore", "sentence_proposal",
                      "sentence_work_size")

EXPLICIT_TOKEN_FUNCTIONS = ("n_sites", "n_values", "get_value", "put_value", "recount",
                            "parameter_size", "draw_parameters", "explicit_weights")
EXPLICIT_SENTENCE_FUNCTIONS = ("n_sites", "get_value", "put_value", "recount", "n_sentences",
                               "sentence_sites", "sentence_work_size", "parameter_size",
                               "draw_parameters", "explicit_sentence")
POINT_FUNCTIONS = ("n_sites", "get_value", "set_value", "put_value", "recount", "parameter_size",
                   "estimate_work_size", "expected_from_values", "expected_counts",
                   "reestimate")


# inlined into the moves at the IR level: TOKEN calls it once per site, and a call that passes
# the whole state tuple costs about as much as the work in it (USM TOKEN: 4.7 → 2.9 ms per
# sweep, for 16 s more compiling). get_value and set_value inlined gained nothing measurable;
# remove_site/add_site inlined were miscompiled by Numba (wrong counts).
# reseats is a constant, inlined so that TOKEN's test of it folds away. explicit_weights is
# the explicit pointwise sampler's token_weights.
INLINED = frozenset({"token_weights", "explicit_weights", "reseats"})


def missing(state_class, names):
    """The interface functions among ``names`` that state_class does not implement."""
    done = IMPLEMENTED.get(state_class, {})
    return [name for name in names if name not in done]


def for_state(state_class, inlined=()):
    """Decorator registering a model's njit implementation of interface function ``stub``.

    Besides INLINED, the functions named in ``inlined`` are inlined for this state class: a
    model's implementation that only hands a few of the state's arrays to kernels of its own
    (a call passes every array it is given, ~7 machine words each) and does little else: no
    loop (Numba's inliner mis-scopes loop variables of helpers inlined into an inlined
    overload), and no work of its own — the USM's block-site bookkeeping, loop-free, inlined
    there gave wrong counts without a warning; as a kernel of five arrays LLVM inlines it.

    Usage::

        @for_state(ToyState)(interface.get_value)
        def _get_value(state, s):
            return state.z[s]
    """
    def register(stub):
        def decorate(impl):
            def typer(*arg_types):
                # the state is the first argument, or the second after the rng
                if any(getattr(t, "instance_class", None) is state_class for t in arg_types[:2]):
                    return impl
                return None
            typer.__name__ = f"{stub.__name__}_{state_class.__name__}"
            # numba checks that the typing function's parameters match the implementation's
            typer.__signature__ = inspect.signature(impl)
            inline = "always" if stub.__name__ in INLINED or stub.__name__ in inlined else "never"
            overload(stub, jit_options={"cache": True, "_nrt": False},  # see core.jit
                     inline=inline)(typer)
            IMPLEMENTED.setdefault(state_class, {})[stub.__name__] = impl
            return impl
        return decorate
    return register
