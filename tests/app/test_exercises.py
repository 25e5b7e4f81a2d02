"""Every lesson's exercises: drawn under the lesson, each link opens the experiment its text
names (the preset's settings and its own, without a warning), and each answer's claims hold
when the link's run is played as the exercise says. The runs are seeded: these are exact
replays of what a class sees, as in test_preset_claims.py. One test per lesson, each opening
every link of that lesson once and reusing the run for all of an answer's claims."""
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pandas as pd
import pytest

from engine.diagnostics import diagnose_chains
from tests.app.test_lesson_looks import charts
from ui import course
from ui.exercise import Exercise
from ui.lesson_exercises import EXERCISES
from ui.settings import slug

PREFIXES = {"pages/toy_posterior.py": "toy", "pages/type_blocks.py": "tb",
            "pages/word_segmentation.py": "seg", "pages/tag_trajectories.py": "hmm",
            "pages/hmm_estimators.py": "gj", "pages/restaurants.py": "rest",
            "pages/particle_filter.py": "pf", "pages/sampler_race.py": "race",
            "pages/tree_fragments.py": "tf", "pages/forests.py": "fo"}


def drawn_links(at):
    """The address parameters of the exercises' links, as the page draws them."""
    return [dict(parse_qsl(urlsplit(button.proto.url).query))
            for button in at.get("link_button")]


def open_exercises(open_page, page):
    """Open the lesson, check it draws its exercises (each link and a hidden answer), then open
    every exercise's link; return the opened AppTests, in order."""
    prefix = PREFIXES[page]
    exercises = EXERCISES[prefix]
    # the lesson opened at its first exercise's preset: it draws the exercises as any view
    # does, and gives that preset's settings to compare with (each page open costs seconds)
    first = next((exercise.preset for exercise in exercises if exercise.preset), None)
    at = open_page(page, **({"preset": slug(first)} if first else {}))
    presets = {first: at.session_state[f"_{prefix}_saved"]} if first else {}
    links = drawn_links(at)
    assert len(links) == len(exercises) and 2 <= len(exercises) <= 4
    answers = [e for e in at.expander if e.label == "Answer"]
    assert len(answers) == len(exercises)
    options = at.selectbox(key=f"{prefix}_preset").options
    assert all(exercise.preset in options for exercise in exercises if exercise.preset)
    opened = []
    for exercise, query in zip(exercises, links):
        at = open_page(page, **query)
        assert not at.warning and not at.error and not at.exception, query
        values = at.session_state[f"_{prefix}_saved"]
        for name, value in exercise.settings.items():
            assert values[name] == value, (name, values[name], value)
        if exercise.preset:
            # every other setting as the preset's own link gives it
            if exercise.preset not in presets:
                presets[exercise.preset] = open_page(page, preset=slug(exercise.preset)) \
                    .session_state[f"_{prefix}_saved"]
            assert without(values, exercise.settings) == \
                without(presets[exercise.preset], exercise.settings)
        opened.append(at)
    return opened


def without(values, names):
    return {name: value for name, value in values.items() if name not in names}


def played(at, prefix):
    race = at.session_state[f"{prefix}_race"]
    race.sweep(race.total_sweeps)
    return race


def column(race, name, column):
    return np.array([row[column] for row in race.runs[name].trace])


def captions(at):
    return " ".join(c.value for c in at.caption)


# --- the lessons ------------------------------------------------------------------------------
def test_toy_posterior_exercises(open_page):
    fig2, large = open_exercises(open_page, "pages/toy_posterior.py")
    assert "Median 5 passes over 200 chains" in captions(fig2)
    race = played(fig2, "toy")
    token, type_ = column(race, "token", "m"), column(race, "type", "m")
    assert (token[1:4] > 800).all() and token[4] < 500 and token[6] > 0 and token[7] == 0
    assert type_[1] == 0
    anneal = column(race, "anneal", "m")
    assert 500 < anneal[1] < 600 and ((400 < anneal[2:12]) & (anneal[2:12] < 550)).all()
    assert column(race, "greedy", "m")[1] == 0
    assert "Median 6 passes over 200 chains" in captions(large)
    race = played(large, "toy")
    assert (column(race, "token", "m")[:6] > 9000).all() and column(race, "type", "m")[1] == 0
    small = open_page("pages/toy_posterior.py", n=100)
    assert "Median 3 passes over 200 chains" in captions(small)


def ten_moves(at):
    at.button(key="tb_ten").click().run()
    return list(reversed(at.session_state.tb_race["history"]))[:10]  # newest first → in order


