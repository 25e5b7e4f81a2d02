"""The lab's chart style. A sampler's colour and label come from the sampler registry
(engine.samplers), the same on every page."""
from plotly.colors import qualitative

from engine.samplers import colour, label

EXACT_COLOUR = "#3d3d3d"
# hidden states are categories, not a scale: one distinct colour each (cycling past 48)
STATE_COLOURS = qualitative.Dark24 + qualitative.Light24

__all__ = ["EXACT_COLOUR", "colour", "colour_key", "label", "layout", "state_colour",
           "state_colorscale"]


def state_colour(k):
    """The colour of hidden state k (1 … K), the same in every chart."""
    return STATE_COLOURS[(k - 1) % len(STATE_COLOURS)]


def state_colorscale(n_states):
    """A heatmap colour scale with one flat band per state 1 … n_states (use zmin = 0.5,
    zmax = n_states + 0.5)."""
    scale = []
    for k in range(1, n_states + 1):
        scale += [[(k - 1) / n_states, state_colour(k)], [k / n_states, state_colour(k)]]
    return scale


def colour_key(names):
    """HTML for an inline legend: a coloured square and the paper's name of each sampler."""
    return ", ".join(f"<span style='color:{colour(n)}'>■</span> {label(n)}" for n in names)


def layout(fig, title=None, x=None, y=None, height=340):
    """Apply the lab's chart style in place and return the figure."""
    fig.update_layout(title=title, height=height,
                      margin=dict(l=60, r=20, t=50 if title else 20, b=40),
                      # inside, top right: where these charts' curves and bars leave room
                      legend=dict(yanchor="top", y=0.98, xanchor="right", x=0.99,
                                  bgcolor="rgba(255,255,255,0.8)"),
                      font=dict(size=13),
                      # upright at the right edge: across the top it covered titles on phones
                      modebar=dict(orientation="v"))
    if x:
        fig.update_xaxes(title_text=x)
    if y:
        fig.update_yaxes(title_text=y)
    return fig
