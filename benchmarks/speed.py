"""Issue 28's figures: is every sampler near its own speed limit? (suite ``speed``)

Per-sweep times of the samplers the lab races, each TYPE / TOKEN pair taken in turn in one
process (their ratio cancels most of the machine's drift) and in several fresh processes (a
process's placement on the host moved a USM TYPE sweep between 13 and 22 ms here, its TOKEN
sweep hardly at all), quiet and with another process streaming through memory on the other
core; the reference program's sweeps when the environment variable ``DPSEG`` names
Goldwater's ``segment`` (built from its public sources: docs/benchmarks.md); and the bigram
model's kernels compiled cold.

``python -m benchmarks.speed pair NAME`` measures one pair of PAIRS in this process and prints
it as JSON (what pair_rows runs in each fresh process).
"""
import json
import os
import statistics
import re
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager

import numpy as np

from benchmarks.common import Row, interleaved_medians, memory_latency_ns
from engine.core.jit import kernel
from engine.core.rng import make_rng
from engine.kernels import moves
from engine.kernels.interface import add_site
from engine.samplers import make_sampler
from engine.samplers.forest import walks_forests
from tests.corpora import BR_PHONO, EWT_DEV, GUM_CONST, KFTT_GOLD, KFTT_PAIRS

PROCESSES = 5  # fresh processes a TYPE / TOKEN pair is measured in, quiet and memory busy
DPSEG_ITERATIONS = (20, 120)  # segment's sweeps are timed as the difference of two runs
# another process on the other core, copying 256 MB arrays back and forth: the memory system
# busy, as on a machine where other jobs run (issue 28: TYPE slows down more than TOKEN there)
STREAM = ("import numpy as np\na = np.ones(1 << 25); b = np.empty_like(a)\n"
          "while True:\n    np.copyto(b, a); np.copyto(a, b)\n")


def sweeps(model, names, eta, repeats=20, warmup=10):
    """Median seconds of a sweep of each sampler in ``names``, each on its own chain from η,
    their sweeps taken in turn."""
    calls = [sweep_call(model, name, eta) for name in names]
    return dict(zip(names, interleaved_medians(calls, repeats, warmup)))


def sweep_call(model, name, eta):
    """A call that makes one sweep of sampler ``name`` on its own chain from η."""
    rng = make_rng(1)
    state, sampler = model.new_state(rng, eta=eta), make_sampler(name)
    return lambda: sampler.sweep(rng, state)


@kernel
def gather_blocks(state, visited, candidates, block, before):
    """A TYPE sweep without its sampling: each block, pivots in site order and none twice
    (§4.4's skip), found, set aside and put back unchanged (``moves.gather_block``) — what a
    TYPE sweep pays before any weight or draw, a floor under it. The state is left as it was.

    Parameters
    ----------
    state : model state of a binary model (values 0 and 1) whose sweeps visit every site (not
        forests: ``walks_forests``)
    visited : uint8[n_sites]
        Work.
    candidates, block, before : int64[n_sites]
        Work.

    Returns
    -------
    int
        The blocks gathered.
    """
    visited[:] = 0
    blocks = 0
    for s0 in range(visited.shape[0]):
        if visited[s0]:
            continue
        size, _ = moves.gather_block(state, s0, 0, 1, candidates, block, before)
        for j in range(size):
            add_site(state, block[j], before[j])
            visited[block[j]] = 1
        blocks += 1
    return blocks


def gathering_call(model, eta, warmup):
    """A call that makes one ``gather_blocks`` pass on a chain from η settled by ``warmup``
    TYPE sweeps (a settled chain's blocks, as TYPE's own are once warmed up)."""
    rng = make_rng(1)
    state, sampler = model.new_state(rng, eta=eta), make_sampler("type")
    for _ in range(warmup):
        sampler.sweep(rng, state)
    n = model.n_sites
    visited, work = np.zeros(n, np.uint8), np.zeros((3, n), np.int64)
    return lambda: gather_blocks(state, visited, work[0], work[1], work[2])


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


def usm_model():
    from datasets.segmented import load_segmented
    from engine.models.usm.model import UsmModel
    return UsmModel.from_corpus(load_segmented(BR_PHONO))


def ptsg_model():
    from benchmarks.ptsg import treebank
    from engine.models.ptsg.model import PtsgModel
    return PtsgModel(treebank("train"))


def forest_model():
    from datasets.aligned import read_files
    from engine.models.scfg.model import ScfgModel
    return ScfgModel(read_files(KFTT_PAIRS, KFTT_GOLD))


# the TYPE / TOKEN pairs: (row label, model, η, warm-up sweeps, target quiet, target busy)
PAIRS = {"usm": ("USM, br-phono", usm_model, 0.5, 20, 3.0, 4.0),
         "ptsg": ("PTSG, GUM train", ptsg_model, 1.0, 10, 3.0, None),
         "forests": ("forests, KFTT", forest_model, 1.0, 10, 3.0, None)}