def test_type_blocks_exercises(open_page):
    the, start, no_boundaries = open_exercises(open_page, "pages/type_blocks.py")
    the.button(key="tb_step").click().run()
    lab = the.session_state.tb_race
    info, token = lab["move"]["info"], lab["token"]
    assert len(info.type_sites) == len(info.block) == 27 and len(info.conflicted) == 0
    assert info.drawn == 26 and len(info.changed) == 26
    assert 1 - token["p"][token["old"]] < 0.001
    moves = ten_moves(start)
    biggest = max(moves, key=lambda move: move["|S|"])
    assert biggest is moves[4] and biggest["type"].startswith("t|h")
    assert biggest["sites of the type"] == biggest["|S|"] == 24
    assert biggest["m"] == 1 and biggest["changed"] == 23
    assert all(1 <= move["|S|"] <= 7 for move in moves if move is not biggest)
    moves = ten_moves(no_boundaries)
    assert all(move["|S|"] == 1 and move["changed"] == 0 for move in moves)


def test_tag_trajectories_exercises(open_page):
    greedy_at, alpha_at = open_exercises(open_page, "pages/tag_trajectories.py")
    race = played(greedy_at, "hmm")
    greedy = column(race, "greedy", "loglik")
    assert (greedy[5:] == greedy[-1]).all() and greedy[4] != greedy[-1]
    assert round(greedy[-1]) == -11206
    assert round(last(race, "greedy", "acc_many_to_one"), 3) == 0.366
    assert last(race, "greedy", "states_used") == 2 and last(race, "type", "states_used") == 15
    assert round(last(race, "type", "acc_many_to_one"), 3) == 0.504
    race = played(alpha_at, "hmm")
    token, type_ = column(race, "token", "loglik"), column(race, "type", "loglik")
    assert round(type_[50]) == -10774 and round(token[50]) == -11358
    assert token[100] > type_[100]
    assert round(token[-1]) == -10426 and round(type_[-1]) == -10984
    assert round(last(race, "token", "acc_many_to_one"), 3) == 0.705


def last(race, name, column):
    return race.runs[name].trace[-1][column]


def test_restaurants_exercises(open_page):
    dp, py, figure = open_exercises(open_page, "pages/restaurants.py")
    arrivals = played(dp, "rest")
    tables = np.cumsum(np.asarray(arrivals.opened, dtype=np.int64))
    assert arrivals.customers == 1000 and arrivals.tables == 7 and tables[199] == 6
    sizes = sorted((len(c) for _, c in arrivals.table_list()), reverse=True)
    assert sizes[0] + sizes[1] == 850
    arrivals = played(py, "rest")
    tables = np.cumsum(np.asarray(arrivals.opened, dtype=np.int64))
    assert arrivals.tables == 505 and tables[399] == 175
    sizes = sorted((len(c) for _, c in arrivals.table_list()), reverse=True)
    assert np.median(sizes) == 1 and sizes[0] == 211
    assert f"{arrivals.new_table_probability():.3f}" == "0.253"
    assert "V = 518 word types" in captions(figure)
    _, datasets = charts(figure)["Tables against frequency (log–log)"]
    frames = pd.concat(datasets.values(), ignore_index=True)
    seen_twice = frames[frames.frequency == 2]
    for alpha, expected in (("100", dict(exact=1.16, antoniak=0.47, stars=1.16, circles=1.75)),
                            ("100,000", dict(exact=1.99, antoniak=1.99, circles=1.99))):
        at_alpha = seen_twice[seen_twice.alpha == alpha]
        curve = at_alpha.dropna(subset=["formula"]).set_index("formula").tables
        points = at_alpha.dropna(subset=["kind"]).set_index("kind")
        assert points.words.eq(114).all()
        shown = dict(exact=curve["exact (digamma)"], antoniak=curve["Antoniak"],
                     stars=points.tables.get("fixed base"), circles=points.tables["bigram model"])
        assert {k: round(shown[k], 2) for k in expected} == expected, alpha


def test_word_segmentation_exercises(open_page):
    escapes, empty_start, no_skip = open_exercises(open_page, "pages/word_segmentation.py")
    race = played(escapes, "seg")
    token, type_ = column(race, "token", "token_f"), column(race, "type", "token_f")
    assert [round(type_[10], 2), round(type_[200], 2)] == [0.39, 0.52]
    assert [round(token[10], 2), round(token[100], 2), round(token[200], 2)] == [0.02, 0.10, 0.16]
    assert round(last(race, "type", "loglik")) == -11899
    assert round(last(race, "token", "loglik")) == -14795
    skip_on = round(type_[100], 2), round(column(race, "type", "loglik")[100])
    assert skip_on == (0.49, -12017)
    race = played(empty_start, "seg")
    assert round(last(race, "token", "token_f"), 2) == 0.30
    assert round(last(race, "type", "token_f"), 2) == 0.53
    assert round(last(race, "token", "loglik")) == -13347
    assert round(last(race, "type", "loglik")) == -11928
    race = played(no_skip, "seg")
    assert race.runs["type"].sweeps_done == 100
    assert round(last(race, "type", "token_f"), 2) == 0.53
    assert round(last(race, "type", "loglik")) == -11897


