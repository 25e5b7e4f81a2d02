"""Which cluster the pages' grids run on is the server's choice, never a visitor's: a Dask client
unpickles what a scheduler sends back. No page has a box for a scheduler's address, each grid
says where it runs, and pressing every grid button — with every text box and the page's address
given a visitor's scheduler — reaches Dask's Client with the server's setting only
(engine.grid.server_scheduler) or a local cluster."""
import pickle
import subprocess
from pathlib import Path
from types import SimpleNamespace

import distributed
import pytest

from engine import grid
from engine.live import grid_job

VISITOR = "tcp://visitor.example:8786"
SERVER = "tcp://server.example:8786"
# each page with a grid: its address, its settings, the grid's button
GRIDS = [("pages/sampler_race.py", dict(model="toy", passes=10, chains=2), "race_sweep_run"),
         ("pages/hmm_estimators.py", dict(samplers="em"), "gj_grid_run"),
         ("pages/particle_filter.py", dict(particles=5), "pf_t1_run")]


class Reached(Exception):
    """Dask's Client was called: the test has what it was given."""


class LocalCluster:
    """Stands for Dask's local cluster: nothing starts."""

    def __init__(self, *args, **settings):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.fixture
def jobs(monkeypatch):
    """The folders of the grid jobs the pages start; their processes never start."""
    started = []

    def process(command, **settings):
        started.append(Path(command[-1]))
        return SimpleNamespace(stdout=[], stderr=[], poll=lambda: None, returncode=None)

    monkeypatch.setattr(grid_job, "subprocess", SimpleNamespace(Popen=process,
                                                                PIPE=subprocess.PIPE))
    return started


def client_arguments(folder, monkeypatch):
    """What Dask's Client is given when the grid job in ``folder`` opens its cluster, as the
    job's process does (engine.live.grid_job.main)."""
    given = []

    def client(address, *args, **settings):
        given.append(address)
        raise Reached

    monkeypatch.setattr(distributed, "Client", client)
    monkeypatch.setattr(distributed, "LocalCluster", LocalCluster)
    monkeypatch.setattr(grid, "knock", lambda scheduler: None)  # no scheduler at SERVER
    job = pickle.loads((folder / "job.pickle").read_bytes())
    with pytest.raises(Reached), grid.client_for(job["workers"], job.get("scheduler")):
        pass
    return given


@pytest.mark.parametrize("server", [None, SERVER], ids=["local", "server's cluster"])
def test_no_page_widget_reaches_the_dask_client(open_page, jobs, monkeypatch, server):
    if server:
        monkeypatch.setenv(grid.SCHEDULER_VARIABLE, server)
    else:
        monkeypatch.delenv(grid.SCHEDULER_VARIABLE, raising=False)
    for path, settings, button in GRIDS:
        at = open_page(path, scheduler=VISITOR, **settings)
        assert "`scheduler` is not a setting of this page" in " ".join(
            w.value for w in at.warning)
        for box in at.text_input:
            box.set_value(VISITOR).run()
        at.button(key=button).click().run()
        assert not at.exception, path
        where = " ".join(c.value for c in at.caption)
        assert (f"`{server}` (set by the server)" if server else "this machine's") in where
    assert len(jobs) == len(GRIDS)
    for folder in jobs:
        given = client_arguments(folder, monkeypatch)
        if server:
            assert given == [server]
        else:
            assert len(given) == 1 and isinstance(given[0], LocalCluster)
