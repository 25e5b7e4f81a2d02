"""Where the pages' grids run: the Dask cluster chosen by whoever started the server
(engine.grid.server_scheduler), or a local cluster of this machine's cores — shown to visitors,
never chosen by them. A Dask client unpickles what a scheduler sends back, so a scheduler a
visitor could name would run the visitor's code on the server."""
import os

import streamlit as st

from engine.grid import SCHEDULER_VARIABLE, server_scheduler
from engine.live.grid_job import GridJob


def where_grids_run():
    """A sentence saying where a grid started from a page runs."""
    scheduler = server_scheduler()
    if scheduler:
        return f"The grid runs on the Dask cluster at `{scheduler}` (set by the server)."
    return (f"The grid runs on this machine's {os.cpu_count() or 1} cores (a local Dask "
            "cluster; the server's administrator can choose another cluster).")


def show_where_grids_run():
    st.caption(where_grids_run(), help="whoever starts the server chooses the cluster, with "
                                       f"the environment variable {SCHEDULER_VARIABLE}")


def start_grid(recipe, tasks, rows=False):
    """A GridJob (engine.live.grid_job) of ``tasks`` on the server's cluster."""
    return GridJob(recipe, tasks, scheduler=server_scheduler(), rows=rows)
