"""Exact seating's arithmetic (engine/models/scfg/seating.py) against plain enumeration: the
log Stirling table, a few rules' tables summed out, and the tables drawn from their exact
conditional."""
import itertools
import math

import numpy as np
import pytest

from engine.models.scfg import pitman_yor, seating
from tests.statistical.exact import chi_square_p

COUNTS = np.array([3, 1, 4, 0])
LOG_P0 = np.log(np.array([0.1, 0.02, 0.3, 0.5]))
ALPHA, T_REST = 2.0, 2


@pytest.mark.parametrize("d", [0.0, 0.5, 0.9])
def test_the_log_stirling_table_is_the_generalised_stirling_numbers(d):
    table = seating.log_stirling_table(d, 30)
    row = np.empty(31)
    for n in range(1, 31):
        log_scale = pitman_yor.stirling_row(n, d, row)
        np.testing.assert_allclose(table[n, 1:n + 1], np.log(row[1:n + 1]) + log_scale,
                                   rtol=1e-12, atol=1e-12)
        assert table[n, 0] == -np.inf
    assert table[0, 0] == 0.0


def log_tables_by_enumeration(counts, log_p0, d, table):
    """Every t_R (1 ≤ t_r ≤ n_r for a rule in use, 0 else) with its log weight."""
    ranges = [range(1, c + 1) if c else range(0, 1) for c in counts]
    out = {}
    for ts in itertools.product(*ranges):
        rise = sum(math.log(ALPHA + k * d) for k in range(T_REST, T_REST + sum(ts)))
        out[ts] = rise + sum(table[c, t] + t * lp for c, t, lp in zip(counts, ts, log_p0))
    return out


@pytest.mark.parametrize("d", [0.0, 0.5])
def test_a_few_rules_tables_summed_out(d):
    table = seating.log_stirling_table(d, 10)
    rows = np.empty((len(COUNTS), 10))
    got = seating.log_tables_summed(COUNTS, LOG_P0, table, T_REST, ALPHA, d, rows)
    want = np.logaddexp.reduce(list(log_tables_by_enumeration(COUNTS, LOG_P0, d,
                                                              table).values()))
    assert got == pytest.approx(want, rel=1e-12)


def test_summed_from_no_other_table_is_the_restaurants_exact_probability():
    """With T₋ = 0 and every rule of the restaurant in R: pitman_yor.py's probability, times
    α^(N) (which the moves' weights count apart)."""
    d, table = 0.5, seating.log_stirling_table(0.5, 10)
    rows, poly, row = np.empty((len(COUNTS), 10)), np.empty(10), np.empty(10)
    got = seating.log_tables_summed(COUNTS, LOG_P0, table, 0, ALPHA, d, rows)
    n = int(COUNTS.sum())
    want = (pitman_yor.log_class_probability(COUNTS[COUNTS > 0], LOG_P0[COUNTS > 0], ALPHA, d,
                                             poly, row)
            + math.lgamma(ALPHA + n) - math.lgamma(ALPHA))
    assert got == pytest.approx(want, rel=1e-12)


def test_the_tables_are_drawn_from_their_exact_conditional():
    d = 0.5
    table = seating.log_stirling_table(d, 10)
    exact = log_tables_by_enumeration(COUNTS, LOG_P0, d, table)
    states = list(exact)
    p = np.exp(np.array([exact[s] for s in states]) - np.logaddexp.reduce(list(exact.values())))
    rng = np.random.default_rng(5)
    rows, scratch, out = np.empty((len(COUNTS), 10)), np.empty(10), np.empty(4, np.int64)
    index = {s: i for i, s in enumerate(states)}
    seen = np.zeros(len(states), np.int64)
    for _ in range(20_000):
        seating.draw_tables(rng, COUNTS, LOG_P0, table, T_REST, ALPHA, d, rows, scratch, out)
        seen[index[tuple(out)]] += 1
    assert chi_square_p(seen, p) > 1e-3
    # the same draws against the tables without the other rules' T₋ (a planted bug) fail
    wrong = log_tables_by_enumeration(COUNTS, LOG_P0, d, table)
    shift = {s: w - sum(math.log(ALPHA + k * d) for k in range(T_REST, T_REST + sum(s)))
             + sum(math.log(ALPHA + k * d) for k in range(sum(s))) for s, w in wrong.items()}
    q = np.exp(np.array([shift[s] for s in states]) - np.logaddexp.reduce(list(shift.values())))
    assert chi_square_p(seen, q) < 1e-6


