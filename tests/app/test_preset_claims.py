"""Each lesson preset shows what its name claims: opened from its link, run for its number of
passes (or moves), the chains stand in the order the name says. The runs are seeded, so these
are exact replays of what a class sees, not statistical tests (except the toy's TYPE draws,
which are independent draws from the exact posterior)."""
import math
import re
import time

import numpy as np
import pandas as pd
import pytest

from engine.diagnostics import RHAT_LIMIT, diagnose_chains
from engine.models.toy.model import ToyModel
from tests.app.test_lesson_looks import charts
from ui.settings import slug


def last(race, name, column="loglik"):
    return race.runs[name].trace[-1][column]


def column(race, name, column):
    return np.array([row[column] for row in race.runs[name].trace])


# "α = 20", "N = 1", "m = n" in a preset's name: a symbol and a number or another symbol
NAMED_VALUE = re.compile(r"([^\s(,:=]+) = ([0-9][0-9,.]*|[^\W\d]\S*?)(?=[\s),:;]|$)")


def widget_symbols(at):
    """{symbol: value} of the page's widgets whose label names a symbol the way the pages
    write it, before a dash or a comma ("α — concentration", "α′, the emission prior",
    "initial m — copies split as `a b`")."""
    found = {}
    for kind in ("number_input", "slider", "select_slider", "selectbox", "radio"):
        for widget in at.get(kind):
            head = re.split(r" — |, ", widget.label, maxsplit=1)
            if len(head) == 2 and head[0].split():
                found.setdefault(head[0].split()[-1], widget.value)
    return found


def check_name_against_widgets(at, label):
    """Every "symbol = value" the preset's name states about a widget of its page is what that
    widget shows once the preset is opened (a value may be another widget's symbol: m = n).
    Symbols no widget names (a figure's number, a chain's start) are the claim test's."""
    shown = widget_symbols(at)
    for symbol, value in NAMED_VALUE.findall(label):
        if symbol not in shown or not (value in shown or value[0].isdigit()):
            continue  # "T = Nᵈ": a formula, not a value
        expected = shown[value] if value in shown else float(value.replace(",", ""))
        assert shown[symbol] == pytest.approx(expected), \
            f"{label!r} says {symbol} = {value}, its widget shows {shown[symbol]}"


def opened(open_page, page, label):
    """The page opened from the preset's link, its name checked against its widgets."""
    at = open_page(page, preset=slug(label))
    assert not at.warning and not at.exception
    check_name_against_widgets(at, label)
    return at


def played(open_page, page, prefix, label):
    """The preset's race run to its length: its passes, or under equal engine time its
    engine seconds (then the claim must hold however fast the machine runs the passes)."""
    at = opened(open_page, page, label)
    race = at.session_state[f"{prefix}_race"]
    # to its end, every chain's last row arrived: a Step's wait (30 s) is too short for a race
    # of 20 chains × 2,000 passes on a loaded machine, whose claims then read partial traces
    if hasattr(race, "finish"):  # races of samplers; a restaurant or a filter only sweeps
        race.finish()
    else:
        race.sweep(race.total_sweeps)
    assert race.finished, f"{label}: the race did not reach its length"
    return race


def toy_fig2(race):
    n = 1000
    token, type_ = column(race, "token", "m"), column(race, "type", "m")
    assert (token[:4] > n / 2).all()   # TOKEN still above n/2 after three passes
    assert type_[1] < n / 10           # TYPE at the mode after one
    assert last(race, "greedy", "m") == 0  # g(0) > g(n): greedy takes all-`ab`


def toy_small(race):
    model = ToyModel(12)
    p = np.exp(model.log_posterior())
    m = np.arange(13)
    sd = math.sqrt((p * (m - model.posterior_mean()) ** 2).sum())
    draws = column(race, "type", "m")[1:]  # one exact draw per pass: the block is all n sites
    assert abs(draws.mean() - model.posterior_mean()) < 4 * sd / math.sqrt(len(draws))


