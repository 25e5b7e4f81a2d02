"""Settings shared through the address bar (st.query_params), read once per session.

A bad value in the address never stops the page: it is ignored with a warning saying what was
wrong, and the default is used instead.
"""
import streamlit as st


def read_int(name, default, low, high, what):
    """The query parameter ``name`` as an integer in [low, high], else ``default`` + a warning."""
    text = st.query_params.get(name)
    if text is None:
        return default
    try:
        value = int(text)
    except ValueError:
        st.warning(f"Ignored `{name}={text}` in the address: {what} must be a whole number. "
                   f"Using {default:,}.")
        return default
    if not low <= value <= high:
        st.warning(f"Ignored `{name}={text}` in the address: {what} must be between {low:,} and "
                   f"{high:,}. Using {default:,}.")
        return default
    return value


def read_choices(name, default, choices, what):
    """The comma-separated query parameter ``name`` as a list of known choices."""
    text = st.query_params.get(name)
    if text is None:
        return default
    picked = [c for c in text.split(",") if c]
    unknown = [c for c in picked if c not in choices]
    if unknown or not picked:
        st.warning(f"Ignored `{name}={text}` in the address: {what} must be among "
                   f"{', '.join(choices)}. Using {', '.join(default)}.")
        return default
    return picked