def measure_pair(name):
    """One process's figures for PAIRS[name]: seconds of a TOKEN sweep, a TYPE sweep and a
    TYPE sweep's gathering alone (``gather_blocks``), taken in turn, their model's sites, and
    the memory latency around them (ns)."""
    _, build, eta, warmup, _, _ = PAIRS[name]
    model = build()
    latency = memory_latency_ns()
    calls = [sweep_call(model, "token", eta), sweep_call(model, "type", eta)]
    # on forests a sweep's sites are the nodes of the current trees (a walk from their roots),
    # not every site in order: gather_blocks is the floor of the sweeps over every site only
    if not walks_forests(model.new_state(make_rng(1), eta=eta)):
        calls.append(gathering_call(model, eta, warmup))
    seconds = interleaved_medians(calls, 20, warmup)
    return {**dict(zip(("token", "type", "gathering"), seconds)), "sites": model.n_sites,
            "latency": (latency + memory_latency_ns()) / 2}


def in_processes(name):
    """measure_pair(name) in PROCESSES fresh processes, one after another."""
    runs = []
    for _ in range(PROCESSES):
        done = subprocess.run([sys.executable, "-m", "benchmarks.speed", "pair", name],
                              check=True, capture_output=True, text=True)
        runs.append(json.loads(done.stdout))
    return runs


def spread(values, fmt):
    """'median (low – high)' of values, each formatted with fmt."""
    return f"{fmt(statistics.median(values))} ({fmt(min(values))} – {fmt(max(values))})"


def pair_rows(name):
    """TOKEN and TYPE sweep times and TYPE / TOKEN for PAIRS[name], quiet and under
    memory_load: each the median over PROCESSES fresh processes of the process's median of 20
    sweeps (after the warm-up sweeps: the first sweeps from η do more work than a settled
    chain's); the notes give the range over the processes."""
    label, _, eta, warmup, target, loaded_target = PAIRS[name]
    quiet = in_processes(name)
    with memory_load():
        busy = in_processes(name)
    token, type_ = ([run[k] * 1e3 for run in quiet] for k in ("token", "type"))
    ratios = [run["type"] / run["token"] for run in quiet]
    busy_ratios = [run["type"] / run["token"] for run in busy]
    gathering = [run["gathering"] / run["token"] for run in quiet if "gathering" in run]
    n = quiet[0]["sites"]
    ms, times = (lambda x: f"{x:.3g}"), (lambda x: f"{x:.2f} ×")
    how = (f"{PROCESSES} fresh processes, each the median of 20 sweeps after {warmup} from "
           f"η = {eta}, taken in turn: the median (the range); {n:,} sites: TOKEN "
           f"{statistics.median(token) * 1e6 / n:.0f} ns, TYPE "
           f"{statistics.median(type_) * 1e6 / n:.0f} ns a site")
    latency = spread([run["latency"] for run in quiet], lambda x: f"{x:.0f}")
    floor = [Row(f"{label}: TYPE's gathering alone / TOKEN, quiet", statistics.median(gathering),
                 None, "×", f"{spread(gathering, times)}: the blocks of a sweep found, set aside "
                 "and put back unchanged, no weight or draw (gather_blocks, on a chain settled "
                 f"by TYPE): {spread([run['gathering'] * 1e3 for run in quiet], ms)} ms, a "
                 "floor under TYPE / TOKEN while TYPE gathers so")] if gathering else []
    return [Row(f"{label}: TOKEN sweep", statistics.median(token), None, "ms",
                f"{spread(token, ms)} ms; {how}"),
            Row(f"{label}: TYPE sweep", statistics.median(type_), None, "ms",
                f"{spread(type_, ms)} ms; {how}"),
            Row(f"{label}: TYPE / TOKEN, quiet", statistics.median(ratios), target, "×",
                f"{spread(ratios, times)}; a dependent load in 4 MB took {latency} ns "
                "(memory_latency_ns)"),
            *floor,
            Row(f"{label}: TYPE / TOKEN, memory busy", statistics.median(busy_ratios),
                loaded_target, "×", f"{spread(busy_ratios, times)}; another process copying "
                "256 MB arrays on the other core: TOKEN "
                f"{spread([run['token'] * 1e3 for run in busy], ms)} ms, TYPE "
                f"{spread([run['type'] * 1e3 for run in busy], ms)} ms")]


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
    usm = pair_rows("usm")
    bigram_model = BigramModel.from_corpus(load_segmented(BR_PHONO))
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
    return [*pair_rows("ptsg"), *pair_rows("forests")]


def rows():
    missing = [path for path in (BR_PHONO, EWT_DEV, GUM_CONST, KFTT_PAIRS) if not path.exists()]
    if missing:
        print(f"skipping the speed benchmarks: {missing[0]} is missing", file=sys.stderr)
        return []
    return [*segmentation_rows(), *hmm_rows(), *tree_rows()]


if __name__ == "__main__":
    if sys.argv[1:2] != ["pair"] or len(sys.argv) != 3 or sys.argv[2] not in PAIRS:
        sys.exit(f"usage: python -m benchmarks.speed pair {{{','.join(PAIRS)}}}")
    print(json.dumps(measure_pair(sys.argv[2])))
