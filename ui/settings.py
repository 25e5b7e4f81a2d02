"""A page's settings: kept when the user visits another page, written to the address bar so a
view can be shared as a link, and read back from a link.

Each page declares its settings once (``Setting``) and wraps its widgets between
``PageSettings.restore`` and ``PageSettings.save``. Widgets take their value from
``st.session_state`` under the setting's key and pass no default of their own.

Why a copy is kept: Streamlit deletes a widget's value when a run of the app does not draw the
widget, i.e. as soon as the user opens another page; the copy puts it back on return, so the
page's run (keyed by its settings) is found where it was.
"""
import contextlib
import re
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit

import streamlit as st

PRESET = "preset"  # the address parameter naming a preset
ECHO = 40  # characters of a visitor's text a message repeats (a 5,000-digit seed is not)
# this run's "Ignored in the address" notice: (its place at the top of the page, what it says);
# present only while app.py runs the page (``address_notice``)
NOTICE = "_address_notice"
# what Markdown (with GitHub's and Streamlit's additions) would render in a visitor's text:
# emphasis, code, links and images, HTML and <autolinks>, strikethrough, LaTeX, e-mail
# autolinks, a colon opening an icon or a directive (":red[", ":material/") or a URL's
# "http://", and the dot of "www." (CommonMark lets any ASCII punctuation be escaped)
MARKDOWN = re.compile(r"([\\`*_\[\]<>~$@{}]|:(?=[A-Za-z/])|(?<=www)\.)", re.IGNORECASE)
# the links' copy buttons shown at all times, not only while the pointer is over the link
# (Streamlit's code blocks hide theirs until then, where a touch screen never shows it)
SHARE_CSS = """<style>
.st-key-share_links [data-testid="stCode"] div:has(> div > [data-testid="stElementToolbarButton"])
  { opacity: 1 !important; visibility: visible !important; }
</style>"""
# settings of the whole app, not of one page (presenter mode, ui/presenter.py): {name: Setting};
# their values live in st.session_state under their names, and every page's address keeps them
APP_SETTINGS = {}


def slug(label):
    """A preset's name in the address: "TOKEN stuck at m = n" → "token-stuck-at-m-n"."""
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")


def plain(text):
    """A visitor's ``text`` (an address value, a file name, a line of an upload) as Markdown
    that shows it as typed: one line, what Markdown would render escaped (MARKDOWN), so no
    link, emphasis, HTML or icon of a visitor's is rendered in a message."""
    return MARKDOWN.sub(r"\\\1", " ".join(str(text).split()))


def short(text):
    """``text`` cut to its first ECHO characters (and "…")."""
    text = str(text)
    return text if len(text) <= ECHO else text[:ECHO] + "…"


def echo(text):
    """A visitor's ``text`` repeated in a message: shortened (``short``), as code, so shown
    as typed (a code span renders no Markdown; its fence is longer than any run of backticks
    in the text)."""
    text = short(" ".join(str(text).split()))
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    pad = " " if text[:1] == "`" or text[-1:] == "`" else ""  # else the fence would grow
    return f"{fence}{pad}{text}{pad}{fence}"


@dataclass
class _Notice:
    """This run's notice: its place, what it says, and whether app.py opened it."""

    place: object
    said: list = field(default_factory=list)
    by_app: bool = False


@contextlib.contextmanager
def address_notice():
    """app.py runs the page inside this: every address value ignored during the run
    (``ignore``) is said in one notice at the top of the page."""
    st.session_state[NOTICE] = _Notice(st.empty(), by_app=True)
    try:
        yield
    finally:
        st.session_state.pop(NOTICE, None)


def page_notice():
    """Called first in every page's run (ui.page.prologue): a page Streamlit runs without
    app.py (its old mode, ui.entry; AppTest's page runs) opens this run's notice itself."""
    notice = st.session_state.get(NOTICE)
    if notice is None or not notice.by_app:
        st.session_state[NOTICE] = _Notice(st.empty())


