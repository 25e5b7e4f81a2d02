"""Bad links and uploads as visitors make them: every bad value in the address is said in the one
"Ignored in the address" notice and the page runs on its defaults, without an error; what the
visitor typed or uploaded is repeated shortened and shown as typed (no link, Markdown or HTML of
theirs is rendered)."""
import re

import pytest

from tests.app.test_side_by_side import comparisons
from ui import race_page
from ui.settings import ECHO, asked_page, echo, plain

EVIL = "http://evil.example/x"
CODE = re.compile(r"(`+).*?\1")  # a code span as ui.settings.echo writes it


def notice(at):
    """The page's one "Ignored in the address" notice."""
    notices = [w.value for w in at.warning if w.value.startswith("Ignored in the address")]
    assert len(notices) == 1, [w.value for w in at.warning]
    return notices[0]


def calm(at):
    """No exception and no error: the page runs on its defaults."""
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def rendered(markdown):
    """What of ``markdown`` is rendered as Markdown: all but its code spans and escapes."""
    return re.sub(r"\\.", "", CODE.sub("", markdown))


def shown_as_typed(markdown, text):
    """``text`` (or its start) appears in ``markdown`` only where nothing renders it."""
    return text[:10] not in rendered(markdown)


# --- the address: every page's settings, bad -----------------------------------------------------
# page, bad values of its own settings (each must be said)
BAD = [
    ("pages/toy_posterior.py", dict(n="nan", samplers="token,nope", passes="-1")),
    ("pages/type_blocks.py", dict(model="nope", size="1e9", skip="yes")),
    ("pages/word_segmentation.py", dict(model="nope", first="0", measure="nope")),
    ("pages/tag_trajectories.py", dict(skip="2", shown="nope", window="-5")),
    ("pages/hmm_estimators.py", dict(eta="2", axis="nope", passes="inf")),
    ("pages/restaurants.py", dict(process="nope", alpha="-1", customers="0")),
    ("pages/tree_fragments.py", dict(shown="nope", first="-1", skip="maybe")),
    ("pages/forests.py", dict(pair="0", alone="2", shown="nope")),
    ("pages/particle_filter.py", dict(particles="0", threshold="nope", fraction="7")),
    ("pages/sampler_race.py", dict(model="nope", chains="999", starts="nope")),
]


@pytest.mark.parametrize("page, bad", BAD, ids=[p.split("/")[1][:-3] for p, _ in BAD])
def test_every_bad_value_is_said_in_one_notice_and_the_page_runs(open_page, page, bad):
    at = open_page(page, **bad, seed="5" * 5000)
    said = notice(at)
    for name, text in bad.items():
        assert f"`{name}={text}`" in said, (name, said)
    assert "`seed=" + "5" * (ECHO - 5) + "…`" in said and "5" * (ECHO + 5) not in said
    assert "must be between 0 and" in said  # a 5,000-digit seed is out of range, not a word
    calm(at)


def test_a_bad_presenter_mode_is_said_on_home(open_page):
    at = open_page("pages/home.py", presenter="yes")
    assert "`presenter=yes`: presenter mode must be 0 or 1" in notice(at)
    calm(at)


def test_an_initial_m_above_n_is_ignored_and_the_chains_run(open_page):
    """The issue's toy_posterior?m=5000: a notice, not a red error and no chains."""
    at = open_page("pages/toy_posterior.py", m="5000")
    assert "`m=5000`: the initial m must be between 0 and n = 1,000" in notice(at)
    calm(at)
    assert at.session_state.toy_m == at.session_state.toy_n == 1000
    assert at.session_state.toy_race.runs  # the chains were built


def test_a_link_whose_m_is_ignored_starts_at_its_n(open_page):
    at = open_page("pages/toy_posterior.py", n="12", m="5000")
    assert "`m=5000`" in notice(at)
    assert at.session_state.toy_m == at.session_state.toy_n == 12
    calm(at)


def test_a_nonterminal_the_treebank_lacks_is_said(open_page):
    """The issue's tree_fragments?root=nope, beside another bad value of the same link."""
    at = open_page("pages/tree_fragments.py", root="nope", passes="0")
    said = notice(at)
    assert "`root=nope`: the corpus has no such nonterminal" in said and "`passes=0`" in said
    assert at.session_state.tf_root != "nope"
    calm(at)


def test_a_link_past_the_corpus_says_what_the_corpus_has(open_page):
    at = open_page("pages/word_segmentation.py", first="9999999")
    assert re.search(r"`first=9999999`: the corpus has [\d,]+ utterances", notice(at))
    calm(at)


def test_a_markdown_link_in_the_address_is_shown_as_typed(open_page):
    at = open_page("pages/toy_posterior.py", **{f"[click]({EVIL})": "1", "seed": f"[x]({EVIL})"})
    said = notice(at)
    assert shown_as_typed(said, "[click]") and shown_as_typed(said, EVIL)
    calm(at)


def test_backticks_in_the_address_do_not_end_the_code(open_page):
    at = open_page("pages/toy_posterior.py", preset=f"`` [x]({EVIL}) ``")
    said = notice(at)
    assert shown_as_typed(said, EVIL), said


# --- side by side ----------------------------------------------------------------------------
SIDE = "pages/side_by_side.py"


