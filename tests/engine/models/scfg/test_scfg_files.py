"""The SCFG model's files and texts: rules written as Hiero writes them name the same rules as
the kernels' keys, an analysis file reads back to the same state, a bad one is refused naming
its line, and ``run --rules`` writes the rules in use after every sweep."""
import json
from collections import Counter

import numpy as np
import pandas as pd
import pytest

from datasets.errors import CorpusError
from engine.core.rng import make_rng
from engine.models import registry
from engine.samplers import make_sampler
from tests.command import engine
from tests.conformance.cases.scfg import large_model


def moved(model, seed, sweeps=5):
    """A state of ``model`` after a few TYPE and TOKEN sweeps from a random start."""
    rng = make_rng(seed)
    state = model.new_state(rng, eta=0.5)
    for name in ("type", "token") * sweeps:
        make_sampler(name).sweep(rng, state)
    return state


@pytest.mark.parametrize("seed", range(4))
def test_rule_texts_name_the_rules_the_keys_name(seed):
    model = large_model()
    state = moved(model, seed)
    texts = model.rule_counts(state)
    live = state.slot_key >= 0
    assert sorted(texts.values()) == sorted(state.slot_size[live].tolist())
    assert sum(texts.values()) == state.n_rules[0]
    # one text per key: the nodes filed under a key all write one text
    for slot in np.flatnonzero(live):
        item, seen = state.slot_head[slot], set()
        while item >= 0:
            seen.add(model.rule_text(state, int(item)))
            item = state.item_next[item]
        assert len(seen) == 1


def test_the_paper_s_rule_with_an_unaligned_word_is_written_as_hiero_writes_it():
    model = large_model()
    values = model.values(model.new_state(make_rng(0), eta=1.0))
    state = model.state_from_values(values)
    texts = model.rule_counts(state)
    assert "[X,1] [X,2] ||| [X,1] a [X,2]" in texts  # Fig. 1's 有 约会 ||| have a date
    assert "u [X,1] [X,2] ||| [X,1] [X,2] v" in texts  # unaligned words at the edges: the root's
    lines = model.write_rules(state).splitlines()
    assert all(line.startswith("[X] ||| ") and line.count(" ||| ") == 3 for line in lines)
    assert sum(int(line.rsplit(" ||| ", 1)[1]) for line in lines) == state.n_rules[0]


def test_an_analysis_file_reads_back_to_the_same_state(tmp_path):
    model = large_model()
    state = moved(model, 9)
    path = tmp_path / "analysis.txt"
    path.write_text(model.write_analysis(state), encoding="utf-8")
    again = model.read_analysis(path)
    np.testing.assert_array_equal(model.values(again), model.values(state))
    assert model.loglik(again) == pytest.approx(model.loglik(state), abs=1e-9)


@pytest.mark.parametrize("change, message", [
    (lambda lines: lines[:-1], r"has 8 lines; the corpus has 9 pairs"),
    (lambda lines: ["(0-9/0-9)"] + lines[1:], r"line 1: '0-9/0-9' is not a phrase pair"),
    (lambda lines: [lines[0][:-1]] + lines[1:], r"line 1: the brackets do not close"),
])
def test_a_bad_analysis_file_is_refused_naming_its_line(tmp_path, change, message):
    model = large_model()
    lines = model.write_analysis(model.new_state(make_rng(1))).splitlines()
    path = tmp_path / "analysis.txt"
    path.write_text("\n".join(change(lines)) + "\n", encoding="utf-8")
    with pytest.raises(CorpusError, match=message):
        model.read_analysis(path)


def test_run_writes_the_rules_after_every_sweep(tmp_path):
    done = engine("run", "--model", "scfg", "--sampler", "type", "--sweeps", 3, "--seed", 2,
                  "--trace", tmp_path / "t.csv", "--rules", tmp_path / "rules.txt",
                  "--output", tmp_path / "a.txt")
    assert done.returncode == 0, done.stderr
    trace = pd.read_csv(tmp_path / "t.csv")
    sections = (tmp_path / "rules.txt").read_text(encoding="utf-8").split("# sweep ")[1:]
    assert [s.split("\n", 1)[0] for s in sections] == ["1", "2", "3"]
    for section, (rules, kinds) in zip(sections, trace[["rules", "rule_types"]].values[1:]):
        lines = section.strip().split("\n")[1:]
        assert len(lines) == kinds
        assert sum(int(line.rsplit(" ||| ", 1)[1]) for line in lines) == rules
    scored = engine("score", "--model", "scfg", "--analysis", tmp_path / "a.txt")
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["loglik"] == pytest.approx(trace.loglik.iloc[-1], abs=1e-9)


def test_alignments_without_pairs_are_refused_in_words(tmp_path):
    links = tmp_path / "links.txt"
    links.write_text("0-0\n", encoding="utf-8")
    done = engine("run", "--model", "scfg", "--alignments", links, "--sampler", "token",
                  "--sweeps", 1, "--trace", tmp_path / "t.csv")
    assert done.returncode == 2 and "--alignments needs --data" in done.stderr


def test_pairs_without_a_phrase_pair_inside_are_refused_in_words(tmp_path):
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("a ||| x ||| 0-0\nb c ||| y ||| 0-0 1-0\n", encoding="utf-8")
    done = engine("run", "--model", "scfg", "--data", pairs, "--sampler", "token",
                  "--sweeps", 1, "--trace", tmp_path / "t.csv")
    assert done.returncode == 2 and "no rule to choose" in done.stderr


def test_the_model_counts_rules_once_per_occurrence():
    model = registry.get("scfg").build()
    state = model.new_state(make_rng(0))
    assert Counter(model.rule_counts(state)).total() == model.scalars(state)["rules"] == 376
