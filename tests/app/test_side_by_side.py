"""Side by side: each question's two links open their lesson on the settings they name, and a
bad link is refused in its half with a message while the other half stays."""
import ast
from pathlib import Path
from urllib.parse import parse_qsl

import pytest

from ui.settings import PRESET, slug

PAGE = "pages/side_by_side.py"
ROOT = Path(__file__).resolve().parents[2]


def comparisons():
    """The page's questions, read from its source (a page script cannot be imported)."""
    tree = ast.parse((ROOT / PAGE).read_text())
    found = next(node.value for node in tree.body if isinstance(node, ast.Assign)
                 and getattr(node.targets[0], "id", None) == "COMPARISONS")
    return ast.literal_eval(found)


@pytest.mark.parametrize("question", list(comparisons()))
def test_each_questions_links_open_their_lesson_on_their_settings(open_page, question):
    for link in comparisons()[question]:
        path, _, query = link.partition("?")
        at = open_page(f"pages/{path}.py", **dict(parse_qsl(query)))
        assert not at.warning, [w.value for w in at.warning]  # every parameter was taken
        assert not at.error, [e.value for e in at.error]
        # the lesson keeps them in its address (beside what they imply, as the HMM's measure)
        address = {k: v[0] if isinstance(v, list) else v for k, v in at.query_params.items()}
        assert dict(parse_qsl(query)).items() <= address.items(), (link, address)


def test_a_question_sets_both_links(open_page):
    question, (left, right) = list(comparisons().items())[2]
    at = open_page(PAGE, **{PRESET: slug(question)})
    assert at.text_area[0].value == left and at.text_area[1].value == right
    assert not at.error


def test_a_link_to_no_lesson_is_refused_in_its_half_and_the_other_half_stays(open_page):
    at = open_page(PAGE)
    at.text_area[0].set_value("https://example.org/not-a-lesson?n=3").run()
    assert len(at.error) == 1
    assert "not a link to one of the lessons" in at.error[0].value
    assert "Share this view" in at.error[0].value
    assert at.caption and any("Right" in c.value for c in at.caption)
    assert not at.exception