def test_tree_fragments_exercises(open_page):
    from ui.lesson_exercises import GREEDY_STICKS
    race = played(open_page("pages/tree_fragments.py", preset=slug(GREEDY_STICKS)), "tf")
    # the first question's numbers: its preset, from η = 0
    assert [round(last(race, name, "loglik")) for name in ("greedy", "type")] == [-1981, -1818]
    greedy_from_one, f1 = open_exercises(open_page, "pages/tree_fragments.py")
    race = played(greedy_from_one, "tf")
    greedy = column(race, "greedy", "loglik")
    assert (greedy[4:] == greedy[-1]).all() and not (greedy[3:] == greedy[-1]).all()
    assert round(greedy[-1]) == -1688
    assert round(last(race, "type", "loglik")) == -1836
    assert round(last(race, "token", "loglik")) == -1868
    assert [last(race, name, "fragments") for name in ("greedy", "type")] == [643, 479]
    assert [round(last(race, name, "mean_size"), 2) for name in ("greedy", "type")] == [1.53, 2.05]
    race = played(f1, "tf")
    assert round(column(race, "type", "f1")[0], 3) == 0.780
    assert round(last(race, "type", "f1"), 3) == 0.780
    assert round(last(race, "token", "f1"), 3) == 0.714
    assert last(race, "type", "loglik") > last(race, "token", "loglik")
    model = race.runs["type"].model
    assert (len(model.trees), len(model.held_out)) == (72, 18)
    _, scores, _ = model.parse_held_out(race.runs["type"].state)
    assert scores["gold"] == 99
    shown = {m.label: m.value for m in f1.metric}
    assert (shown["PCFG"], shown["Parent-annotated PCFG"]) == ("0.743", "0.643")
    for name in ("type", "token"):
        assert column(race, name, "f1").min() > 0.643


def test_forests_exercises(open_page):
    stuck, anneal, no_deg = (played(at, "fo")
                             for at in open_exercises(open_page, "pages/forests.py"))
    token = column(stuck, "token", "loglik")
    assert (np.round(token, 1) == -1586.8).all() and last(stuck, "token", "rules") == 376
    assert last(stuck, "token", "rule_types") == 39
    assert round(last(stuck, "type", "loglik"), 1) == -1214.7
    assert [last(stuck, "type", name) for name in ("rules", "rule_types")] == [229, 33]
    assert round(last(stuck, "type", "mean_size"), 2) == 1.64
    model, state = stuck.runs["type"].model, stuck.runs["type"].state
    assert model.rule_counts(state)["[X,1] o mitsuketa ||| found the [X,1]"] == 11
    assert (model.v_f, model.v_e) == (33, 34)
    hot = column(anneal, "type-anneal", "loglik")
    assert round(hot[3], 1) == -2339.6 and round(hot[3] - column(anneal, "token", "loglik")[3]) == -753
    assert round(hot[30], 1) == -1173.6 and round(column(anneal, "type", "loglik")[30], 1) == -1214.7
    assert round(hot[-1], 1) == -1173.6 and round(last(anneal, "type", "loglik"), 1) == -1170.9
    model = no_deg.runs["token"].model
    where = model.n_sites + int(model.arrays["pair_root"][0])
    assert model.n_analyses() == 320
    values, p = model.exact_posterior()
    assert [round(p[values[:, where] == e].sum(), 4) for e in range(3)] == [0.4, 0.2, 0.4]
    middle = np.mean([v[where] == 1 for v in no_deg.runs["token"].values[1:]])
    assert round(100 * middle, 1) == 34.0
    with_deg = open_page("pages/forests.py", preset=slug("Without deg(v) the edge sampler is "
                                                             "wrong"), no_deg="0")
    race = played(with_deg, "fo")
    middle = np.mean([v[where] == 1 for v in race.runs["token"].values[1:]])
    assert round(100 * middle, 1) == 19.2