def log_joint(model, counts, tables):
    """log p(rules, tables) of the whole corpus up to a constant: per restaurant l,
    Σ_{k<T_l} log(α + k d) − log α^(N_l) + N_l log Poisson(l) + Σ_r log S_d(n_r, t_r) P₀^{t_r}."""
    from engine.models.scfg.kernels.layout import CLASS_SHIFT
    d, alpha = model.discount, model.alpha
    table = model.arrays["log_stirling"]
    per_class = {}
    total = 0.0
    for key, (n, log_p0) in counts.items():
        if n == 0:
            continue
        t = tables[key]
        c = key >> CLASS_SHIFT
        big_n, big_t = per_class.get(c, (0, 0))
        per_class[c] = (big_n + n, big_t + t)
        total += table[n, t] + t * log_p0
    for c, (big_n, big_t) in per_class.items():
        total += sum(math.log(alpha + k * d) for k in range(big_t))
        total -= math.lgamma(alpha + big_n) - math.lgamma(alpha)
        total += big_n * model.arrays["log_pois"][c]
    return total


def test_tokens_cut_weights_sum_the_three_rules_tables_out_given_the_others():
    """Every site's exact-seating cut weights on the larger corpus, after moves have seated
    its rules at random tables, against the joint summed over the site's rules' tables by
    enumeration, the other rules' tables as the state has them (their T₋ matters)."""
    from engine.core.rng import make_rng
    from engine.models.scfg.kernels.token_cut import exact_cut_weights, type_of
    from engine.samplers import make_sampler
    from tests.conformance.cases.scfg import large_model
    from tests.statistical.test_scfg_exact_seating import seating_of
    model = large_model(pitman_yor=True, discount=0.5, exact_seating=True)
    rng = make_rng(3)
    state = model.new_state(rng, eta=0.5)
    for _ in range(5):
        make_sampler("token").sweep(rng, state)
    rules, _ = seating_of(model, state)
    log_p0 = {int(state.slot_key[s]): state.logp0[state.slot_head[s]]
              for s in np.flatnonzero(state.slot_key >= 0)}
    tables = {key: t for key, (_, t) in rules.items()}
    w = np.empty(2)
    checked = 0
    for n in np.flatnonzero(state.up >= 0):
        if model.arrays["node_site"][n] < 0:
            continue
        k1, p1, k2, p2, k3, p3, _ = type_of(state, n)
        cut = int(state.cut[n])
        base = {key: [rules.get(key, (0, 0))[0], lp] for key, lp in log_p0.items()}
        for key, lp in ((k1, p1), (k2, p2), (k3, p3)):
            base.setdefault(int(key), [0, lp])
        for key in ((k2, k3) if cut else (k1,)):
            base[int(key)][0] -= 1
        world = sorted({int(k1), int(k2), int(k3)})
        log_w = []
        for adds in ((k1,), (k2, k3)):
            counts = {key: list(v) for key, v in base.items()}
            for key in adds:
                counts[int(key)][0] += 1
            terms = []
            ranges = [range(1, counts[k][0] + 1) if counts[k][0] else range(1) for k in world]
            for ts in itertools.product(*ranges):
                t_all = dict(tables)
                t_all.update(zip(world, ts))
                terms.append(log_joint(model, {k: tuple(v) for k, v in counts.items()},
                                       t_all))
            log_w.append(np.logaddexp.reduce(terms))
        exact_cut_weights(state, n, w)
        assert math.log(w[1] / w[0]) == pytest.approx(log_w[1] - log_w[0], abs=1e-9)
        checked += 1
    assert checked > 20
