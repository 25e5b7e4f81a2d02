"""Grids of runs in the background (engine.live.grid_job.GridJob) on a page, kept for the
settings each ran with: its Run and Cancel buttons, its progress and state (running, finished,
cancelled after k of n, failed and why), what it finished drawn as it arrives and kept after a
cancel, and the session's earlier grids a click away — a user who changes a setting and changes
it back finds the earlier results again."""
from dataclasses import dataclass

import streamlit as st

KEEP = 12  # grids a page keeps per session (the oldest ended one goes first)


@dataclass
class Grid:
    """One grid a page started: ``settings`` (hashable) say what it ran with, ``label`` the
    same in words; ``context`` is whatever its drawing needs besides the job."""
    settings: object
    label: str
    job: object
    context: object = None
    number: int = 0  # its place in the session's order of grids: the earlier-grids picker's value
    end_shown: bool = False  # the whole page has been drawn again since it ended


def status(job, noun="runs"):
    """Where ``job`` is, in words: k of n done, and finished, cancelled or failed."""
    done, total = job.done, job.total
    return {"running": f"{done} of {total} {noun} done",
            "finished": f"{total} of {total} {noun} done — finished",
            "cancelled": f"cancelled ({done} of {total} done)",
            "failed": f"failed ({done} of {total} done)"}[job.state]


class GridShelf:
    """The grids one page started in this session (``st.session_state[f"{key}_grids"]``,
    oldest first); its widgets' keys start with ``key`` (``{key}_run``, ``{key}_cancel``,
    ``{key}_earlier``). ``noun`` names a task (runs, chains)."""

    def __init__(self, key, noun="runs"):
        self.key, self.noun = key, noun

    @property
    def grids(self):
        return st.session_state.setdefault(f"{self.key}_grids", [])

    def running(self):
        """The grid running now (a page runs one at a time), or None."""
        return next((g for g in self.grids if g.job.running), None)

    def for_settings(self, settings):
        """The grid to show for ``settings``: the one running, else the one that finished the
        most (the newest of those), else None."""
        mine = [g for g in self.grids if g.settings == settings]
        if not mine:
            return None
        return next((g for g in mine if g.job.running), None) or max(
            reversed(mine), key=lambda g: g.job.done)

    def add(self, settings, label, job, context=None):
        """Keep a grid just started; the oldest ended one goes once KEEP are kept."""
        grids = self.grids
        grids.append(Grid(settings, label, job, context, 1 + max((g.number for g in grids),
                                                                 default=0)))
        ended = [g for g in grids if not g.job.running]
        if len(grids) > KEEP and ended:
            grids.remove(ended[0])

    def run_button(self, where, text, settings, ready=True, **button):
        """A Run button in ``where``: True when pressed. Off while a grid runs, and once a grid
        of these settings has finished (its results are shown)."""
        done = self.for_settings(settings)
        finished = done is not None and done.job.state == "finished"
        return where.button(text, key=f"{self.key}_run",
                            disabled=self.running() is not None or finished or not ready,
                            help="these settings' grid has finished: its results are below"
                            if finished else None, **button)

    def cancel_button(self, where, text="Cancel"):
        """A Cancel button in ``where`` while a grid runs: it stops that grid, whose finished
        runs stay."""
        grid = self.running()
        if grid is not None and where.button(text, icon=":material/cancel:",
                                             key=f"{self.key}_cancel"):
            grid.job.cancel()
            st.rerun()

    def show(self, settings, draw):
        """The grid of ``settings`` (its progress, then ``draw(grid, slot)`` of what it
        finished), a grid running with other settings, and a picker of the earlier ones."""
        current = self.for_settings(settings)
        if current is not None:
            self._show(current, draw, "current")
        running = self.running()
        if running is not None and running is not current:
            st.caption(f"Running with other settings: {running.label}")
            self._show(running, draw, "running")
        earlier = {g.number: g for g in reversed(self.grids)
                   if g is not current and g is not running}
        if earlier:
            picked = st.selectbox(
                "Earlier grids of this session", list(earlier), index=None,
                key=f"{self.key}_earlier", placeholder="Show an earlier grid's results…",
                format_func=lambda n: f"{earlier[n].label} — {status(earlier[n].job, self.noun)}")
            if picked in earlier:
                self._show(earlier[picked], draw, "earlier")

    def _show(self, grid, draw, slot):
        @st.fragment(run_every=1.0 if grid.job.running else None)
        def live():
            job = grid.job
            st.progress(job.done / job.total, text=status(job, self.noun))
            if job.error:
                st.error(f"The grid failed after {job.done} of {job.total} {self.noun}: "
                         f"{job.error}")
            draw(grid, slot)
            if not job.running and not grid.end_shown:
                grid.end_shown = True  # the whole page once more: Run comes back
                st.rerun()

        live()
