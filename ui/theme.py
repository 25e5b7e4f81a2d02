"""The lab's chart style. A sampler's colour and label come from the sampler registry
(engine.samplers), the same on every page."""
from engine.samplers import colour, label

EXACT_COLOUR = "#3d3d3d"

__all__ = ["EXACT_COLOUR", "colour", "colour_key", "label", "layout"]


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
                      font=dict(size=13))
    if x:
        fig.update_xaxes(title_text=x)
    if y:
        fig.update_yaxes(title_text=y)
    return fig
