"""What the tests read off a Vega-Lite spec the pages built."""


def title_text(spec):
    """A chart's title as one line of text: a long title is a list of lines (Vega-Lite draws
    them one under another; engine.report.plots.title_lines breaks them for a phone)."""
    text = spec.get("title", {}).get("text", "")
    return " ".join(text) if isinstance(text, list) else text
