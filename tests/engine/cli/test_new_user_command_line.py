"""What a new user meets on the command line: help that offers only what a command takes,
outputs that would overwrite each other or the corpus refused, a missing file named once, a
format that cannot be told sent to --format, Table 1 saying when its corpus is not theirs, and
``corpora check`` telling a downloaded standard file from a wrong one."""
import hashlib

import pytest

from datasets import standard
from engine.cli import filter as filters
from tests.command import engine
from tests.corpora import BR_PHONO, FOLDER
from tests.root import ROOT

NURSERY = str(ROOT / "datasets" / "builtin" / "nursery.txt")


def test_run_help_lists_only_samplers_that_run_a_chain():
    done = engine("run", "--help")
    assert done.returncode == 0
    assert "particle" not in done.stdout and "type-token: TYPE + TOKEN" in done.stdout


def test_run_help_for_a_model_lists_its_samplers():
    done = engine("run", "--model", "toy", "--help")
    assert "greedy: TYPE-greedy" in done.stdout
    assert "sentence" not in done.stdout and "em: EM" not in done.stdout


@pytest.mark.parametrize("command", ["filter", "online-vs-batch"])
def test_particle_commands_offer_only_models_with_a_particle_filter(command):
    done = engine(command, "--help")
    assert "--model {usm,unigram,bigram}" in done.stdout, done.stdout
    refused = engine(command, "--model", "hmm", "--particles", 3, "--trace", "t.csv")
    assert refused.returncode == 2 and "invalid choice: 'hmm'" in refused.stderr


@pytest.mark.parametrize("second, says", [
    ("--output", "--trace and --output both name"),
    ("--samples", "--trace and --samples both name"),
])
def test_two_outputs_on_one_file_are_refused(tmp_path, second, says):
    done = engine("run", "--model", "toy", "--sampler", "type", "--sweeps", 1,
                  "--trace", tmp_path / "x.csv", second, tmp_path / "." / "x.csv")
    assert done.returncode == 2 and says in done.stderr, done.stderr
    assert "give each its own file" in done.stderr
    assert not list(tmp_path.iterdir())


def test_an_output_on_the_corpus_is_refused(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("a b\nc d\n")
    done = engine("run", "--model", "usm", "--data", corpus, "--sampler", "type", "--sweeps", 1,
                  "--trace", tmp_path / "t.csv", "--output", corpus)
    assert done.returncode == 2 and "would overwrite the corpus" in done.stderr, done.stderr
    assert corpus.read_text() == "a b\nc d\n" and not (tmp_path / "t.csv").exists()


@pytest.mark.parametrize("command", [
    ["run", "--model", "usm", "--sampler", "type", "--sweeps", "1", "--trace", "{tmp}/t.csv"],
    ["gj-grid", "--iters", "2"],
    ["table1"],
])
def test_a_missing_file_is_named_once(tmp_path, command):
    missing = tmp_path / "none.txt"
    done = engine(*[a.replace("{tmp}", str(tmp_path)) for a in command], "--data", missing)
    assert done.returncode == 2
    assert done.stderr.count(str(missing)) == 1 and "there is no such file" in done.stderr


def test_a_format_that_cannot_be_told_names_format(tmp_path):
    corpus = tmp_path / "odd.txt"
    corpus.write_text("a b c\nd e\n")
    done = engine("run", "--model", "hmm", "--data", corpus, "--sampler", "type",
                  "--sweeps", 1, "--trace", tmp_path / "t.csv")
    assert done.returncode == 2
    assert "--format conllu, conllu-xpos, wordtag or wordtag-lines" in done.stderr


def test_table1_on_the_builtin_corpus_says_the_corpora_differ():
    # tests/engine/experiments/test_table1.py checks that the command prints this note above the table
    note = filters.corpus_note(None)
    assert "built-in corpus" in note and "not comparable" in note and "--data br-phono" in note


def test_table1_says_whether_a_file_is_theirs(tmp_path):
    other = tmp_path / "br-phono.txt"
    other.write_text("a b\n")
    assert "is not that file as published" in filters.corpus_note(str(other))
    if not BR_PHONO.exists():
        pytest.skip(f"{BR_PHONO} is missing")
    assert "the same corpus" in filters.corpus_note(str(BR_PHONO))


@pytest.fixture
def published(tmp_path, monkeypatch):
    """A checksum list in which br-phono.txt is a small file written here."""
    published = tmp_path / "published" / "br-phono.txt"
    published.parent.mkdir()
    published.write_text("a b\nc d\n")
    digest = hashlib.sha256(published.read_bytes()).hexdigest()
    listing = tmp_path / "sums.sha256"
    listing.write_text(f"{digest}  br-phono.txt\n{'0' * 64}  en_ewt-ud-dev.conllu\n")
    monkeypatch.setattr(standard, "CHECKSUMS", listing)
    return published


def test_corpora_check_names_the_corpus_of_a_matching_file(published, tmp_path):
    renamed = tmp_path / "downloaded.txt"
    renamed.write_bytes(published.read_bytes())
    done = engine("corpora", "check", published, renamed)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and all("matches br-phono.txt of Brent corpus" in line
                                   for line in lines)


def test_corpora_check_refuses_a_changed_file_saying_where_to_get_it(published, tmp_path):
    changed = tmp_path / "br-phono.txt"
    changed.write_text("a b\nc e\n")
    done = engine("corpora", "check", published, changed)
    assert done.returncode == 1
    assert "matches br-phono.txt" in done.stdout
    assert "named like br-phono.txt of Brent corpus (br-phono), but its content differs" \
        in done.stderr
    assert "download it again from https://github.com/kamperh/dpdp_aernn" in done.stderr


def test_corpora_check_says_when_a_file_is_no_standard_one(published, tmp_path):
    done = engine("corpora", "check", NURSERY, tmp_path / "none.txt")
    assert done.returncode == 1
    assert "not one of the standard corpora's files" in done.stderr
    assert "there is no such file" in done.stderr and "Traceback" not in done.stderr


def test_every_standard_file_belongs_to_a_listed_corpus():
    files = standard.checksums()
    assert {standard.corpus_of(name).name for name in files} == {
        corpus.name for corpus in standard.CORPORA}
    assert all(len(digest) == 64 for digest in files.values())


def test_the_standard_files_here_match_their_checksums():
    present = [name for name in standard.checksums() if (FOLDER / name).exists()]
    if not present:
        pytest.skip(f"no standard corpus in {FOLDER}")
    for name in present:
        assert standard.check(FOLDER / name).matches, name


def test_corpora_list_gives_every_source_and_licence():
    done = engine("corpora", "list")
    assert done.returncode == 0
    for corpus in standard.CORPORA:
        assert corpus.source in done.stdout and corpus.licence in done.stdout


def test_the_readme_gives_every_corpus_its_source_and_the_listed_checksums():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    known = standard.checksums()
    rows = [line for line in readme.splitlines() if line.startswith("  | `")]
    for row in rows:
        name, digest = row.split("`")[1], row.rstrip(" |").rsplit("|", 1)[1].strip(" `")
        if len(digest) == 64:
            assert known[name] == digest, name
    assert {row.split("`")[1] for row in rows} >= {name for name in known if "/" not in name
                                                   or name.startswith("kftt-jaen/")}
    assert all(corpus.source in readme for corpus in standard.CORPORA)
    for unknown in ("../shared", "shared/data", "SPEC", "DESIGN"):
        assert unknown not in readme
