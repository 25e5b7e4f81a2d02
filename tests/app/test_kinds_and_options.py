"""Pages draw every registered model through its kind of data and its options: Type blocks lists
every model that offers TYPE (the toy's copies too), a model of a kind no page draws is refused
in words, and each model's widgets take exactly its Options' ranges — a link outside them gets
the page's notice."""
import pytest

from engine.models import registry
from ui import warmup
from ui.models import page_options


def test_type_blocks_lists_every_registered_model_that_offers_type(open_page):
    at = open_page("pages/type_blocks.py")
    offering = [cls for cls in registry.models().values() if "type" in cls.samplers]
    assert {cls.display for cls in offering} >= {"copies", "segmentation", "tagging"}
    assert at.radio(key="tb_model").options == [cls.label for cls in offering]


def test_the_toy_takes_a_type_move_on_type_blocks(open_page):
    at = open_page("pages/type_blocks.py", model="toy", toy_n=12)
    at.button(key="tb_step").click().run()
    assert not at.exception and not at.error
    lab = at.session_state.tb_race
    info = lab["move"]["info"]
    assert lab["model"].n == 12 and len(info.block) == 12  # every copy has the one type
    rows = "".join(m.value for m in at.markdown if "line-height" in m.value)
    assert rows.count("<div") == 12
    assert any("copies split" in m.value for m in at.markdown)


class GraphModel:
    """A model of a kind of data no page draws (no view is written for it)."""

    name, label, display, aliases = "graphs", "Graph model", "graphs", ()
    samplers, populations, options, particle_options = ("token", "type"), (), (), ()
    needs_data, order, trace_labels, summary = True, 99, {}, "graphs"


@pytest.fixture
def graph_model(monkeypatch):
    """The registry with GraphModel beside the real models; nothing compiles in the background
    (the compiler would look for GraphModel's kernels)."""
    models = registry.models
    monkeypatch.setattr(registry, "models",
                        lambda role=None: {**models(role), **({} if role else {"graphs": GraphModel})})
    monkeypatch.setattr(warmup, "warm_samplers", lambda *args, **kwargs: None)
    monkeypatch.setattr(warmup, "start_compiler", lambda: None)


@pytest.mark.parametrize("path, widget, key", [("pages/type_blocks.py", "radio", "tb_model"),
                                               ("pages/sampler_race.py", "selectbox",
                                                "race_model")])
def test_a_model_of_an_unknown_kind_is_refused_in_words(open_page, graph_model, path, widget,
                                                        key):
    at = open_page(path)
    getattr(at, widget)(key=key).set_value("graphs").run()
    assert not at.exception
    error = " ".join(e.value for e in at.error)
    assert "Graph model analyses data of the kind “graphs”" in error
    assert "ui/kinds/graphs.py" in error


# (page, settings prefix, the model whose widgets it draws first, their names' scope)
PAGES = [("pages/word_segmentation.py", "seg", "usm", "usm_"),
         ("pages/tag_trajectories.py", "hmm", "hmm", ""),
         ("pages/hmm_estimators.py", "gj", "hmm", ""),
         ("pages/particle_filter.py", "pf", "usm", "usm_"),
         ("pages/type_blocks.py", "tb", "usm", "usm_"),
         ("pages/sampler_race.py", "race", "usm", "usm_")]


@pytest.mark.parametrize("path, prefix, model, scope", PAGES,
                         ids=[p.split("/")[1].removesuffix(".py") for p, *_ in PAGES])
def test_a_models_widgets_take_its_options_ranges(open_page, path, prefix, model, scope):
    at = open_page(path)
    model_class = registry.get(model)
    groups = ("options", "particle_options") if prefix == "pf" else ("options",)
    options = [o for group in groups for o in page_options(model_class, group)]
    assert options
    for option in options:
        key = f"{prefix}_{scope}{option.name}"
        if option.choices:
            assert at.selectbox(key=key).options == list(option.choices)
            continue
        widget = at.number_input(key=key)
        assert (widget.min, widget.max) == option.widget_range(), key
        assert widget.label == option.help


def test_the_hmm_priors_reach_the_models_own_bound(open_page):
    """The page once stopped α at 100 where the model takes up to 10⁹."""
    high = next(o.high for o in registry.get("hmm").options if o.name == "alpha")
    at = open_page("pages/hmm_estimators.py", alpha=str(high))
    assert not at.warning
    assert at.session_state.gj_race.runs["em"].model.alpha == high


def test_a_link_outside_an_options_range_gets_the_pages_notice(open_page):
    at = open_page("pages/tag_trajectories.py", alpha="2e9", n_states="1")
    notices = " ".join(w.value for w in at.warning)
    assert "Ignored in the address" in notices
    assert "`alpha=2e9`" in notices and "`n_states=1`" in notices and "between" in notices
    model = at.session_state.hmm_race.runs["token"].model
    assert (model.alpha, model.n_states) == (0.1, 15)  # the defaults
