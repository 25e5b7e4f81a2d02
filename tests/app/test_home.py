"""The Home page: it explains the lab, links every lesson and runs without errors."""


def test_home_explains_and_links_the_lessons(open_page):
    at = open_page("pages/home.py")
    assert at.title[0].value == "Typeblocks"
    headers = [h.value for h in at.subheader]
    assert headers == ["Lessons", "How to read the plots", "The samplers"]
    text = " ".join(m.value for m in at.markdown)
    for sampler in ("TOKEN", "TYPE", "TOKEN-anneal", "TYPE-greedy"):
        assert sampler in text
    assert not at.error
