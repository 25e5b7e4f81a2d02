"""A page's models: a setting and a widget for each of a model's ``Option``s (so a widget takes
exactly the values the model and the command line take), and a model built on a corpus, cached
for the server's sessions."""
import math
from dataclasses import dataclass

import streamlit as st

from engine.models import registry
from ui.settings import Setting


def page_options(model_class, group="options"):
    """The options of ``group`` a page sets (``options``, the model's, or ``particle_options``,
    its particle filter's), without those saying how to read a file: the page's corpus picker
    reads it."""
    return tuple(option for option in getattr(model_class, group) if not option.reads)


def option_setting(option, name):
    """The page setting of an option: its default, kind, range or choices."""
    low, high = option.widget_range()
    low = -math.inf if low is None else low
    high = math.inf if high is None else high
    return Setting(name, option.default, option.kind, option.help, low, high,
                   option.choices or ())


def option_widget(option, key):
    """The widget of an option under ``key`` (its value in st.session_state): a selectbox of
    its choices, a checkbox for a switch, else a number input over its range; the option's help
    is its label. Returns the value."""
    if option.choices:
        st.selectbox(option.help, option.choices, key=key)
    elif option.kind is bool:
        st.checkbox(option.help, key=key)
    else:
        st.number_input(option.help, *(_bound(option, end) for end in option.widget_range()),
                        key=key, format="%g" if option.kind is float else "%d",
                        placeholder="automatic" if option.default is None else None)
    return st.session_state[key]


def _bound(option, value):
    """A range's end in the option's kind (a number input takes bounds of its value's type)."""
    return None if value is None else option.kind(value)


@dataclass(frozen=True)
class ModelOptions:
    """The option widgets of the models a page offers. With several models each setting is
    named ``{model}_{option}`` (their defaults differ); with one, by the option alone.
    ``group``: which of the models' options (``page_options``)."""

    models: tuple
    group: str = "options"

    def name(self, model_class, option):
        return f"{model_class.name}_{option.name}" if len(self.models) > 1 else option.name

    def settings(self):
        """Every model's option settings, for the page's PageSettings."""
        return tuple(option_setting(option, self.name(cls, option)) for cls in self.models
                     for option in page_options(cls, self.group))

    def widgets(self, page_settings, model_class):
        """The widgets of ``model_class``'s options; their values as (option name, value)
        pairs in the options' order (hashable: a cache key)."""
        return tuple((option.name, option_widget(option, page_settings.key(
                          self.name(model_class, option))))
                     for option in page_options(model_class, self.group))


@st.cache_resource(max_entries=16, show_spinner="Preparing the corpus…")
def build_model(model_name, corpus, options):
    """The registered model ``model_name`` of ``corpus`` with ``options`` ((name, value) pairs);
    ``corpus`` None: a model that reads no corpus, made from its options alone. Shared by every
    session: pages only read it."""
    model_class = registry.get(model_name)
    if corpus is None:
        return model_class.build(None, **dict(options))
    return model_class.from_corpus(corpus, **dict(options))


def show_formulas(model, title="The model and its equations"):
    """The model's equations with its numbers (its ``formulas()``: markdown and LaTeX parts),
    in an expander; nothing for a model without any."""
    parts = model.formulas()
    if not parts:
        return
    with st.expander(title, icon=":material/function:"):
        for kind, text in parts:
            if kind == "latex":
                st.latex(text)
            else:
                st.markdown(text)