def toy_large(race):
    assert (column(race, "token", "m")[:7] > 50_000).all()  # above n/2 for six passes
    assert last(race, "type", "m") < 10_000


def toy_mode(race):
    for name in race.runs:
        assert column(race, name, "m").max() < 100  # n/10


def toy_one_stage(race):
    """At n = 10, E[m] = 0.10: one-stage's chain sits far above it, corrected it does not."""
    exact = ToyModel(10).posterior_mean()
    assert column(race, "one-stage", "m")[1:].mean() > 5 * exact
    for name in ("type", "one-stage-mh"):
        assert abs(column(race, name, "m")[1:].mean() - exact) < 0.05


def seg_type_escapes(race):
    """At equal engine time a run's length is engine seconds: measured quiet (2026-11-27: a
    TOKEN pass 0.2 ms, a TYPE pass 1 ms) the claim holds from 0.1 to 1 s (TYPE's lead in token
    F 0.26 at 0.1 s, 0.28 at 0.5 s, 0.16 at 1 s, 0.09 at 2 s, when TOKEN has done ~11,000
    passes); under make test's load a TYPE pass slows down more than a TOKEN pass, and at 0.5 s
    the lead was 0.16."""
    assert last(race, "type") > last(race, "token") + 1000
    # measured at 0.5 engine seconds: token F 0.557 against 0.279 quiet; 0.438 against 0.274
    # under make test's load, where a TYPE pass slows down more than a TOKEN pass (issue 28)
    assert last(race, "type", "token_f") > last(race, "token", "token_f") + 0.1


def seg_anneal(race):
    """Annealing's lead depends on how many passes it cools over, which engine time does not
    fix (at 1 s under make test's load it ended below TOKEN): at 200 equal passes it holds in
    10 of 10 seeds, anneal 1,300–1,927 above TOKEN and 972–1,321 below TYPE."""
    assert last(race, "token") < last(race, "anneal") < last(race, "type")


def seg_bigram_anneal(race):
    """The bigram model's holds at 300 passes: its samplers race at equal passes."""
    assert last(race, "token") < last(race, "sentence") < last(race, "anneal")
    assert last(race, "anneal", "token_f") > last(race, "token", "token_f") + 0.1


def tf_type_climbs(race):
    """Measured on the built-in treebank (72 training trees, 18 held out) over seeds 0–29 at
    equal passes, where a seeded run is the same on any machine: TYPE above TOKEN at every pass
    from 5 to 20 from η = 1 in 30 of 30 seeds (by 30 or more)."""
    lead = column(race, "type", "loglik") - column(race, "token", "loglik")
    assert (lead[5:21] > 0).all()  # from pass 5 to the end (20), at every pass


def tf_anneal(race):
    """Over seeds 0–29: TOKEN-anneal more than 200 below both at pass 25 in 30 of 30, and
    within 54 of TOKEN at pass 100."""
    anneal, token, type_ = (column(race, name, "loglik") for name in ("anneal", "token", "type"))
    assert anneal[25] < min(token[25], type_[25]) - 100  # hot: far below both
    assert abs(anneal[-1] - token[-1]) < 80  # cool (from pass 50): level with TOKEN


def tf_greedy_sticks(race):
    """Over seeds 0–29: TYPE-greedy from η = 0 frozen from pass 50 on, at least 124 below TYPE
    and 59 below TOKEN at pass 100, in 30 of 30 (from η = 1 it ends above both: a hill-climb
    finds a higher state than the posterior's typical ones)."""
    greedy = column(race, "greedy", "loglik")
    assert (greedy[50:] == greedy[-1]).all()  # frozen
    assert greedy[-1] < last(race, "type") - 100 and greedy[-1] < last(race, "token")


def table_sizes(arrivals):
    return sorted((len(customers) for _, customers in arrivals.table_list()), reverse=True)


