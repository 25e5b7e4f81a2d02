"""Each kernel is compiled once per machine (engine.live.compile_lock): a command that needs a
compile job another process of the lab is compiling says so, waits for it, and loads what the
other compiled; the compile log (engine.core.compile_log) shows no kernel compiled twice.

Planted bugs it was seen to catch: run_job without its lock (the run compiled TOKEN's kernels
beside the holder: each twice in the log, and no "waiting" line)."""
import os
import subprocess
import sys
from collections import Counter

from engine.live.compiler import jobs_for
from engine.models import registry

# holds a job's lock (as "the test"), says so, and compiles the job once the test says go
HOLDER = """
import sys
from engine.live import compile_lock
from engine.live.compiler import Job, _compile
compile_lock.name_holder("the test")
job = Job.from_key(sys.argv[1])
with compile_lock.holding(job.key):
    print("held", flush=True)
    sys.stdin.readline()
    _compile(job)
"""


def lines_until(stream, text):
    """The lines of ``stream`` up to the first holding ``text`` (all of them if none does)."""
    seen = []
    for line in stream:
        seen.append(line)
        if text in line:
            break
    return seen


def test_a_run_waits_for_the_kernels_another_process_compiles_and_compiles_none_twice(
        tmp_path):
    log = tmp_path / "compiles.log"
    env = {**os.environ, "TYPEBLOCKS_CACHE_ROOT": str(tmp_path / "cache"),
           "TYPEBLOCKS_COMPILE_LOG": str(log)}
    token = next(job for job in jobs_for(registry.get("toy"), ["token"]) if job.samplers)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, token.key], env=env, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert holder.stdout.readline().strip() == "held"
    run = subprocess.Popen([sys.executable, "-m", "engine", "run", "--model", "toy",
                            "--sampler", "token", "--sweeps", "2",
                            "--trace", str(tmp_path / "trace.csv")],
                           env=env, text=True, stderr=subprocess.PIPE)
    try:
        said = lines_until(run.stderr, "waiting for")
        assert f"waiting for {token.kernels()} that the test is compiling: " \
               "1 of 2 ready" in said[-1], said
        holder.communicate("go\n", timeout=600)
        assert holder.returncode == 0
        said += run.stderr.readlines()
        assert run.wait(timeout=600) == 0, said
    finally:
        for process in (holder, run):
            process.kill()
    compiles = [line.split("\t") for line in log.read_text().splitlines()]
    by_process = Counter(pid for pid, *_ in compiles)
    assert by_process.keys() == {str(holder.pid), str(run.pid)}  # each compiled its part
    twice = [kernel for kernel, n in Counter((k, args) for _, _, k, args in compiles).items()
             if n > 1]
    assert not twice, twice
    assert (tmp_path / "trace.csv").read_text().count("\n") == 4  # a header, rows 0, 1, 2
