"""Issue 28's figures: is every sampler near its own speed limit? (suite ``speed``)

Per-sweep times of the samplers the lab races, each pair taken in turn in one process (their
ratio cancels most of the machine's drift), quiet and with another process streaming through
memory on the other core; the reference program's sweeps when the environment variable
``DPSEG`` names Goldwater's ``segment`` (built from its public sources: docs/benchmarks.md);
and the bigram model's kernels compiled cold.
"""
import os
import re
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager

from benchmarks.common import Row, interleaved_medians, memory_latency_ns
from engine.core.rng import make_rng
from engine.samplers import make_sampler
from tests.corpora import BR_PHONO, EWT_DEV, GUM_CONST, KFTT_GOLD, KFTT_PAIRS

DPSEG_ITERATIONS = (20, 120)  # segment's sweeps are timed as the difference of two runs
# another process on the other core, copying 256 MB arrays back and forth: the memory system
# busy, as on a machine where other jobs run (issue 28: TYPE slows down more than TOKEN there)
STREAM = ("import numpy as np\na = np.ones(1 << 25); b = np.empty_like(a)\n"
          "while True:\n    np.copyto(b, a); np.copyto(a, b)\n")


def sweeps(model, names, eta, repeats=20, warmup=10):
    """Median seconds of a sweep of each sampler in ``names``, each on its own chain from η,
    their sweeps taken in turn."""
    calls = []
    for name in names:
        rng = make_rng(1)
        state, sampler = model.new_state(rng, eta=eta), make_sampler(name)
        calls.append(lambda sampler=sampler, rng=rng, state=state: sampler.sweep(rng, state))
    return dict(zip(names, interleaved_medians(calls, repeats, warmup)))


@contextmanager
def memory_load():
    """Another process streaming through memory while the block runs."""
    process = subprocess.Popen([sys.executable, "-c", STREAM])
    try:
        time.sleep(2.0)  # its arrays allocated and touched
        yield
    finally:
        process.kill()
        process.wait()


def pair_rows(label, model, eta, target, loaded_target, warmup=10):
    """TOKEN and TYPE sweep times and TYPE / TOKEN, quiet and under memory_load, after
    ``warmup`` sweeps (the first sweeps from η do more work than a settled chain's)."""
    latency = memory_latency_ns()
    quiet = sweeps(model, ["token", "type"], eta, warmup=warmup)
    latency = (latency + memory_latency_ns()) / 2
    with memory_load():
        busy = sweeps(model, ["token", "type"], eta, warmup=warmup)
    n = model.n_sites
    how = (f"median of 20 sweeps after {warmup} from η = {eta}, taken in turn; {n:,} sites: "
           f"TOKEN {quiet['token'] * 1e9 / n:.0f} ns, TYPE {quiet['type'] * 1e9 / n:.0f} ns a "
           f"site; a dependent load in 4 MB took {latency:.0f} ns then (memory_latency_ns)")
    return [Row(f"{label}: TOKEN sweep", quiet["token"] * 1e3, None, "ms", how),
            Row(f"{label}: TYPE sweep", quiet["type"] * 1e3, None, "ms", how),
            Row(f"{label}: TYPE / TOKEN, quiet", quiet["type"] / quiet["token"], target, "×",
                how),
            Row(f"{label}: TYPE / TOKEN, memory busy", busy["type"] / busy["token"],
                loaded_target, "×", f"another process copying 256 MB arrays on the other core: "
                f"TOKEN {busy['token'] * 1e3:.3g} ms, TYPE {busy['type'] * 1e3:.3g} ms")]


def dpseg_sweep(arguments):
    """Milliseconds of one sweep of ``$DPSEG arguments`` on br-phono (no annealing, seed 1):
    the difference of runs of 120 and 20 sweeps over 100, the best of three. None without
    DPSEG."""
    program = os.environ.get("DPSEG")
    if not program:
        return None
    best = {}
    for n in DPSEG_ITERATIONS:
        times = []
        for _ in range(3):
            t0 = time.perf_counter()
            subprocess.run([program, *arguments, "-i", str(n), "-T", "1", "-r", "1",
                            str(BR_PHONO)], check=True, capture_output=True)
            times.append(time.perf_counter() - t0)
        best[n] = min(times)
    low, high = DPSEG_ITERATIONS
    return (best[high] - best[low]) / (high - low) * 1e3


