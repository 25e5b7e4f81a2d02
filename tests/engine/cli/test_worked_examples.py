"""docs/command-line.md's worked examples stay true: each example's commands are run as the
page shows them (on the built-in corpora; on the standard corpora only when they are there), and
every output block, table and number the prose quotes is compared with what they print — all
but engine time (`seconds`), which depends on the machine."""
import json
import math
import re
import shlex
from pathlib import Path

import pandas as pd
import pytest

from datasets.tagged import load_tagged
from tests.command import engine
from tests.corpora import BR_PHONO, EWT_DEV, FOLDER
from tests.root import ROOT

DOC = (ROOT / "docs" / "command-line.md").read_text(encoding="utf-8")
EXAMPLES = DOC[DOC.index("## Worked examples"):DOC.index("## Errors and exit status")]
STANDARD = "corpora/"  # where the examples read the standard corpora from
ENGINE = ".venv/bin/python -m engine "


def sections():
    """{title: text} of the worked examples' ### sections."""
    parts = re.split(r"^### (.+)$", EXAMPLES, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2]))


def blocks(text):
    """The fenced blocks of ``text`` in order: (language, body)."""
    return re.findall(r"^```(\w*)\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)


def command_lines(body):
    """A shell block's commands, continuation lines joined."""
    return [line.strip() for line in body.replace("\\\n", " ").splitlines() if line.strip()]


def run(line, runs):
    """Run one example command in ``runs``' parent (the project's folder, as the page assumes);
    its standard output."""
    line = line.replace("runs/", f"{runs}/").replace(STANDARD, f"{FOLDER}/")
    if line.startswith("mkdir -p "):
        return ""  # the runs fixture made it
    if line.startswith("head -"):
        count, path = shlex.split(line)[1:]
        lines = Path(path).read_text(encoding="utf-8").splitlines(keepends=True)
        return "".join(lines[:int(count[1:])])
    assert line.startswith(ENGINE), f"the test cannot run {line!r}"
    args = [arg if not arg.startswith("datasets/") else str(ROOT / arg)
            for arg in shlex.split(line[len(ENGINE):])]
    done = engine(*args)
    assert done.returncode == 0, (line, done.stderr)
    return done.stdout


def same_value(shown, printed):
    """Two fields equal: numbers to 12 significant digits (another machine's last digits may
    differ), anything else exactly."""
    try:
        return math.isclose(float(shown), float(printed), rel_tol=1e-12, abs_tol=1e-300)
    except ValueError:
        return shown == printed


def assert_same_output(shown, printed):
    """An output block against what the commands printed: JSON lines key by key, CSV lines
    field by field, a `seconds` column (engine time) left out."""
    shown_lines, printed_lines = shown.splitlines(), printed.splitlines()
    assert len(shown_lines) == len(printed_lines), (shown, printed)
    seconds = None
    for want, got in zip(shown_lines, printed_lines):
        if want.startswith("{"):
            want, got = json.loads(want), json.loads(got)
            assert want.keys() == got.keys()
            assert all(same_value(want[k], got[k]) for k in want), (want, got)
            continue
        fields, printed_fields = want.split(","), got.split(",")
        if seconds is None:  # a header
            assert fields == printed_fields
            seconds = fields.index("seconds") if "seconds" in fields else -1
            continue
        assert len(fields) == len(printed_fields)
        assert all(same_value(a, b) for i, (a, b) in enumerate(zip(fields, printed_fields))
                   if i != seconds), (want, got)


def run_section(text, runs):
    """Run a section's shell blocks in order, checking each output block that follows one.
    Returns False (nothing checked) when the section needs a standard corpus that is missing."""
    if STANDARD in text and not all((FOLDER / name).exists() for name in
                                    re.findall(STANDARD + r"([\w.-]+)", text)):
        return False
    found = blocks(text)
    for (language, body), after in zip(found, found[1:] + [("sh", "")]):
        if language != "sh":
            continue
        printed = "".join(run(line, runs) for line in command_lines(body))
        if after[0] == "":
            assert_same_output(after[1], printed)
    return True


def number(text):
    """A number as the prose writes it: "−2,422" → -2422.0."""
    return float(text.replace("−", "-").replace(",", ""))


def quoted(pattern, text):
    """The groups of ``pattern`` in the prose (it must be there)."""
    found = re.search(pattern, text)
    assert found, f"the docs no longer say {pattern!r}"
    return found.groups()


@pytest.fixture
def runs(tmp_path):
    """The examples' runs/ folder: the toy's example makes it, the others assume it."""
    folder = tmp_path / "runs"
    folder.mkdir()
    return folder


def test_the_examples_are_all_checked():
    assert set(sections()) == {"Toy: TOKEN slow to leave m = n, TYPE not",
                               "Word segmentation: TOKEN and TYPE on the built-in corpus",
                               "Part-of-speech induction: the HMM on tagged sentences"}


def test_toy(runs):
    text = sections()["Toy: TOKEN slow to leave m = n, TYPE not"]
    assert run_section(text, runs)
    trace = pd.read_csv(runs / "toy-token.csv")
    m, = quoted(r"TOKEN's m by sweep is ([\d, ]+):", text)
    shown = [int(v) for v in m.split(", ")]
    assert list(trace.m[:len(shown)]) == shown and trace.m[len(shown) - 1] == 0
    loglik, sweep = quoted(r"log-probability (−[\d,]+) at sweep (\d+)", text)
    assert round(trace.loglik[int(sweep)]) == number(loglik)


def brent_or_builtin(text, runs):
    """The segmentation section: its built-in part always, its Brent part when the corpus is
    there (the section is cut where the Brent part starts)."""
    builtin, brent = text.split("On the Brent corpus", 1)
    assert run_section(builtin, runs)
    return brent


def test_word_segmentation(runs):
    text = sections()["Word segmentation: TOKEN and TYPE on the built-in corpus"]
    brent = brent_or_builtin(text, runs)
    traces = {s: pd.read_csv(runs / f"usm-{s}.csv") for s in ("token", "type")}
    rows = re.findall(r"^\| (\d+) \| (\S+) \| (\S+) \| (\S+) \| (\S+) \|$", text, re.MULTILINE)
    assert len(rows) == 3
    for sweep, *cells in rows:
        for (sampler, column), cell in zip([(s, c) for s in ("token", "type")
                                            for c in ("loglik", "token_f")], cells):
            value = traces[sampler].set_index("sweep").loc[int(sweep), column]
            places = 1 if column == "loglik" else 3
            assert round(value, places) == number(cell), (sweep, sampler, column)
    first, second = quoted(r"the final segmentation \(`([^`]+)`, `([^`]+)`", text)
    assert (runs / "usm-type.txt").read_text().splitlines()[:2] == [first, second]
    gold, found = quoted(r"than TYPE's \((−[\d,]+) against (−[\d,]+)\)", text)
    assert number(found) == round(traces["type"].loglik.iloc[-1])
    assert number(gold) < number(found)
    if not BR_PHONO.exists():
        pytest.skip(f"the Brent part needs {BR_PHONO}")
    assert run_section(brent, runs)
    said = quoted(r"TYPE was at log-probability (−[\d,]+) \(token F ([\d.]+)\) and TOKEN at "
                  r"(−[\d,]+) \(token F ([\d.]+)\)", " ".join(brent.split()))
    for sampler, (loglik, f) in zip(("type", "token"), (said[:2], said[2:])):
        last = pd.read_csv(runs / f"br-{sampler}.csv").iloc[-1]
        assert round(last.loglik) == number(loglik) and round(last.token_f, 3) == number(f)


def test_part_of_speech_induction(runs):
    text = sections()["Part-of-speech induction: the HMM on tagged sentences"]
    builtin, ewt = text.split("On UD English-EWT", 1)
    assert run_section(builtin, runs)
    k, = quoted(r"K defaults to the (\d+) gold tags", builtin)
    corpus = load_tagged(ROOT / "datasets" / "builtin" / "tagged.txt", format="auto")
    assert len(corpus.tag_set) == int(k)
    start, = quoted(r"`runs/hmm-type.txt` starts\s+`([^`]+)`", builtin)
    assert (runs / "hmm-type.txt").read_text().splitlines()[0] == start
    last = pd.read_csv(runs / "hmm-type.csv").iloc[-1]
    scored = json.loads(blocks(builtin)[-1][1])  # what score printed (checked above)
    assert scored["loglik"] == pytest.approx(last.loglik, rel=1e-12)  # "the last row"
    if not EWT_DEV.exists():
        pytest.skip(f"the EWT part needs {EWT_DEV}")
    tokens, tags = quoted(r"\(([\d,]+) tokens, (\d+) UPOS tags\)", text)
    xpos, = quoted(r"\((\d+) of them in the dev split", ewt)
    skipped, = quoted(r"note that (\d+) multiword-token", ewt)
    upos, penn = (load_tagged(EWT_DEV, format=f) for f in ("auto", "conllu-xpos"))
    assert (upos.n_tokens, len(upos.tag_set), len(penn.tag_set), upos.skipped) == (
        number(tokens), int(tags), int(xpos), int(skipped))


def documented(text):
    """The trace columns a text names: `name` in backticks, and `prefix_*` patterns."""
    names = set(re.findall(r"`([a-z_]+)`", text)) | {
        name for listed in re.findall(r"`([a-z_,*]+)`", text) for name in listed.split(",")}
    return names


@pytest.mark.parametrize("model, sampler", [
    ("toy", "type"), ("usm", "type"), ("usm", "sentence"), ("bigram", "sentence"),
    ("hmm", "type"), ("hmm", "em")])
def test_every_trace_column_is_documented(tmp_path, model, sampler):
    trace = tmp_path / "t.csv"
    done = engine("run", "--model", model, "--sampler", sampler, "--sweeps", 1, "--trace", trace)
    assert done.returncode == 0, done.stderr
    columns = pd.read_csv(trace).columns
    guide = DOC[DOC.index("## The trace"):DOC.index("## The `--samples` file")]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    readme = readme[readme.index("The trace has"):]
    readme = readme[:readme.index("\n\n")]
    for names in (documented(guide), documented(readme)):
        patterns = [name[:-1] for name in names if name.endswith("*")]
        missing = [c for c in columns if c not in names
                   and not any(c.startswith(p) for p in patterns)]
        assert not missing, missing
