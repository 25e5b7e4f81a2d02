"""The race charts' data (engine.cli.race_plots): medians over chains, thinning, the η bands."""
import numpy as np
import pandas as pd
import pytest

from engine.cli.race_plots import TIME_POINTS, chain_medians, final_bands, on_one_grid


def chains_frame():
    # sampler "token": 3 chains at sweeps 0..4 (chain 2 stops at sweep 3); "type": 2 chains
    rows = []
    for sampler, chains in (("token", 3), ("type", 2)):
        for c in range(chains):
            for sweep in range(4 if (sampler, c) == ("token", 2) else 5):
                rows.append({"sampler": sampler, "chain": c, "sweep": sweep,
                             "seconds": 0.1 * sweep * (c + 1), "loglik": 10.0 * c + sweep})
    return pd.DataFrame(rows)


def test_the_median_against_sweeps_is_taken_where_every_chain_has_a_row():
    found = chain_medians(chains_frame(), "loglik", "sweep")
    token = found[found.sampler == "TOKEN"]
    assert list(token.sweep) == [0, 1, 2, 3]  # sweep 4: chain 2 has not got there
    assert list(token.loglik) == [10.0, 11.0, 12.0, 13.0]  # the middle chain's values
    type_ = found[found.sampler == "TYPE"]
    assert list(type_.loglik) == [5.0, 6.0, 7.0, 8.0, 9.0]  # the mean of two


def test_the_median_against_time_interpolates_each_chain_up_to_the_slowest():
    found = chain_medians(chains_frame(), "loglik", "seconds")
    token = found[found.sampler == "TOKEN"]
    assert len(token) == TIME_POINTS
    assert token.seconds.max() == pytest.approx(0.4)  # chain 0 ends at 0.4 s
    at = token.seconds.to_numpy()
    expected = np.median([np.interp(at, 0.1 * np.arange(5) * (c + 1), 10.0 * c + np.arange(5))
                          for c in (0, 1)] + [np.interp(at, 0.3 * np.arange(4),
                                                        20.0 + np.arange(4))], axis=0)
    assert token.loglik.to_numpy() == pytest.approx(expected)


def test_chains_are_thinned_to_the_same_sweeps_and_keep_their_last_row():
    rows = [{"sampler": "token", "chain": c, "sweep": s} for c, n in ((0, 1000), (1, 731))
            for s in range(n)]
    shown = on_one_grid(pd.DataFrame(rows), limit=100)
    by_chain = shown.groupby("chain").sweep.apply(list)
    assert by_chain[0][:5] == [0, 10, 20, 30, 40] and by_chain[0][-1] == 999
    assert by_chain[1][-2:] == [720, 730]
    assert set(by_chain[1][:-1]) <= set(by_chain[0]) and len(by_chain[0]) == 101


def test_the_bands_are_the_median_lowest_and_highest_final_values():
    rows = [{"sampler": "type", "eta": eta, "chain": c, "iteration": i, "loglik": i * eta + c}
            for eta in (0.0, 1.0) for c in range(3) for i in range(3)]
    bands = final_bands(pd.DataFrame(rows), "loglik")
    assert bands.to_dict("records") == [
        {"sampler": "type", "eta": 0.0, "median": 1.0, "low": 0.0, "high": 2.0},
        {"sampler": "type", "eta": 1.0, "median": 3.0, "low": 2.0, "high": 4.0}]
