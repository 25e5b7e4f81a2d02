"""The Home page: it explains the lab, links every lesson and runs without errors."""
from pathlib import Path

from engine import samplers
from engine.live.compiler import jobs_of
from engine.models import registry
from ui import course, readiness


def test_home_explains_and_links_the_lessons(open_page):
    at = open_page("pages/home.py")
    assert at.title[0].value == "Typeblocks"
    headers = [h.value for h in at.subheader]
    assert headers == ["The course", "How to read the plots", "Glossary", "The samplers",
                       "The models"]
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


def test_the_course_lists_every_lesson_in_order_with_its_goal_and_what_it_assumes(open_page):
    at = open_page("pages/home.py")
    links = [link.proto.page for link in at.get("page_link")]
    # the lessons in order (their URL paths), then the tool beside them
    assert links == [*(Path(lesson.page).stem for lesson in course.LESSONS), "side_by_side"]
    text = " ".join(m.value for m in at.markdown)
    titles = [lesson.title for lesson in course.LESSONS]
    for number, lesson in enumerate(course.LESSONS):
        assert f"**Goal:** {lesson.goal}" in text
        # a lesson assumes only lessons that come before it
        assert all(titles.index(before) < number for before in lesson.assumes)


def test_every_glossary_entry_has_its_anchor_on_home_and_the_text_links_to_them(open_page):
    at = open_page("pages/home.py")
    text = " ".join(m.value for m in at.markdown)
    for entry in course.GLOSSARY:
        assert f"data-anchor='{course.anchor(entry.word)}'>{entry.word}</h6>" in text
        assert entry.text in text
    for word in ("TOKEN", "TYPE", "pass", "site", "block", "engine time"):
        assert f"(#{course.anchor(word)})" in text  # on Home a link scrolls, not a new tab


def test_each_lesson_says_whether_its_kernels_are_ready():
    """A lesson is ready when every compile job of its models is done, compiling while one
    runs (named), queued before, failed when one failed (ui.readiness)."""
    toy = next(lesson for lesson in course.LESSONS if lesson.models == ("toy",))
    jobs = [job.key for job in jobs_of(toy.models)]
    record = {"done": {}, "failed": {}, "running": []}
    assert readiness.lesson_state(toy, record) == ("queued", f"0 of {len(jobs)} compile jobs done")
    record["done"] = {jobs[0]: 1.0}
    record["running"] = [jobs[1]]
    word, detail = readiness.lesson_state(toy, record)
    assert word == "compiling" and detail.startswith(f"1 of {len(jobs)} compile jobs done; now: ")
    record["failed"] = {jobs[1]: "LoweringError: …"}
    assert readiness.lesson_state(toy, record)[0] == "failed"
    record = {"done": dict.fromkeys(jobs, 1.0), "failed": {}, "running": []}
    assert readiness.lesson_state(toy, record) == ("ready", "")


def test_every_lessons_models_are_registered_models():
    for lesson in course.LESSONS:
        assert lesson.models and set(lesson.models) <= set(registry.models()), lesson.title


def test_home_says_when_every_lesson_is_ready(open_page, monkeypatch):
    monkeypatch.setattr(readiness, "states", lambda: {
        lesson.title: ("ready", "") for lesson in course.LESSONS})
    at = open_page("pages/home.py")
    assert any("Every lesson is ready" in s.value for s in at.success)
