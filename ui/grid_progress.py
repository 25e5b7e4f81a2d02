"""A grid of runs in the background (engine.live.grid_job.GridJob, a rows job) on a page: its
progress bar, its rows redrawn as they arrive, and the whole page once more when it ends, so
the page's Run button comes back."""
import streamlit as st


def rows_progress(job, shown_key, draw):
    """Show ``job``'s progress and ``draw(rows)`` of the runs finished so far, every second
    while it runs; ``shown_key`` remembers in the session that its end has been shown."""
    @st.fragment(run_every=1.0 if job.running else None)
    def show():
        st.progress(job.done / job.total, text=f"{job.done} of {job.total} runs done"
                    + ("" if job.running else " — finished" if job.error is None else ""))
        if job.error:
            st.error(f"The grid stopped: {job.error}")
        rows = job.rows()
        if rows is not None:
            draw(rows)
        if not job.running and st.session_state.get(shown_key) is not job:
            st.session_state[shown_key] = job  # the whole page once more: Run comes back
            st.rerun()

    show()
