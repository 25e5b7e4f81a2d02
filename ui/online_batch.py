"""The Particle filter lesson's comparison of reading once with sampling over and over: the
filter (plain, then with TOKEN and with TYPE rejuvenation) against batch TOKEN and TYPE chains
of the same model (engine.experiments.online_vs_batch), log-probability and token F against
engine seconds."""
import streamlit as st

from datasets.errors import CorpusError
from engine.experiments import online_vs_batch
from ui import charts
from ui.filter_run import population_of
from ui.particle_view import versus_chart
from ui.settings import plain


def online_against_batch(config, key, models, picker):
    """The comparison's button and its last result; ``config`` the filter's (None without a
    usable corpus), ``key(name)`` the page's session keys, ``models`` {name: model class},
    ``picker`` the page's corpus picker (ui.kinds)."""
    st.markdown("What reading once costs, and what rejuvenation buys: the filter (as set in "
                f"the sidebar, at most {online_vs_batch.PARTICLES} particles, then with TOKEN "
                "and with TYPE rejuvenation) against batch TOKEN and TYPE chains of the *same* "
                "model — one particle holding the whole corpus from a random segmentation "
                "(η = 0.5), moved over and over. Log-probability and token F against engine "
                "seconds. `python -m engine online-vs-batch` runs the same on any corpus.")
    problem = (corpus_problem(key, picker) if config is None
               else comparison_problem(config, models))
    if problem:
        st.info(problem)
    elif st.button("Run the comparison", icon=":material/compare_arrows:", key=key("compare")):
        with st.spinner("Running filters and batch chains…"):
            st.session_state[key("versus")] = online_vs_batch.compare(
                population_of(config), min(config["particles"], online_vs_batch.PARTICLES),
                config["seed"], threshold=config["threshold"], resampling=config["resampling"])
            st.session_state[key("versus_label")] = comparison_label(config, models)
    result = st.session_state.get(key("versus"))
    if result is None:
        return
    points, lines = result
    st.caption(f"The last comparison: {st.session_state[key('versus_label')]}.")
    for column, title in (("log_prob", "log-probability of the final state"),
                          ("token_f", "token F")):
        charts.show(st, versus_chart(points, lines, column, title), key(f"versus_{column}"))
    st.dataframe(points, hide_index=True, width="stretch", column_config={
        "seconds": st.column_config.NumberColumn("engine seconds", format="%.3f"),
        "log_prob": st.column_config.NumberColumn("log-probability", format="%.1f"),
        "token_f": st.column_config.NumberColumn("token F", format="%.3f")})


def comparison_label(config, models):
    """What a comparison ran with, in words."""
    return (f"{models[config['model']].label} on {config['corpus'].name}, "
            f"{min(config['particles'], online_vs_batch.PARTICLES)} particles, threshold "
            f"{config['threshold']}, {config['resampling']} resampling, seed {config['seed']}")


def corpus_problem(key, picker):
    """Why the sidebar gives no corpus, in words: no file uploaded yet, or what is wrong with
    the uploaded one, and the format expected (the other sources say why in the sidebar)."""
    kind = picker.data
    expected = (f"The comparison needs a corpus. Upload {' or '.join(kind.formats.values())} "
                f"(a .{' or .'.join(kind.suffixes)} file), or choose another corpus in the "
                "sidebar.")
    file = st.session_state.get(key("upload"))
    if st.session_state.get(key("source")) != "upload":
        return "The corpus chosen in the sidebar cannot be used: its message there says why."
    if file is None:
        return f"No file has been uploaded yet. {expected}"
    try:
        kind.read(file.getvalue(), file.name)
    except CorpusError as err:
        return f"{plain(file.name)} cannot be read: {plain(str(err).rstrip('.'))}. {expected}"
    return f"{plain(file.name)} cannot be used: its message in the sidebar says why. {expected}"


def comparison_problem(config, models):
    """Why the comparison cannot run with the sidebar's settings, in words (None: it can)."""
    try:
        moves = population_of(config).rejuvenation_moves
    except ValueError as err:
        return (f"{models[config['model']].label} cannot be built on {config['corpus'].name}: "
                f"{err}.")
    if not moves:
        return (f"{models[config['model']].label}: its particles take no moves, and the batch "
                "chains are made of such moves. Choose a model whose particles take them in "
                "the sidebar.")
    return None