def rest_rich_get_richer(arrivals):
    sizes = table_sizes(arrivals)
    assert arrivals.customers == 200 and len(sizes) <= 10
    assert sizes[0] + sizes[1] > 100  # two tables seat most of the room


def rest_many_tables(arrivals):
    assert arrivals.tables >= 30
    assert all(sum(bins.values()) >= 2 for bins in arrivals.histogram_view().values())
    assert len(arrivals.histogram_view()) == 4  # every dish served, each at several tables


def rest_power_law(arrivals):
    sizes = table_sizes(arrivals)
    assert arrivals.tables >= 100 and np.median(sizes) == 1  # tables keep opening …
    assert sizes[0] >= 20  # … while a few grow large: a heavy tail


def hmm_type_wins(race):
    """On the built-in corpus (2,062 tokens, K = 15 — its gold tags, the default — from η = 1)
    a sparse emission prior (Gao & Johnson's grid) couples a word's tokens strongly: moving them
    together pays, and TYPE leads at every pass. At equal engine time it leads only early (TOKEN
    passes it after ~1,500 passes, about 0.5 s), so the preset counts passes."""
    assert last(race, "type") > last(race, "token")
    assert last(race, "type", "acc_many_to_one") > last(race, "token", "acc_many_to_one") + 0.05


def hmm_greedy_collapses(race):
    greedy = column(race, "greedy", "loglik")
    assert greedy[50] == greedy[-1]  # frozen from pass 50 on
    assert greedy[-1] < last(race, "type")


def hmm_sentence_like_token(race):
    token, sentence = last(race, "token"), last(race, "sentence")
    assert abs(sentence - token) < 0.05 * abs(token)
    assert abs(last(race, "sentence", "acc_many_to_one")
               - last(race, "token", "acc_many_to_one")) < 0.05


def gj_stay_put(race):
    """Measured on the built-in corpus (2,062 tokens, K = 15) from η = 1: VB never leaves state
    1 and EM uses 2 states, TOKEN all 15 within 50 iterations."""
    assert last(race, "vb", "states_used") == 1 and last(race, "em", "states_used") <= 2
    assert last(race, "token", "states_used") == 15


def gj_vi_one_tag(race):
    """After 200 iterations from η = 1, VB's one-state tagging has VI 3.24 bits, explicit
    TOKEN's 3.58, though VB's 1-to-1 accuracy is 20.5% against 51.3% (their warning about
    VI)."""
    assert last(race, "vb", "states_used") == 1
    assert last(race, "vb", "vi") < last(race, "explicit-token", "vi")
    assert last(race, "vb", "acc_one_to_one") < last(race, "explicit-token", "acc_one_to_one")


def gj_token_beats_explicit(race):
    """From η = 0, TOKEN's log p is above explicit TOKEN's at every one of the 200 iterations:
    −10,429 against −10,494 at the end."""
    # above at every one of the 200 passes, by 25 nats at the closest and 64 at the end; over
    # seeds 0–5 of the preset TOKEN ends 64–416 above (at two of them explicit TOKEN is above
    # for a few passes on the way). The 1-to-1 accuracies are not part of the claim: over those
    # seeds either sampler's can be the higher.
    token, explicit = column(race, "token", "loglik"), column(race, "explicit-token", "loglik")
    assert len(token) == len(explicit) == 201 and (token[1:] > explicit[1:]).all()
    assert token[-1] > explicit[-1] + 50


def race_rhat(race, sampler, column="loglik"):
    chains = [frame for task, frame in race.chain_frames() if task.sampler == sampler]
    return diagnose_chains(chains, column).rhat


def race_median(race, sampler, column="loglik"):
    return np.median([frame[column].iloc[-1] for task, frame in race.chain_frames()
                      if task.sampler == sampler])


def race_starts(race, sampler, column):
    """Where each of a sampler's chains started, chain by chain."""
    return [frame[column].iloc[0] for task, frame in sorted(
        race.chain_frames(), key=lambda pair: pair[0].chain) if task.sampler == sampler]


