"""Play / pause / step / reset and a speed control for a Race kept in st.session_state.

While playing, a fragment re-runs on a timer; each tick advances the race by a budget of engine
time and redraws only the live part of the page.
"""
import streamlit as st

SPEEDS = [1, 2, 5, 10, 20, 50]  # passes per second
TICK_ENGINE_SECONDS = 0.12      # engine time per tick, shared by the race's chains


def _tick_interval(speed):
    return 1.0 if speed < 2 else 0.5


def controls(key, on_reset):
    """Draw the buttons; return the speed in passes per second. ``on_reset`` rebuilds the race."""
    playing_key = f"{key}_playing"
    race = st.session_state.get(f"{key}_race")
    playing = st.session_state.get(playing_key, False)
    done = race is None or race.finished
    cols = st.columns([1, 1, 1, 3])
    if cols[0].button("Pause" if playing else "Play", key=f"{key}_play",
                      icon=":material/pause:" if playing else ":material/play_arrow:",
                      disabled=done and not playing, width="stretch"):
        st.session_state[playing_key] = not playing
        st.rerun()
    if cols[1].button("Step", key=f"{key}_step", icon=":material/skip_next:", disabled=done or playing,
                      help="one pass of every chain", width="stretch"):
        race.sweep(1)
    if cols[2].button("Reset", key=f"{key}_reset", icon=":material/replay:", width="stretch"):
        st.session_state[playing_key] = False
        on_reset()
    return cols[3].select_slider("Speed (passes per second)", SPEEDS, value=5, key=f"{key}_speed")


def live(key, speed, draw):
    """Run ``draw(race)`` now and, while playing, on every tick after advancing the race."""
    playing_key = f"{key}_playing"
    interval = _tick_interval(speed) if st.session_state.get(playing_key) else None

    @st.fragment(run_every=interval)
    def tick():
        race = st.session_state[f"{key}_race"]
        if st.session_state.get(playing_key):
            if race.finished:
                st.session_state[playing_key] = False
                st.rerun()  # the whole page, so the Play button comes back
            passes = max(1, round(speed * _tick_interval(speed)))
            race.run_for(TICK_ENGINE_SECONDS / len(race.runs), passes)
        draw(race)

    tick()
