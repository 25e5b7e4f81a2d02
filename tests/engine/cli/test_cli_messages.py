"""The command line's messages say what was wrong, about the right file, once: a file it reads
is "cannot read" (never "cannot write output"), undecodable bytes name the file and the line,
the pairs' errors name their file once, pairs with links given --alignments are told to leave
it out, an open range says so ("above 0 and below 1"), and a model whose particles take no
rejuvenation is told to leave --rejuvenate out."""
import errno

import pytest

from datasets import kinds
from engine.cli import chains
from engine.models import registry
from tests.command import engine
from tests.root import ROOT

NOT_UTF8 = b"ab\x80cd\n"


def score(model, analysis):
    return engine("score", "--model", model, "--analysis", analysis)


@pytest.mark.parametrize("model", ["toy", "scfg", "ptsg"])
def test_a_missing_analysis_cannot_be_read(tmp_path, model):
    missing = tmp_path / "missing.txt"
    done = score(model, missing)
    assert done.returncode == 2
    assert f"error: cannot read {missing}: there is no such file" in done.stderr, done.stderr
    assert "write" not in done.stderr


@pytest.mark.parametrize("model", ["toy", "scfg", "ptsg"])
def test_an_analysis_not_in_utf8_is_named_by_file_and_line(tmp_path, model):
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(NOT_UTF8)
    done = score(model, garbage)
    assert done.returncode == 2
    assert f"error: {garbage}: line 1: the file is not UTF-8 text (byte 0x80)" in done.stderr, \
        done.stderr


def run_scfg(tmp_path, *args):
    return engine("run", "--model", "scfg", *args, "--sampler", "token", "--sweeps", 1,
                  "--trace", tmp_path / "t.csv")


def test_the_pairs_errors_name_their_file_once(tmp_path):
    pairs = tmp_path / "aligned.txt"
    pairs.write_text("a b ||| x y ||| 0-0\nno separator here\n")
    done = run_scfg(tmp_path, "--data", pairs)
    assert done.returncode == 2 and f"error: {pairs}: line 2: a pair must read" in done.stderr
    assert done.stderr.count(str(pairs)) == 1, done.stderr
    links = tmp_path / "links.txt"
    links.write_text("0-0\n0-9\n")
    pairs.write_text("a b ||| x y\nb a ||| y x\n")
    done = run_scfg(tmp_path, "--data", pairs, "--alignments", links)
    assert done.returncode == 2 and f"error: {links}: line 2: link 0-9 points" in done.stderr
    assert done.stderr.count(str(links)) == 1 and str(pairs) not in done.stderr, done.stderr


def test_alignments_for_pairs_with_links_are_to_be_left_out(tmp_path):
    pairs, links = tmp_path / "pairs.txt", tmp_path / "links.txt"
    pairs.write_text("a b ||| x y ||| 0-0 1-1\n")
    links.write_text("0-0 1-1\n")
    done = run_scfg(tmp_path, "--data", pairs, "--alignments", links)
    assert done.returncode == 2
    assert f"{pairs}: line 1: these pairs carry their links (a third field): leave out the " \
           "alignments file" in done.stderr, done.stderr
    assert "'|||'" not in done.stderr


@pytest.mark.parametrize("value", ["0", "1", "1.5"])
def test_an_open_range_says_its_ends_are_excluded(tmp_path, value):
    done = engine("run", "--model", "usm", "--p-boundary", value, "--sampler", "token",
                  "--sweeps", 1, "--trace", tmp_path / "t.csv")
    assert done.returncode == 2
    assert f"--p-boundary: must be above 0 and below 1, got {value}" in done.stderr, done.stderr


def test_an_option_of_a_model_checks_its_open_ends():
    option = next(o for o in registry.get("bigram").options if o.name == "p_utterance")
    assert option.check(1e-12) == 1e-12  # near 0 but above it: taken
    with pytest.raises(ValueError, match=r"--p-utterance must be above 0 and below 1 \(got 1\)"):
        option.check(1.0)


def raising(error):
    def command(args):
        raise error
    return command


@pytest.mark.parametrize("flag, verb", [("--analysis", "read"), ("--trace", "write")])
def test_a_file_the_command_fails_on_is_named_as_read_or_written(tmp_path, monkeypatch, flag,
                                                                 verb):
    """An OSError no reader turned into a corpus's error: about an input, "cannot read"; about
    an output, "cannot write"."""
    path = tmp_path / "file.txt"
    error = OSError(errno.EIO, "Input/output error", str(path))
    monkeypatch.setattr(chains, "score", raising(error))
    monkeypatch.setattr(chains, "run_chain", raising(error))
    if flag == "--analysis":
        done = engine("score", "--model", "toy", "--analysis", path)
    else:
        done = engine("run", "--model", "toy", "--sampler", "token", "--sweeps", 1,
                      "--trace", path)
    assert done.returncode == 2
    assert done.stderr.strip() == f"python -m engine: error: cannot {verb} {path}: " \
                                  "Input/output error", done.stderr


def test_forest_refuses_pairs_without_links_as_the_scfg_does(tmp_path):
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("a b ||| x y\n")
    links = tmp_path / "links.txt"
    links.write_text("\n")
    forest = engine("forest", "--data", pairs, "--alignments", links, "--out", tmp_path / "f.csv")
    scfg = run_scfg(tmp_path, "--data", pairs, "--alignments", links)
    assert forest.returncode == scfg.returncode == 2, forest.stdout
    said = "error: no pair has a phrase pair inside it: there is no rule to choose (do the " \
           "pairs have links?)"
    assert said in forest.stderr and said in scfg.stderr, (forest.stderr, scfg.stderr)
    assert not (tmp_path / "f.csv").exists()


BUILTIN = ROOT / "datasets" / "builtin"
KIND_FILES = {"segmentation": BUILTIN / "nursery.txt", "tagging": BUILTIN / "tagged.txt",
              "trees": BUILTIN / "trees.txt", "aligned": BUILTIN / "aligned.txt"}
CORPUS_MODELS = [name for name, cls in registry.models().items() if cls.needs_data]


@pytest.mark.parametrize("kind", sorted(KIND_FILES))
def test_each_kinds_file_is_recognised_as_its_kind_alone(kind):
    text = KIND_FILES[kind].read_text(encoding="utf-8")
    assert [name for name, k in kinds.kinds().items() if k.recognise(text)] == [kind]


@pytest.mark.parametrize("model, kind", [(m, k) for m in CORPUS_MODELS for k in sorted(KIND_FILES)
                                         if registry.get(m).display != k])
def test_a_corpus_of_another_kind_is_said_to_be_so(tmp_path, model, kind):
    """Read (a warning) or refused, the message says what the file looks like and which models
    read that; ``score`` then fails on its missing analysis, before any kernel runs."""
    path, other, reading = KIND_FILES[kind], kinds.get(kind), kinds.get(registry.get(model).display)
    done = engine("score", "--model", model, "--data", path, "--analysis", tmp_path / "none")
    readers = " or ".join(n for n, cls in registry.models().items() if cls.display == kind)
    said = f"{path} looks like {other.looks} (--model {readers} reads those), not {reading.label}"
    assert done.returncode == 2 and said in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