def race_stuck(race):
    """TOKEN's chain from m = n keeps near n for ~6 passes while the others are at 0 (R̂ ≈ 4.8
    at pass 12); TYPE's chains all reach the mode at their first move and agree exactly."""
    # the name's "starts spread from m = 0 to m = n" (the preset's n = 100,000): chain c of C
    # at η = c / (C − 1), so m = 0, about n/3, 2n/3 and m = n
    n = 100_000
    starts = race_starts(race, "token", "m")
    assert starts[0] == 0 and starts[-1] == n, starts
    assert np.allclose(starts, np.linspace(0, n, len(starts)), atol=0.01 * n), starts
    assert race_rhat(race, "token") > 2           # TOKEN's chain from m = n is still up there
    assert race_rhat(race, "token", "m") > 2
    assert np.isnan(race_rhat(race, "type"))      # TYPE's chains agree exactly, at the mode
    assert race_median(race, "type", "m") == 0


def race_mixture(race):
    """The built-in corpus, K = 15, 1,000 passes: the mixture ends highest (median log p
    −13,100 against TYPE's −13,200 and TOKEN's −13,900), and no sampler has mixed. Both claims
    are measured at these passes (equal engine time would end at a machine's speed)."""
    medians = [race_median(race, name) for name in ("token", "type", "type-token")]
    assert medians[0] < medians[1] < medians[2]   # the mixture ends highest
    assert all(race_rhat(race, name) > RHAT_LIMIT for name in ("token", "type", "type-token"))


def race_none_mixes(race):
    """Nursery talk, 2,000 passes: R̂ from 1.66 (TYPE) to ∞ (TYPE-greedy, each chain frozen in
    its own place); TYPE's chains end highest (median log p −11,700, TOKEN's −13,500)."""
    samplers = ("token", "type", "anneal", "greedy", "sentence")
    # mixed means R̂ below the limit; an undefined R̂ (chains each frozen on one value) is not
    rhat = {name: race_rhat(race, name) for name in samplers}
    assert not any(value < RHAT_LIMIT for value in rhat.values()), rhat
    assert race_median(race, "type") == max(race_median(race, name) for name in samplers)


def pf_final(population, particles, seed, **settings):
    """§6.1's scores of a filter run to the end beside a preset's."""
    from engine.samplers.particle import ParticleFilter
    other = ParticleFilter(population, particles, seed, **settings)
    other.run()
    return other.evaluate()


def pf_one_collapses(pf):
    """One particle (DPS) ends far below 100 particles: its early mistakes stay."""
    one, hundred = pf.evaluate(), pf_final(pf.population, 100, pf.seed)
    assert one["log_prob"] < hundred["log_prob"] - 500
    assert one["token_f"] < hundred["token_f"] - 0.1


def pf_weights_degenerate(pf):
    """Without resampling the weights degenerate: some utterance leaves one particle with all
    the weight (ESS 1) long before the corpus ends."""
    ess = np.array([row["ess"] for row in pf.trace])
    assert ess.min() < 1.01 and np.argmax(ess < 1.5) < 100


def pf_rejuvenation_rescues(pf):
    """100 particles with 2 TYPE moves per utterance end above the same 100 without moves."""
    plain = pf_final(pf.population, 100, pf.seed)
    assert pf.evaluate()["log_prob"] > plain["log_prob"] + 100


def fo_token_stuck(race):
    """Measured on the built-in pairs (48 pairs, 396 sites) over seeds 0–29 at equal passes,
    where a seeded run is the same on any machine: from η = 1, TOKEN's log p(rules) at pass 30 is
    exactly its start's in 30 of 30 seeds, and TYPE is at least 160 above it at every pass from
    5 on."""
    token = column(race, "token", "loglik")
    assert (token == token[0]).all()  # not one merge in 30 passes
    assert (column(race, "type", "loglik")[5:] > token[5:] + 150).all()


