"""The Home page: it explains the lab, links every lesson and runs without errors."""
from engine import samplers
from engine.models import registry


def test_home_explains_and_links_the_lessons(open_page):
    at = open_page("pages/home.py")
    assert at.title[0].value == "Typeblocks"
    headers = [h.value for h in at.subheader]
    assert headers == ["Lessons", "How to read the plots", "The samplers", "The models"]
    text = " ".join(m.value for m in at.markdown)
    for sampler in ("TOKEN", "TYPE", "TOKEN-anneal", "TYPE-greedy"):
        assert sampler in text
    assert not at.error


def test_the_tables_list_every_registered_sampler_and_model(open_page):
    at = open_page("pages/home.py")
    text = " ".join(m.value for m in at.markdown)
    for entry in samplers.SAMPLERS.values():
        assert f"| {entry.label} | {entry.help} |" in text
    for cls in registry.models().values():
        assert f"| {cls.label} | {cls.summary} |" in text


def test_a_sampler_without_a_registered_colour_cannot_break_a_legend():
    from ui.theme import colour_key
    assert "■</span> gibbs" in colour_key(["token", "gibbs"])