def test_hmm_estimators_exercises(open_page):
    stay, six = open_exercises(open_page, "pages/hmm_estimators.py")
    race = played(stay, "gj")
    assert (column(race, "vb", "loglik") == column(race, "vb", "loglik")[0]).all()
    assert round(column(race, "vb", "loglik")[0], 1) == -12027.4
    assert (np.round(column(race, "vb", "acc_one_to_one"), 3) == 0.205).all()
    em_states = column(race, "em", "states_used")
    assert em_states[0] == 1 and (em_states[1:] == 2).all()
    assert round(last(race, "em", "acc_one_to_one"), 3) == 0.265
    assert column(race, "token", "states_used")[10] == 14
    assert last(race, "token", "states_used") == 15
    assert round(last(race, "token", "acc_one_to_one"), 3) == 0.433
    race = played(six, "gj")
    ends = {name: round(last(race, name, "loglik")) for name in race.runs}
    assert ends == {"em": -10367, "vb": -12110, "explicit-token": -10494,
                    "explicit-sentence": -10348, "token": -10429, "sentence": -10070}
    assert sorted(ends, key=ends.get)[-2:] == ["explicit-sentence", "sentence"]
    one_to_one = {name: round(last(race, name, "acc_one_to_one"), 3) for name in race.runs}
    assert sorted(one_to_one, key=one_to_one.get)[-2:] == ["explicit-sentence", "sentence"]
    assert one_to_one == {"em": 0.455, "vb": 0.415, "explicit-token": 0.489,
                          "explicit-sentence": 0.494, "token": 0.462, "sentence": 0.547}
    assert round(last(race, "sentence", "acc_many_to_one"), 3) == 0.724
    assert round(last(race, "explicit-sentence", "acc_many_to_one"), 3) == 0.648
    vi = {name: last(race, name, "vi") for name in race.runs}
    assert min(vi, key=vi.get) == "sentence" and round(vi["sentence"], 2) == 2.93
    assert round(vi["explicit-sentence"], 2) == 3.42


def test_particle_filter_exercises(open_page):
    half, every, one = open_exercises(open_page, "pages/particle_filter.py")
    results = []
    for at in (half, every, one):
        pf = played(at, "pf")
        ess = np.array([row["ess"] for row in pf.trace])
        results.append((sum(row["resampled"] for row in pf.trace), round(pf.log_z, 1),
                        pf.trace[-1]["distinct_particles"], ess.min()))
    (half_resampled, half_z, half_parents, half_ess), (every_resampled, every_z,
                                                       every_parents, _), one_run = results
    assert pf.total_sweeps == 408
    assert half_resampled == 91 and half_z == -12310.9 and half_parents == 50
    assert half_ess < 1.005
    assert every_resampled == 408 and every_parents == 29 and every_z == -12837.3
    assert one_run[0] == 0 and one_run[1] == -14248.5


def rhat(race, sampler, column):
    return diagnose_chains([frame for task, frame in race.chain_frames()
                            if task.sampler == sampler], column).rhat


def test_sampler_race_exercises(open_page):
    twelve, hundred = open_exercises(open_page, "pages/sampler_race.py")
    race = played(twelve, "race")
    token = {int(frame["m"].iloc[0]): frame["m"].to_numpy() for task, frame in
             race.chain_frames() if task.sampler == "token"}
    assert sorted(token) == [0, 33538, 66709, 100000]
    assert all((token[start][6:] == 0).all() for start in (0, 33538, 66709))
    assert list(token[100000][[3, 6, 9, 12]]) == [99813, 82190, 51, 0]
    assert round(rhat(race, "token", "loglik"), 1) == 4.8
    for task, frame in race.chain_frames():
        if task.sampler == "type":
            assert (frame["m"].to_numpy()[1:] == 0).all()
    assert np.isnan(rhat(race, "type", "loglik"))
    race = played(hundred, "race")
    assert all((frame["m"].to_numpy()[12:] == 0).all() for _, frame in race.chain_frames())
    assert np.isnan(rhat(race, "token", "loglik")) and np.isnan(rhat(race, "type", "loglik"))


# --- the course and the glossary --------------------------------------------------------------
def test_every_lesson_of_the_course_has_exercises():
    assert {lesson.page for lesson in course.LESSONS} == set(PREFIXES)
    for prefix in PREFIXES.values():
        assert 2 <= len(EXERCISES[prefix]) <= 4
        assert all(isinstance(e, Exercise) for e in EXERCISES[prefix])


def test_a_glossary_link_to_a_word_it_lacks_fails_at_once():
    assert course.term("R̂") == "[R̂](./#glossary-r-hat)"
    assert course.term("pass", "passes", here=True) == "[passes](#glossary-pass)"
    with pytest.raises(KeyError):
        course.term("R-hat")