def fo_anneal(race):
    """Over seeds 0–29: TYPE-anneal is more than 400 below TOKEN at pass 3 (β = 0.1: hot) and
    at pass 60 at least 335 above TOKEN and within 121 of TYPE."""
    anneal, token = column(race, "type-anneal", "loglik"), column(race, "token", "loglik")
    assert anneal[3] < token[3] - 400  # β = 0.1, 0.2: merged and split almost at random
    assert anneal[-1] > token[-1] + 300  # at β = 1 from pass 45: with TYPE, far above TOKEN
    assert abs(anneal[-1] - last(race, "type")) < 130


def fo_without_deg(race):
    """On the tiny four-word pair over 2,000 passes, TOKEN without deg(v) has the root's middle
    edge in 31–37 % of its passes (exact: 20 %), with it in 17–23 %."""
    model = race.runs["token"].model
    where = model.n_sites + int(model.arrays["pair_root"][0])
    middle = np.mean([values[where] == 1 for values in race.runs["token"].values[1:]])
    assert model.arrays["params"][-1] == 0.0  # the preset leaves deg(v) out
    assert middle > 0.28  # exact 0.2 (enumerated in tests/engine/models/scfg/test_scfg.py)


def fo_one_stage(race):
    """The share of passes at three rules (every pair one rule: the mode), exact 0.777."""
    model = race.runs["type"].model
    values, p = model.exact_posterior()
    rules = np.array([model.state_from_values(v).n_rules[0] for v in values])
    assert p[rules == 3].sum() == pytest.approx(0.777, abs=1e-3)
    at_three = {name: (column(race, name, "rules")[1:] == 3).mean() for name in race.runs}
    assert at_three["one-stage"] < 0.62
    assert 0.70 < at_three["one-stage-mh"] < 0.85 and 0.70 < at_three["type"] < 0.85


def at_five_rules(race):
    """Each chain's share of passes with every pair one rule, and the exact posterior's."""
    model = race.runs["token"].model
    values, p = model.exact_posterior()
    rules = np.array([model.state_from_values(v).n_rules[0] for v in values])
    shares = {name: (column(race, name, "rules")[1:] == 5).mean() for name in race.runs}
    return model, p[rules == 5].sum(), shares


def fo_pitman_yor_approximate(race):
    """On the five copies of one pair under the Pitman-Yor prior (α = 1, d = 0.9) over 1,000
    passes from η = 1, seeds 0–29: with T = N^d TOKEN and TYPE spend 81–88 % of their passes
    with every pair one rule (five rules; exact 96.7 %)."""
    model, exact, shares = at_five_rules(race)
    assert model.pitman_yor and not model.exact_seating
    assert exact == pytest.approx(0.967, abs=1e-3)
    assert all(share < 0.90 for share in shares.values())  # seeds 0–29: 0.81–0.88


def fo_pitman_yor_exact(race):
    """The same with exact seating: 95–98 % of their passes with every pair one rule."""
    model, exact, shares = at_five_rules(race)
    assert model.exact_seating
    assert all(0.94 < share < 0.99 for share in shares.values())  # seeds 0–29: 0.95–0.98


