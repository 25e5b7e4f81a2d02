"""Play / pause / step / reset for a Race kept in st.session_state, with keyboard shortcuts and
a clock that says what a race compares.

While playing, a fragment re-runs on a timer; each tick advances the race and redraws only the
live part of the page. A tick's sweeps stop after TICK_SECONDS of wall time whatever the speed,
so Pause answers within a tick and a class of sessions on one server shares the cores.
"""
import contextlib
import threading
import time
import uuid
from dataclasses import dataclass

import streamlit as st

from ui.export import traces_button, while_playing
from ui.settings import Setting

SPEEDS = (1, 2, 5, 10, 20, 50)  # passes per second, each sampler (equal passes)
INTERVAL = 0.5                  # seconds between ticks while playing
TICK_SECONDS = 0.2              # wall time one tick's sweeps may take, all chains together
CLOCKS = {"passes": "Equal passes", "time": "Equal engine time"}
CLOCK_HELP = ("**Equal passes**: every sampler advances the same number of passes per tick "
              "(a slow sampler holds the others back), and the run lasts the passes set in the "
              "sidebar. **Equal engine time**: every sampler gets the same milliseconds of "
              "engine time per tick, so a fast sampler does more passes (Liang et al.'s Fig. 5 "
              "compares samplers so), and the run lasts the engine seconds set in the sidebar: "
              "every line ends at the same engine time. Engine time is the processor time of the "
              "sweeps themselves, so what else the machine does meanwhile is charged to no "
              "sampler; but it is the machine's: every sampler is tuned to run near its own "
              "limit, yet their ratios move with the machine's memory (on the Brent corpus a "
              "TYPE pass of word segmentation took 2.7–5 TOKEN passes on the two machines of "
              "docs/benchmarks.md). A new clock starts the chains again.")
KEYS_HINT = "Keys: **Space** play / pause · **→** one {step} · **0** reset"

# the engine time every playing session together may use, as a share of the machine's wall
# time: a class of sessions on one server then leaves room for new pages and Step clicks
SERVER_SHARE = 0.5
ACTIVE_SECONDS = 2.0  # a session that ticked this recently counts as playing


