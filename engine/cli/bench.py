"""Per-sweep timings of one sampler on one model (``python -m engine bench``, SPEC §10), so
anyone can compare speeds on their own machine."""
import platform
import statistics
import time
from pathlib import Path

from engine.run import Run


def cpu_model():
    """The processor's model name (from /proc/cpuinfo on Linux), else what platform knows."""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text(errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def bench_sweeps(model, sampler, sweeps=30, warmup=10, seed=0, init=None, skip=True):
    """Time ``sweeps`` sweeps of ``sampler`` after ``warmup`` untimed ones (engine time only:
    the trace's scoring is not counted). Returns a dict of milliseconds per sweep."""
    if sweeps < 1:
        raise ValueError("--sweeps must be at least 1 to time anything")
    run = Run(model, sampler, seed, init=init, total_sweeps=warmup + sweeps, skip=skip)
    for _ in range(warmup):
        run.sampler.sweep(run.rng, run.state)
    times = []
    for _ in range(sweeps):
        t0 = time.perf_counter()
        run.sampler.sweep(run.rng, run.state)
        times.append(1e3 * (time.perf_counter() - t0))
    return {"sampler": sampler, "sites": int(model.n_sites), "sweeps": sweeps, "warmup": warmup,
            "median_ms": statistics.median(times), "min_ms": min(times), "max_ms": max(times),
            "cpu": cpu_model()}
