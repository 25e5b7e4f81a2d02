"""Typeblocks engine: models, samplers and the Run that drives them. Never imports streamlit."""
