"""Bad command-line input, table-driven: files missing, folders, empty, binary, truncated or of
the wrong kind for each model that reads a corpus, and bad values. Each gets exit status 2, one
line on stderr that names what was wrong, no traceback, and is quick (every case fails before
any kernel runs)."""
import time

import pytest

from engine.models import registry
from tests.command import engine
from tests.root import ROOT

BUILTIN = ROOT / "datasets" / "builtin"
CORPUS_MODELS = [name for name, cls in registry.models().items() if cls.needs_data]
FILES = {  # name → content written into the test's folder
    "empty.txt": b"",
    "binary.bin": b"\x00\x01ab\xff\xfe\n",
    "cut.ptb": b"(ROOT (S (NP (DT the) (NN dog))\n",
    "cut.conllu": b"1\tthe\t_\n",
    "cut-pair.txt": b"a b ||| x y ||| 0-0\nc d |||\n",
    "two-pairs.txt": b"a b ||| x y\nc d ||| z w\n",
    "one-link.txt": b"0-0\n",
    "far-link.txt": b"0-0\n0-7\n",
    "toy-cut.txt": b"ab\na b\n",
    "counts.txt": b"dog 3\ncat x\n",
}
KIND_FILES = {"segmentation": BUILTIN / "nursery.txt", "tagging": BUILTIN / "tagged.txt",
              "trees": BUILTIN / "trees.txt", "aligned": BUILTIN / "aligned.txt"}
RUN = ("--sampler", "token", "--sweeps", "1", "--trace", "{tmp}/t.csv")


def run(model, *args):
    return ("run", "--model", model, *args, *RUN)


CASES = [
    # every corpus model: a missing file, a folder, an empty file, a binary one
    *[(run(m, "--data", "{tmp}/nosuch.txt"), "cannot read {tmp}/nosuch.txt: there is no such "
                                             "file") for m in CORPUS_MODELS],
    *[(run(m, "--data", "{tmp}"), "cannot read {tmp}: Is a directory") for m in CORPUS_MODELS],
    *[(run(m, "--data", "{tmp}/binary.bin"), "{tmp}/binary.bin: line 1: the file is not UTF-8 "
                                             "text (byte 0xff)") for m in CORPUS_MODELS],
    (run("usm", "--data", "{tmp}/empty.txt"), "{tmp}/empty.txt: the file has no utterances"),
    (run("bigram", "--data", "{tmp}/empty.txt"), "{tmp}/empty.txt: the file has no utterances"),
    (run("hmm", "--data", "{tmp}/empty.txt"), "{tmp}/empty.txt: cannot tell the corpus's format"),
    (run("ptsg", "--data", "{tmp}/empty.txt"), "{tmp}/empty.txt: the file has no trees"),
    (run("scfg", "--data", "{tmp}/empty.txt"), "{tmp}/empty.txt: no sentence pairs"),
    # the wrong kind of corpus for each model that refuses it (the segmentation models read
    # any text: they warn, tests/engine/cli/test_cli_messages.py)
    *[(run(m, "--data", KIND_FILES[k]), f"{KIND_FILES[k]} looks like ")
      for m in CORPUS_MODELS for k in KIND_FILES
      if k != registry.get(m).display and registry.get(m).display in ("tagging", "trees",
                                                                       "aligned")],
    # truncated files
    (run("ptsg", "--data", "{tmp}/cut.ptb"), "{tmp}/cut.ptb: line 1: "),
    (run("hmm", "--data", "{tmp}/cut.conllu", "--format", "conllu"),
     "{tmp}/cut.conllu: line 1: a token line with 3 fields"),
    (run("scfg", "--data", "{tmp}/cut-pair.txt"),
     "{tmp}/cut-pair.txt: line 2: the target sentence is empty"),
    (run("scfg", "--data", "{tmp}/two-pairs.txt", "--alignments", "{tmp}/one-link.txt"),
     "{tmp}/one-link.txt: the alignments have 1 lines and the pairs 2"),
    (run("scfg", "--data", "{tmp}/two-pairs.txt", "--alignments", "{tmp}/far-link.txt"),
     "{tmp}/far-link.txt: line 2: link 0-7 points to target word 7"),
    (("score", "--model", "toy", "--n", "3", "--analysis", "{tmp}/toy-cut.txt"),
     "{tmp}/toy-cut.txt has 2 lines; this toy has 3 copies"),
    (("score", "--model", "toy", "--analysis", "{tmp}"), "cannot read {tmp}: Is a directory"),
    (("tables", "--alpha", "1", "--counts", "{tmp}/counts.txt"), "line 2"),
    (("forest", "--data", "{tmp}/binary.bin", "--out", "{tmp}/f.csv"),
     "{tmp}/binary.bin: line 1: the file is not UTF-8 text"),
    (("forest", "--data", "{tmp}/two-pairs.txt", "--out", "{tmp}/f.csv"),
     "no pair has a phrase pair inside it"),
    # bad values
    (run("usm", "--p-boundary", "0"), "--p-boundary: must be above 0 and below 1, got 0"),
    (run("bigram", "--p-utterance", "1"), "--p-utterance: must be above 0 and below 1, got 1"),
    (run("usm", "--alpha", "0"), "--alpha: must be between 1e-09 and 1,000,000,000, got 0"),
    (run("usm", "--alpha", "many"), "--alpha: expected a number, got 'many'"),
    (run("toy", "--eta", "-0.5"), "--eta: must be between 0 and 1, got -0.5"),
    (("run", "--model", "toy", "--sampler", "token", "--sweeps", "-1", "--trace", "{tmp}/t.csv"),
     "--sweeps/--iters: must be between 0 and 1,000,000, got -1"),
    (run("toy", "--seed", "x"), "--seed: expected a whole number, got 'x'"),
    (run("nosuch"), "argument --model: invalid choice: 'nosuch'"),
    (("run", "--model", "toy", "--sampler", "gibbs", "--sweeps", "1", "--trace", "{tmp}/t.csv"),
     "argument --sampler: invalid choice: 'gibbs'"),
    (run("toy", "--data", "{tmp}/empty.txt"), "the toy model reads no corpus: leave out --data"),
    (run("hmm", "--format", "csv"), "--format must be one of auto, conllu"),
    (run("scfg", "--discount", "1"), "--discount: must be between 0 and 0.99, got 1"),
    (run("scfg", "--alignments", "{tmp}/one-link.txt"), "--alignments needs --data"),
    (("toy-posterior", "--n", "0", "--out", "{tmp}/p.csv"), "--n: must be between 1 and"),
    (("tables", "--alpha", "0", "--counts", "{tmp}/counts.txt"), "--alpha: must be a finite "
                                                                  "number above 0"),
]


@pytest.fixture
def folder(tmp_path):
    for name, content in FILES.items():
        (tmp_path / name).write_bytes(content)
    return tmp_path


@pytest.mark.parametrize("args, says", CASES, ids=[" ".join(map(str, a))[-60:] for a, _ in CASES])
def test_bad_input_gets_one_line_and_status_2(folder, args, says):
    started = time.perf_counter()
    done = engine(*(arg.format(tmp=folder) if isinstance(arg, str) else arg for arg in args))
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert says.format(tmp=folder) in lines[0], lines[0]
    assert time.perf_counter() - started < 10