RACES = [
    ("pages/toy_posterior.py", "toy", "Fig. 2: TOKEN stuck at m = n, TYPE at the mode", toy_fig2),
    ("pages/toy_posterior.py", "toy", "Small n = 12: TYPE's draws, m by m", toy_small),
    ("pages/toy_posterior.py", "toy", "n = 100,000: TOKEN stuck longer", toy_large),
    ("pages/toy_posterior.py", "toy", "From the mode (m = 0): both stay", toy_mode),
    ("pages/toy_posterior.py", "toy", "One-stage is biased (n = 10); corrected, it is not",
     toy_one_stage),
    ("pages/word_segmentation.py", "seg", "TYPE escapes where TOKEN crawls", seg_type_escapes),
    ("pages/word_segmentation.py", "seg", "Annealing helps only a little", seg_anneal),
    ("pages/word_segmentation.py", "seg", "Bigram model: annealing ends highest, TOKEN lowest",
     seg_bigram_anneal),
    ("pages/restaurants.py", "rest", "DP, α = 1: a few big tables (the rich get richer)",
     rest_rich_get_richer),
    ("pages/restaurants.py", "rest", "DP, α = 20: many tables, each dish on several",
     rest_many_tables),
    ("pages/restaurants.py", "rest", "Pitman-Yor, d = 0.8: tables keep opening (a power law)",
     rest_power_law),
    ("pages/tag_trajectories.py", "hmm", "TYPE wins on large word types (α′ = 0.0001)",
     hmm_type_wins),
    ("pages/tag_trajectories.py", "hmm", "TYPE-greedy collapses", hmm_greedy_collapses),
    ("pages/tag_trajectories.py", "hmm", "SENTENCE ≈ TOKEN (blocked ≈ pointwise)",
     hmm_sentence_like_token),
    ("pages/hmm_estimators.py", "gj", "EM and VB stay put from one tag (η = 1)", gj_stay_put),
    ("pages/hmm_estimators.py", "gj", "VI prefers a one-tag tagger (η = 1)", gj_vi_one_tag),
    ("pages/hmm_estimators.py", "gj", "TOKEN beats explicit TOKEN on a small corpus",
     gj_token_beats_explicit),
    ("pages/sampler_race.py", "race",
     "R̂ catches a stuck chain (toy, starts spread from m = 0 to m = n)", race_stuck),
    ("pages/sampler_race.py", "race",
     "TYPE + TOKEN on the HMM: best of both, none mixed (α′ = 0.0001)", race_mixture),
    ("pages/sampler_race.py", "race",
     "Word segmentation: none of five samplers mixes in 2,000 passes", race_none_mixes),
    ("pages/tree_fragments.py", "tf", "From η = 1, TYPE climbs ahead of TOKEN", tf_type_climbs),
    ("pages/tree_fragments.py", "tf", "TOKEN-anneal: far below while hot, level once cool",
     tf_anneal),
    ("pages/tree_fragments.py", "tf", "From η = 0, TYPE-greedy sticks far below TYPE",
     tf_greedy_sticks),
    ("pages/forests.py", "fo", "TOKEN stuck at all-cut", fo_token_stuck),
    ("pages/forests.py", "fo", "TYPE-anneal: hot, then as high as TYPE", fo_anneal),
    ("pages/forests.py", "fo", "Without deg(v) the edge sampler is wrong", fo_without_deg),
    ("pages/forests.py", "fo", "One-stage is biased; corrected, it is not", fo_one_stage),
    ("pages/forests.py", "fo", "Pitman-Yor with T = Nᵈ: too many rules",
     fo_pitman_yor_approximate),
    ("pages/forests.py", "fo", "Pitman-Yor with exact seating: on the mark", fo_pitman_yor_exact),
    ("pages/particle_filter.py", "pf", "N = 1 collapses: one particle is DPS", pf_one_collapses),
    ("pages/particle_filter.py", "pf", "Resampling only at ESS ≤ 1: one particle takes all the "
     "weight", pf_weights_degenerate),
    ("pages/particle_filter.py", "pf", "Rejuvenation rescues 100 particles",
     pf_rejuvenation_rescues),
]


@pytest.mark.parametrize("page, prefix, label, claim", RACES, ids=[r[2] for r in RACES])
def test_a_race_preset_shows_its_claim(open_page, page, prefix, label, claim):
    claim(played(open_page, page, prefix, label))


def test_the_type_blocks_preset_shows_one_block_of_the(open_page):
    at = opened(open_page, "pages/type_blocks.py", "One block of “the” (HMM)")
    at.button(key="tb_step").click().run()
    lab = at.session_state.tb_race
    model, info = lab["model"], lab["move"]["info"]
    the = model.vocabulary.index("the")
    assert (model.words[info.block] == the).all()
    # every `the` of the pivot's type (those after a word, not opening a sentence), one move
    assert set(info.block) == set(info.type_sites) and len(info.block) > 20