class Players:
    """The sessions of this server process playing now, so each tick's budget shrinks as more
    of a class presses Play (shared by all sessions through st.cache_resource)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._last_tick = {}

    def tick_budget(self, session):
        """Seconds of sweeping this session may do in its tick."""
        now = time.monotonic()
        with self._lock:
            self._last_tick[session] = now
            for other, at in list(self._last_tick.items()):
                if now - at > ACTIVE_SECONDS:
                    del self._last_tick[other]
            playing = len(self._last_tick)
        return min(TICK_SECONDS, SERVER_SHARE * INTERVAL / playing)


@st.cache_resource
def players():
    return Players()


SETTINGS = (
    Setting("speed", 5, int, "the speed", choices=SPEEDS),
    Setting("clock", "passes", str, "the clock", choices=tuple(CLOCKS), words=CLOCKS.get),
)


def _set_playing(playing_key, playing, race=None):
    # A callback, not a rerun after the click: Pause then costs one run of the page, not two.
    # It sets, never toggles: Streamlit may run a click's callback in a tick's run and again
    # in a later run of the page (seen with 1.67), and a toggle then undid the Pause.
    st.session_state[playing_key] = playing
    if not playing and hasattr(race, "pause"):
        race.pause()  # chains in worker processes: stop them level before the page draws them


@dataclass(frozen=True)
class Wording:
    """What one step is called on a page (a race's pass, a restaurant's customer), and whether
    it offers the clock (a race of samplers does; one restaurant has nothing to compare)."""

    step: str = "pass"
    step_help: str = "one pass of every chain"
    speed: str = "Speed: passes per second, each sampler"
    finished: str = ("The run has reached its {total:,} passes: raise **Passes per run** to go "
                     "on, or **Reset** to watch it again.")
    finished_time: str = ("Every chain has had its {seconds:g} s of engine time: raise the "
                          "**engine seconds** in the sidebar to go on, or **Reset** to watch "
                          "it again.")
    clock: bool = True


RACE = Wording()


def controls(key, on_reset, wording=RACE):
    """The buttons, the clock and the speed (keys ``{key}_speed``, ``{key}_clock``, restored
    with the page's settings); ``on_reset`` rebuilds the race (or whatever the page plays:
    an object with ``sweep(steps)``, ``tick(clock, steps, budget)``, ``finished`` and
    ``total_sweeps``; ``total_seconds``, a length in engine seconds, and ``pause()``, called
    on Pause, where it has them)."""
    playing_key = f"{key}_playing"
    race = st.session_state.get(f"{key}_race")
    playing = st.session_state.get(playing_key, False)
    done = race is None or race.finished
    # one row that wraps: on a phone the buttons stay side by side, the clock and the speed
    # go below them (columns cut their labels on narrow screens)
    row = st.container(horizontal=True, vertical_alignment="bottom", gap="small")
    # Play and Pause are two buttons (keys {key}_play, {key}_pause), not one relabelled: when
    # Streamlit 1.67 ran a Pause click's callback in a tick's run, it ran it again after the
    # page had redrawn the button as Play — with Play's arguments, and the race went on
    label, icon = ("Pause", ":material/pause:") if playing else ("Play", ":material/play_arrow:")
    row.button(label, key=f"{key}_{label.lower()}", shortcut="Space", icon=icon,
               disabled=done and not playing, type="primary",
               on_click=_set_playing, args=(playing_key, not playing, race))
    if row.button("Step", key=f"{key}_step", icon=":material/skip_next:", shortcut="Right",
                  disabled=done or playing, help=wording.step_help):
        race.sweep(1)
    if row.button("Reset", key=f"{key}_reset", icon=":material/replay:", shortcut="0",
                  help="the same settings and seed, from pass 0"):
        st.session_state[playing_key] = False
        on_reset()
    race = st.session_state.get(f"{key}_race")
    if hasattr(race, "trace_frame"):  # a race of samplers (a restaurant has no traces)
        traces_button(row, race, key)
    clock = None
    if wording.clock:
        clock = row.segmented_control("Clock", list(CLOCKS), format_func=CLOCKS.get,
                                      key=f"{key}_clock", help=CLOCK_HELP, width="content")
    row.select_slider(wording.speed, SPEEDS, key=f"{key}_speed",
                      disabled=clock == "time", width=260,
                      help="a ceiling: a tick never sweeps for more than "
                           f"{TICK_SECONDS * 1000:.0f} ms, so slow samplers may go slower; "
                           "with equal engine time every tick uses all of it")
    race = st.session_state.get(f"{key}_race")
    if race is not None and race.finished:
        seconds = getattr(race, "total_seconds", None)
        st.caption(wording.finished.format(total=race.total_sweeps) if seconds is None
                   else wording.finished_time.format(seconds=seconds))
    # the key: phones hide it
    st.container(key=f"{key}_keys_hint").caption(KEYS_HINT.format(step=wording.step))


def live(key, draw, advances=True):
    """Run ``draw(race)`` now and, while playing, on every tick, after advancing the race
    (``advances=False``: a later part of the page that only redraws, so that widgets outside
    the tick can stand between the two)."""
    playing_key = f"{key}_playing"
    interval = INTERVAL if st.session_state.get(playing_key) else None

    @st.fragment(run_every=interval)
    def tick():
        started = time.perf_counter()
        race = st.session_state[f"{key}_race"]
        playing = st.session_state.get(playing_key)
        if interval and not playing:
            # Pause was pressed and Streamlit folded the click into this tick's run: run the
            # whole page, so the timer stops and Play comes back
            st.rerun()
        if advances and playing:
            if race.finished:
                st.session_state[playing_key] = False
                st.rerun()  # the whole page, so the Play button comes back
            session = st.session_state.setdefault("playback_session", uuid.uuid4().hex)
            budget = players().tick_budget(session)
            race.tick(st.session_state[f"{key}_clock"] or "passes",
                      max(1, round(st.session_state[f"{key}_speed"] * INTERVAL)), budget)
        with while_playing() if playing else contextlib.nullcontext():
            draw(race)
        # what the last tick cost the server, its redraw-only parts included (a page may show
        # it): the advancing part starts the count, the others add to it
        cost = time.perf_counter() - started
        if not advances:
            cost += st.session_state.get(f"{key}_tick_seconds", 0.0)
        st.session_state[f"{key}_tick_seconds"] = cost

    tick()
