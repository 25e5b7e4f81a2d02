"""Charts every lesson uses: a measure of several chains against passes."""
import plotly.graph_objects as go

from ui.theme import colour, label, layout


def traces_over_passes(frame, column, y_title, title=None, x="sweep", x_title="sweeps (passes)"):
    """One line per sampler of ``column`` against passes from a Race's trace frame."""
    fig = go.Figure()
    for name, rows in frame.groupby("sampler", sort=False):
        fig.add_trace(go.Scatter(x=rows[x], y=rows[column], mode="lines+markers", name=label(name),
                                 line=dict(color=colour(name), width=2.5),
                                 marker=dict(size=5)))
    return layout(fig, title, x_title, y_title)