def ignore(why):
    """Say in this run's notice that an address value was ignored, and ``why`` (Markdown whose
    visitor text went through ``echo``)."""
    notice = st.session_state.get(NOTICE)
    if notice is None:  # a run that opened none (a page not through prologue): a notice here
        notice = st.session_state[NOTICE] = _Notice(st.empty())
    notice.said.append(why)
    notice.place.warning("Ignored in the address: " + "; ".join(notice.said) + ". The page "
                         "runs without them (those settings keep their defaults).",
                         icon=":material/link_off:")


def refuse(name, text, why):
    """``ignore`` the address's ``name=text`` because of ``why``."""
    ignore(f"{echo(f'{name}={text}')}: {why}")


def asked_page(url, base=""):
    """The page an address asks for: its path after the app's own (``base``, Streamlit's
    server.baseUrlPath); "" for the app's root."""
    path, base = urlsplit(url).path.strip("/"), base.strip("/")
    if base and (path == base or path.startswith(base + "/")):
        path = path[len(base):].strip("/")
    return path


def check_page(page):
    """Say so when the address asks for a page the app does not have: Streamlit then opens
    the default ``page`` (Home) without a word."""
    url = st.context.url
    if url is None or page.url_path:
        return
    asked = asked_page(url, st.get_option("server.baseUrlPath"))
    if asked:
        ignore(f"there is no page {echo(asked)}: this is {page.title}, and the lessons are "
               "in the menu")


def app_address():
    """The address parameters of the app's settings (APP_SETTINGS) that are not at their
    defaults, for every page's address and links."""
    return {name: setting.text(st.session_state[name]) for name, setting in APP_SETTINGS.items()
            if st.session_state.get(name, setting.default) != setting.default}


@dataclass(frozen=True)
class Setting:
    """One setting: its name in the address, its default and what values it accepts.

    kind is int, float, bool, str or tuple (several of ``choices``, comma-separated in the
    address). ``what`` names it in messages ("the seed"); ``words``, when given, says one of
    its values as the page's widget shows it ("usm" → "Unigram (Goldwater)").
    """

    name: str
    default: object
    kind: type
    what: str
    low: float = None
    high: float = None
    choices: tuple = field(default=())
    words: object = None

    def parse(self, text):
        """The value written as ``text`` in the address; ValueError says what is wrong."""
        if self.kind is tuple:
            picked = tuple(c for c in text.split(",") if c)
            unknown = [c for c in picked if c not in self.choices]
            if unknown or not picked:
                raise ValueError(f"{self.what} must be among {', '.join(self.choices)}")
            return picked
        if self.kind is bool:
            if text not in ("0", "1"):
                raise ValueError(f"{self.what} must be 0 or 1")
            return text == "1"
        if self.kind is str:
            if self.choices and text not in self.choices:
                raise self._out_of_range()
            return text
        try:
            value = self.kind(text)
        except ValueError:
            if text.strip().lstrip("+-").isdigit():  # more digits than Python converts
                raise self._out_of_range() from None
            noun = "a whole number" if self.kind is int else "a number"
            raise ValueError(f"{self.what} must be {noun}") from None
        fits = value in self.choices if self.choices else self.low <= value <= self.high
        if not fits:  # NaN too: it compares false
            raise self._out_of_range()
        return value

    def _out_of_range(self):
        if self.choices:
            return ValueError(f"{self.what} must be one of {', '.join(map(str, self.choices))}")
        return ValueError(f"{self.what} must be between {self.low:,} and {self.high:,}")

    def say(self, value):
        """``value`` in the widget's words (each of a tuple's, joined with commas)."""
        say = self.words or str
        return ", ".join(map(say, value)) if self.kind is tuple else say(value)

    def text(self, value):
        """How ``value`` is written in the address."""
        if self.kind is tuple:
            return ",".join(value)
        if self.kind is bool:
            return "1" if value else "0"
        return str(value)


ANEW = "anew"  # {prefix}_anew: a preset was chosen, the page starts its run anew