def reference_rows(usm_token, bigram_token):
    """Ours against segment's unigram and bigram sweeps (when DPSEG names it)."""
    unigram, bigram = dpseg_sweep([]), dpseg_sweep(["-u", "t"])
    if unigram is None:
        print("DPSEG is not set: the rows against Goldwater's segment are left out",
              file=sys.stderr)
        return []
    how = "segment's sweep: (t(120) − t(20)) / 100 sweeps, -T 1 (no annealing), the best of 3"
    return [Row("segment: unigram sweep", unigram, None, "ms", how),
            Row("USM TOKEN / segment's unigram sweep", usm_token / unigram, 0.12, "×",
                f"{usm_token:.3g} ms / {unigram:.3g} ms"),
            Row("segment -u t: bigram sweep", bigram, None, "ms", how),
            Row("bigram TOKEN / segment's bigram sweep", bigram_token / bigram, 0.1, "×",
                f"{bigram_token:.3g} ms / {bigram:.3g} ms")]


def bigram_compile():
    """Seconds to compile the bigram model's shared and TOKEN kernels with an empty cache."""
    with tempfile.TemporaryDirectory() as cache:
        done = subprocess.run([sys.executable, "-m", "engine", "warm", "--model", "bigram",
                               "--jobs", "1"], capture_output=True, text=True, check=True,
                              env={**os.environ, "NUMBA_CACHE_DIR": cache})
    seconds = {m.group(1): float(m.group(2))
               for m in re.finditer(r"bigram (.+?) ready in ([\d.]+) s", done.stderr)}
    spent = seconds["shared kernels"] + seconds["TOKEN, TOKEN-anneal"]
    return Row("bigram: shared and TOKEN kernels compiled cold", spent, 20.0, "s",
               f"`engine warm --model bigram --jobs 1`, empty cache: shared "
               f"{seconds['shared kernels']:.1f} s + TOKEN {seconds['TOKEN, TOKEN-anneal']:.1f} "
               "s (every bigram sampler: " + f"{sum(seconds.values()):.1f} s)")


def segmentation_rows():
    from datasets.segmented import load_segmented
    from engine.models.bigram.model import BigramModel
    from engine.models.usm.model import UsmModel
    corpus = load_segmented(BR_PHONO)
    usm = pair_rows("USM, br-phono", UsmModel.from_corpus(corpus), 0.5, 3.0, 4.0, 20)
    bigram_model = BigramModel.from_corpus(corpus)
    bigram = sweeps(bigram_model, ["token"], 0.5)["token"] * 1e3
    bigram_row = Row("bigram, br-phono: TOKEN sweep", bigram, 36.0, "ms",
                     f"median of 20 sweeps after 10 from η = 0.5; {bigram_model.n_sites:,} "
                     f"sites, {bigram * 1e6 / bigram_model.n_sites:.0f} ns a site (the issue's "
                     "figure: 0.1 × segment's 365 ms there)")
    return [*usm, bigram_row, bigram_compile(),
            *reference_rows(usm[0].measured, bigram)]


def hmm_rows():
    from benchmarks.estimators import numpy_draw_ms, parameter_draw_ms
    from datasets.tagged import load_tagged
    from engine.models.hmm.model import HmmModel
    corpus = load_tagged(EWT_DEV, format="conllu")
    model = HmmModel.from_corpus(corpus, 17)
    k17 = sweeps(model, ["token", "explicit-token"], 1.0, 30)
    k45 = sweeps(HmmModel.from_corpus(corpus, 45), ["token"], 1.0, 30)
    ours, numpy = parameter_draw_ms(model), numpy_draw_ms(model)
    return [Row("HMM K = 17: explicit pointwise / collapsed TOKEN",
                k17["explicit-token"] / k17["token"], 1.3, "×",
                f"EWT dev, from η = 1, taken in turn: {k17['explicit-token'] * 1e3:.3g} ms / "
                f"{k17['token'] * 1e3:.3g} ms"),
            Row("HMM K = 17: explicit's parameter draw / numpy's", ours / numpy, None, "×",
                f"{ours:.3g} ms / {numpy:.3g} ms: eq. 5's Dirichlet rows from the same counts "
                "(EWT dev from η = 0), ours against Generator.dirichlet row by row"),
            Row("HMM K = 45: TOKEN sweep", k45["token"] * 1e3, 2.5, "ms",
                "EWT dev, median of 30 sweeps after 10 from η = 1")]


def tree_rows():
    from benchmarks.ptsg import treebank
    from datasets.aligned import read_files
    from engine.models.ptsg.model import PtsgModel
    from engine.models.scfg.model import ScfgModel
    return [*pair_rows("PTSG, GUM train", PtsgModel(treebank("train")), 1.0, 3.0, None),
            *pair_rows("forests, KFTT", ScfgModel(read_files(KFTT_PAIRS, KFTT_GOLD)), 1.0, 3.0,
                       None)]


def rows():
    missing = [path for path in (BR_PHONO, EWT_DEV, GUM_CONST, KFTT_PAIRS) if not path.exists()]
    if missing:
        print(f"skipping the speed benchmarks: {missing[0]} is missing", file=sys.stderr)
        return []
    return [*segmentation_rows(), *hmm_rows(), *tree_rows()]
