"""Pieces shared by the lessons' pages: colours, playback controls, charts. Streamlit-side only;
the engine never imports this package."""
