"""A lesson's prose, kept as Markdown beside its page (formulas as KaTeX, ``$$ … $$``): read
with the current numbers put in, and shown a block an element, as the pages drew it when the
prose was in their code."""
import re

import streamlit as st


def read(path, **values):
    """The Markdown file at ``path`` with each ``{{name}}`` replaced by ``values[name]`` (the
    current numbers of a lesson's equations; KaTeX's own braces are left alone)."""
    return re.sub(r"\{\{(\w+)\}\}", lambda m: str(values[m.group(1)]),
                  path.read_text(encoding="utf-8"))


def show(markdown):
    """Prose on the page, an element for each block between two blank lines (one blank line
    parts paragraphs, as in any Markdown): a display formula (``$$ … $$``) as st.latex,
    anything else as Markdown."""
    for block in markdown.strip().split("\n\n\n"):
        if block.startswith("$$") and block.endswith("$$"):
            st.latex(block[2:-2].strip())
        else:
            st.markdown(block)