FIGURE_TWO = "Figure 2: Antoniak's approximation fails when αP(w) < 1"


def test_the_figure_two_preset_shows_antoniak_far_below_the_truth(open_page):
    """On simple sentences (V = 518 word types) α = 100 gives αP(w) ≈ 0.19: a word seen once
    has exactly one table (the stars say so too), Antoniak's form gives about a third."""
    at = opened(open_page, "pages/restaurants.py", FIGURE_TWO)
    _, datasets = charts(at)["Tables against frequency (log–log)"]
    frames = pd.concat(datasets.values(), ignore_index=True)
    at_100 = frames[(frames.alpha == "100") & (frames.frequency == 1)]
    curve = at_100.dropna(subset=["formula"]).set_index("formula").tables
    assert curve["exact (digamma)"] == pytest.approx(1.0) and curve["Antoniak"] < 0.4
    stars = at_100[at_100.kind == "fixed base"].tables
    assert len(stars) and (stars == 1.0).all()
    # the stars are sampled: each lies on the exact line within its bar (±2 standard errors)
    bars = frames.dropna(subset=["low"]).query("alpha == '100'")
    exact = curve_at(frames[frames.formula == "exact (digamma)"].query("alpha == '100'"),
                     bars.frequency)
    assert len(bars) > 10 and ((bars.low <= exact) & (exact <= bars.high)).mean() > 0.8
    caption = next(c.value for c in at.caption if "Gibbs sweeps of the seating" in c.value)
    assert "must lie on" not in caption and "±2 standard errors" in caption


def curve_at(line, frequencies):
    """A line's tables at ``frequencies`` (interpolated on the log–log axes, as drawn)."""
    return np.exp(np.interp(np.log(frequencies), np.log(line.frequency), np.log(line.tables)))


TOO_MANY = "Too many workers"


def test_too_many_workers_end_lower(open_page):
    """The parallel chains of the preset (TYPE from all-cut, 30 iterations) run on Dask in the
    background; one pair a worker never leaves the start, two workers end far below one.
    Measured (TYPE from η = 1, 30 iterations, seeds 0–5): one worker ends at −1,171 … −1,223,
    two at −1,422 … −1,486, one pair a worker stays at the start (−1,587)."""
    at = opened(open_page, "pages/forests.py", TOO_MANY)
    at.button(key="fo_parallel_run").click().run()
    job = at.session_state.fo_parallel_grids[-1].job
    deadline = time.monotonic() + 600
    while job.running and time.monotonic() < deadline:
        time.sleep(1.0)
    assert job.state == "finished", job.error
    at.run()
    assert not at.exception
    rows = job.rows()
    end = rows[rows.iteration == 30].set_index("workers").loglik
    start = rows[rows.iteration == 0].loglik.iloc[0]
    assert list(end.index) == [1, 2, 48]
    assert end[48] == pytest.approx(start)  # one pair a worker: TYPE is TOKEN, stuck
    assert end[1] > end[2] + 100 > end[48] + 100
    table = next(d.value for d in at.dataframe if "speed-up over k = 1" in d.value.columns)
    assert list(table.k) == [1, 2, 48]


def test_every_preset_has_its_claim_checked(open_page):
    checked = {(page, label) for page, _, label, _ in RACES}
    checked.add(("pages/type_blocks.py", "One block of “the” (HMM)"))
    checked.add(("pages/restaurants.py", FIGURE_TWO))
    checked.add(("pages/forests.py", TOO_MANY))
    for page, prefix in {(page, prefix) for page, prefix, _, _ in RACES} | {
            ("pages/type_blocks.py", "tb")}:
        at = open_page(page)
        for label in at.selectbox(key=f"{prefix}_preset").options:
            assert (page, label) in checked, f"{label!r} on {page} has no claim test"