def start_anew(prefix, config):
    """Whether the page keyed ``prefix`` starts a new run with ``config``: it differs from the
    settings the page last started ({prefix}_config), or a preset was chosen since."""
    state = st.session_state
    return state.pop(f"{prefix}_{ANEW}", False) or config != state.get(f"{prefix}_config")


class PageSettings:
    """The settings of one page (``prefix`` keys its session state: ``{prefix}_{name}``).

    presets: {label: {setting name: value}}; each is also a link (``?preset=<label>``).
    agree: values → {name: why} of the settings whose values do not fit with the others' (the
    toy's initial m above n); a link's such value is refused like a bad one.
    """

    def __init__(self, prefix, settings, presets=None, agree=None):
        self.prefix = prefix
        self.settings = {s.name: s for s in settings}
        self.presets = presets or {}
        self.agree = agree or (lambda values: {})

    def key(self, name):
        return f"{self.prefix}_{name}"

    @property
    def _saved(self):
        return f"_{self.prefix}_saved"

    def restore(self):
        """Call before drawing the widgets: on return to the page the values it had; on a
        session's first visit the address's (a preset or single settings), else the defaults.
        A bad or unknown parameter gets a notice and its default, never an error."""
        state = st.session_state
        saved = state.get(self._saved)
        if saved is not None:
            for name, value in saved.items():
                # assigned in every run, not only when missing: a widget the last run did not
                # draw (another model's option) is drawn anew, and Streamlit sends the browser
                # its value only when it was set in this run — else the browser shows the
                # widget's default (a number input's minimum) and sends that back
                key = self.key(name)
                state[key] = state[key] if key in state else value
        else:
            values = {s.name: s.default for s in self.settings.values()}
            values.update(self._from_address())
            for name, value in values.items():
                state.setdefault(self.key(name), value)
        self._name_preset()

    def _name_preset(self):
        """The Preset box names the preset the settings are (chosen, a link's, or a link's
        settings that equal one's) until a setting differs from it: then it is cleared, so
        it never names a view not shown."""
        key, values = self.key("preset"), self.values()
        chosen = st.session_state.get(key)
        if chosen is not None and (chosen not in self.presets or not self._is(chosen, values)):
            st.session_state[key] = chosen = None
        if chosen is None and self.linked():
            st.session_state[key] = next(
                (label for label in self.presets if self._is(label, values)), None)

    def _is(self, label, values):
        """Whether ``values`` are the preset's (its own and the defaults of the others)."""
        return all(values[name] == value for name, value in self.preset_values(label).items()
                   if name in values)

    def _from_address(self):
        """The settings the address gives (a preset's, then single ones). A value that is
        bad, unknown, or does not fit with the others (``agree``) is said in the notice
        (``ignore``) and left out; the names taken are kept (``linked``)."""
        found = {}
        params = st.query_params.to_dict()
        preset = params.pop(PRESET, None)
        for name in APP_SETTINGS:  # not this page's: read where they are kept
            params.pop(name, None)
        if preset is not None:
            named = {slug(label): label for label in self.presets}
            if preset in named:
                found.update(self.presets[named[preset]])
                st.session_state.setdefault(self.key("preset"), named[preset])
            else:
                ignore(f"no preset is called {echo(preset)}")
        for name, text in params.items():
            setting = self.settings.get(name)
            if setting is None:
                ignore(f"{echo(name)} is not a setting of this page")
                continue
            try:
                found[name] = setting.parse(text)
            except ValueError as err:
                refuse(name, text, err)
        defaults = {name: setting.default for name, setting in self.settings.items()}
        for name, why in self.agree({**defaults, **found}).items():
            if name in found and name in params:  # a preset's values always agree
                refuse(name, params[name], why)
                del found[name]
        st.session_state[self._linked] = set(found)
        return found

    @property
    def _linked(self):
        return f"_{self.prefix}_linked"

    def linked(self):
        """The names of the settings this session took from the address (none before
        ``restore``, nor after a refusal by ``fit``)."""
        return st.session_state.get(self._linked, set())

    def fit(self, name, value, why):
        """Set ``name`` to ``value``, a value the page's data has (a view's fall-back: a tree
        the corpus has, a sampler the race runs), when it is not; said in the address's
        notice (with ``why``) when the address gave the value that did not fit."""
        key = self.key(name)
        if st.session_state[key] == value:
            return
        if name in self.linked():
            refuse(name, self.settings[name].text(st.session_state[key]), why)
            self.linked().discard(name)
        st.session_state[key] = value

    def values(self):
        """{name: current value} (a multiselect's list as a tuple, as settings hold it)."""
        values = {name: st.session_state[self.key(name)] for name in self.settings}
        return {name: tuple(v) if isinstance(v, list) else v for name, v in values.items()}

    def apply(self, values):
        """Set widgets to ``values`` (a preset): call from a widget's on_change callback."""
        for name, value in values.items():
            st.session_state[self.key(name)] = value

    def preset_values(self, label):
        """Every setting's value under the preset: its own, and the defaults of those it does
        not name."""
        defaults = {name: setting.default for name, setting in self.settings.items()}
        return {**defaults, **self.presets[label]}

    def apply_preset(self, label):
        """Every setting the preset does not name back to its default, then the preset's: a
        preset gives the same view whatever was chosen before it."""
        self.apply(self.preset_values(label))

    def save(self):
        """Call after the widgets: keep their values for a return visit and write the ones
        that differ from the defaults into the address."""
        values = self.values()
        st.session_state[self._saved] = values
        st.query_params.from_dict({**self.address(values), **app_address()})

    def address(self, values):
        """The address parameters of ``values``: those that differ from their defaults and
        that a link could give back (a value out of its range, which the page refuses to
        run, is not written: the link would only open on a warning)."""
        return {name: text for name, value in values.items()
                if value != self.settings[name].default
                and (text := self._readable(self.settings[name], value)) is not None}

    @staticmethod
    def _readable(setting, value):
        """``value`` as the address writes it, or None when reading it back fails."""
        text = setting.text(value)
        try:
            setting.parse(text)
        except ValueError:
            return None
        return text

    def link(self, values=None):
        """The address of this view (or of ``values``) as a full link when the browser told
        Streamlit its address, else as the part after the page's address."""
        query = urlencode({**self.address(self.values() if values is None else values),
                           **app_address()})
        base = st.context.url or ""
        return f"{base}?{query}" if query else (base or "?")

    def preset_link(self, label):
        base = st.context.url or ""
        return f"{base}?{urlencode({PRESET: slug(label), **app_address()})}"

    def preset_picker(self):
        """A selectbox of the presets (in the sidebar); choosing one sets its widgets."""
        if not self.presets:
            return
        st.selectbox("Preset", list(self.presets), index=None, key=self.key("preset"),
                     placeholder="Choose a lesson preset…",
                     on_change=lambda: self._choose_preset(),
                     help="each preset sets the widgets below to show one claim of the papers")

    def _choose_preset(self):
        label = st.session_state.get(self.key("preset"))
        if label in self.presets:
            self.apply_preset(label)
            # a preset chosen is a request to watch it from the start, also when the settings
            # already were its own (set by hand, or a finished run of it)
            st.session_state[self.key(ANEW)] = True

    def share(self, note=None):
        """A 'Share this view' panel: the link (with a copy button) and every preset's link."""
        with st.popover("Share this view", icon=":material/link:"), \
                st.container(key="share_links"):
            st.html(SHARE_CSS)
            st.caption("Copy this link (the button at its right): it opens this page with "
                       "these settings in any browser." + (f" {note}" if note else ""))
            st.code(self.link(), language=None, wrap_lines=True)
            if self.presets:
                st.caption("Each preset as a link:")
                for label in self.presets:
                    st.markdown(f"**{label}**")
                    st.code(self.preset_link(label), language=None, wrap_lines=True)
