"""The Sampler race's verdicts: each sampler's chains diagnosed as they grow (R̂ and ESS,
engine.diagnostics), as a line per sampler and a table per column, with what their "—"s mean."""
import numpy as np
import pandas as pd
import streamlit as st

from engine.diagnostics import RHAT_LIMIT, GrowingChains, rhat_text
from ui.theme import label

REDIAGNOSE = 0.01    # R̂ and ESS are computed again once the chains have grown by 1%
DIAGNOSTICS_COLUMNS = ("chains × draws", "R̂", "bulk ESS", "tail ESS", "ESS/s")
TOO_SHORT = ("too few passes yet for R̂ (it needs 4 draws per chain after the warm-up half: "
             "7 passes)")


def by_sampler(race):
    """{sampler: [trace frames of its chains]} of the chains that have reported."""
    found = {}
    for task, frame in race.chain_frames():
        found.setdefault(task.sampler, []).append(frame)
    return found


def growing(race, key):
    """The diagnoses of ``race``'s chains, kept in the session (``key("diagnoses")``) while it
    is the session's race."""
    held = st.session_state.get(key("diagnoses"))
    if held is None or held[0] != race.id:
        held = st.session_state[key("diagnoses")] = (race.id, GrowingChains(REDIAGNOSE))
    return held[1]


def verdict_line(diagnoses, name, chains):
    """The sampler's verdict on its log-probability, and whether its chains are still
    annealing (then they are not sampling the posterior yet, whatever R̂ says)."""
    found = diagnoses.diagnosis(name, chains, "loglik")
    if found is None:
        return f":gray[:material/hourglass_empty:] **{label(name)}** — {TOO_SHORT}"
    mark = (":green[:material/check_circle:]" if found.mixed
            else ":orange[:material/warning:]")
    line = f"{mark} **{label(name)}** — {found.verdict()}"
    hottest = max(chain["temperature"].iloc[-1] for chain in chains)
    if hottest > 1:
        line += (f"; still annealing (T = {hottest:.2f}): these chains are not sampling the "
                 "posterior yet")
    return line


def shown_ess(rhat, ess, decimals=0):
    """An ESS (or ESS/s) as the tables show it: "—" unless R̂ says the chains have mixed.
    Chains that have not mixed are not draws of one distribution, so their ESS counts
    nothing: a stuck sampler whose chains barely move can show the largest ESS/s."""
    if not rhat < RHAT_LIMIT or np.isnan(ess):
        return "—"
    return f"{ess:,.{decimals}f}"


def diagnostics_notes(rhats, too_short=False):
    """What a "—" in a diagnostics table means, for the R̂ values it shows."""
    rhats = np.asarray(rhats, dtype=float)
    notes = []
    if too_short:
        notes.append(f"A row of — has {TOO_SHORT}.")
    if np.isnan(rhats).any():
        notes.append("R̂ — : every draw of every chain is the same value (the chains agree "
                     "exactly, or none has moved), so there is no spread to compare.")
    if (rhats >= RHAT_LIMIT).any() or np.isnan(rhats).any():
        notes.append(f"ESS — : R̂ is not below {RHAT_LIMIT}, so those chains have not mixed. "
                     "Their draws do not come from one distribution, and an effective sample "
                     "size counts nothing comparable between samplers: a stuck sampler whose "
                     "chains barely move can show the largest ESS/s.")
    return " ".join(notes)


def diagnostics_tables(diagnoses, chains_of, columns):
    """{title: table} for each of ``columns`` ({column: title}): R̂, bulk and tail ESS and ESS
    per second of that column, a row per sampler, as text; and the notes on their "—"s.
    A table per column keeps each narrow enough for a phone."""
    tables, rhats, too_short = {}, [], False
    for column, title in columns.items():
        rows = []
        for name, chains in chains_of.items():
            row = {"sampler": label(name)}
            found = diagnoses.diagnosis(name, chains, column)
            if found is None:
                too_short = True
                row.update(dict.fromkeys(DIAGNOSTICS_COLUMNS, "—"))
            else:
                rhats.append(found.rhat)
                row.update(zip(DIAGNOSTICS_COLUMNS, (
                    f"{found.chains} × {found.draws:,}", rhat_text(found.rhat),
                    shown_ess(found.rhat, found.ess_bulk), shown_ess(found.rhat, found.ess_tail),
                    shown_ess(found.rhat, found.ess_per_second, 1))))
            rows.append(row)
        tables[title] = pd.DataFrame(rows).set_index("sampler")
    return tables, diagnostics_notes(rhats, too_short)