def test_a_visitors_url_is_not_a_link_in_the_error(open_page):
    """The issue's side_by_side?right=http://evil.example/x."""
    at = open_page(SIDE, right=EVIL)
    assert len(at.error) == 1 and "not a link to one of the lessons" in at.error[0].value
    assert shown_as_typed(at.error[0].value, EVIL), at.error[0].value
    assert not at.exception


def test_a_huge_link_is_echoed_shortened(open_page):
    at = open_page(SIDE, left="x" * 100_000)
    assert "x" * ECHO + "…" in at.error[0].value and "x" * (ECHO + 1) not in at.error[0].value
    assert at.text_area[0].value == "x" * 100_000  # kept: nothing the visitor gave is lost


def test_a_lessons_link_with_markdown_in_its_settings_is_captioned_as_typed(open_page):
    at = open_page(SIDE, left=f"toy_posterior?seed=[x]({EVIL})")
    caption = next(c.value for c in at.caption if c.value.startswith("**Left**"))
    assert shown_as_typed(caption, EVIL), caption
    calm(at)


@pytest.mark.parametrize("lesson", ["tree_fragments", "forests"])
def test_the_tree_lessons_can_be_halves(open_page, lesson):
    at = open_page(SIDE, right=f"{lesson}?seed=3")
    calm(at)
    assert any(c.value.startswith("**Right**") for c in at.caption)


# --- uploads ---------------------------------------------------------------------------------
def upload(at, prefix, name, data):
    at.radio(key=f"{prefix}_source").set_value("upload").run()
    at.file_uploader(key=f"{prefix}_upload").set_value((name, data, "text/plain")).run()
    assert not at.exception, [e.value for e in at.exception]
    return " ".join(e.value for e in at.error)


@pytest.mark.parametrize("name, data, told", [
    ("photo.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", "not UTF-8"),
    ("empty.txt", b"", "no utterances"),
    ("blank.txt", b"\n \n\t\n", "no utterances"),
], ids=["binary", "empty", "blank"])
def test_an_unreadable_upload_is_said_in_words(open_page, name, data, told):
    said = upload(open_page("pages/word_segmentation.py"), "seg", name, data)
    assert told in said and "Cannot read" in said


def test_an_uploads_name_and_words_are_shown_as_typed(open_page):
    name = f"[x]({EVIL}).txt"
    said = upload(open_page("pages/word_segmentation.py"), "seg", name, "a\ufffdb *c*\n".encode())
    assert "Cannot read" in said and shown_as_typed(said, EVIL), said


def test_a_wrongly_named_upload_is_shown_as_typed(open_page):
    said = upload(open_page("pages/word_segmentation.py"), "seg", f"**{EVIL}**.png", b"ab c\n")
    assert "this page reads segmented text" in said and shown_as_typed(said, EVIL), said


# --- the helpers themselves --------------------------------------------------------------------
def test_echo_and_plain_leave_nothing_to_render():
    for text in (f"[a]({EVIL})", "*b* _c_ ~~d~~ $x$ <b>", ":red[e] :material/home:",
                 "www.evil.example", "me@evil.example", "`` `f` ``"):
        assert not re.search(r"[\[*_~$<@`]|:[a-z]|www\.", rendered(plain(text))), text
        assert rendered(echo(text)).strip() == "", text


@pytest.mark.parametrize("url, base, asked", [
    ("http://host:8501/no_such_page?x=1", "", "no_such_page"),
    ("http://host:8501/", "", ""),
    ("http://host/lab/no_such_page", "/lab", "no_such_page"),
    ("http://host/lab/", "lab", ""),
])
def test_the_page_an_address_asks_for(url, base, asked):
    assert asked_page(url, base) == asked


# --- a link that is a preset -----------------------------------------------------------------
def test_a_link_whose_settings_are_a_presets_names_it(open_page):
    """The issue's shared link that opened with the Preset box empty."""
    question, (left, right) = list(comparisons().items())[1]
    at = open_page(SIDE, left=left, right=right)
    assert at.selectbox(key="sbs_preset").value == question
    at = open_page("pages/toy_posterior.py", n="12", m="12", passes="50",
                   samplers="token,type")
    assert at.selectbox(key="toy_preset").value == "Small n = 12: TYPE's draws, m by m"
    at.number_input(key="toy_seed").set_value(7).run()  # then it is not the preset any more
    assert at.selectbox(key="toy_preset").value is None


# --- large uploads -----------------------------------------------------------------------------
def test_a_large_upload_is_cut_to_the_pages_limit_said_before_it_is_read(open_page, monkeypatch):
    """The issue's 200,000 utterances on Word segmentation (minutes of nothing): the limit is
    said under the upload box, and the file is cut to it before a model is built."""
    monkeypatch.setattr(race_page, "MAX_SITES", 1000)  # the same path as 300,000, in seconds
    at = open_page("pages/word_segmentation.py")
    at.radio(key="seg_source").set_value("upload").run()
    assert "reads at most the first 1,000 sites (symbols or tokens) of a file" in " ".join(
        c.value for c in at.caption)
    upload(at, "seg", "large.txt", b"ab cd ef\n" * 400)  # 2,400 symbols
    said = " ".join(w.value for w in at.warning)
    assert "large.txt has 400 utterances: this page reads the first" in said
    kept = len(next(iter(at.session_state.seg_race.runs.values())).model.texts)
    assert 100 <= kept < 1000 / 6
    calm(at)
