"""What a new user meets on the pages: an upload's format told from the text (the project's own
tagged file read on the HMM pages), a file of the wrong kind refused in words that name what
the page reads and where that file goes, K following a new corpus's gold tags unless a link or
the user set it, and the Preset box naming the preset a link set, until a setting changes."""
import tomllib
from pathlib import Path

import pytest

from ui.settings import slug

ROOT = Path(__file__).resolve().parents[2]
TAGGED = (ROOT / "datasets" / "builtin" / "tagged.txt").read_bytes()
# a CoNLL-U file of three sentences and 4 UPOS tags (the built-in corpus has 15)
CONLLU = "".join(
    "".join(f"{i}\t{w}\t_\t{t}\t_\t_\t_\t_\t_\t_\n" for i, (w, t) in enumerate(sentence, 1)) + "\n"
    for sentence in [[("the", "DET"), ("dog", "NOUN"), ("runs", "VERB"), (".", "PUNCT")],
                     [("a", "DET"), ("cat", "NOUN"), ("sleeps", "VERB")],
                     [("dogs", "NOUN"), ("run", "VERB"), (".", "PUNCT")]]).encode()
HMM_PAGES = [("pages/tag_trajectories.py", "hmm"), ("pages/hmm_estimators.py", "gj")]


def upload(at, prefix, name, data):
    at.radio(key=f"{prefix}_source").set_value("upload").run()
    at.file_uploader(key=f"{prefix}_upload").set_value((name, data, "text/plain")).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def captions(at):
    return " ".join(c.value for c in at.caption)


@pytest.mark.parametrize("page, prefix", HMM_PAGES)
def test_the_projects_tagged_file_is_read_on_the_hmm_pages(open_page, page, prefix):
    at = upload(open_page(page), prefix, "tagged.txt", TAGGED)
    assert at.selectbox(key=f"{prefix}_format").value == "auto"
    assert not at.error, [e.value for e in at.error]
    assert "Read as word/TAG tokens, a sentence per line (told from the text" in captions(at)


def test_a_chosen_format_overrides_the_detected_one(open_page):
    at = upload(open_page("pages/tag_trajectories.py"), "hmm", "tagged.txt", TAGGED)
    at.selectbox(key="hmm_format").set_value("conllu").run()
    assert "CoNLL-U needs 10 fields" in " ".join(e.value for e in at.error)


def test_a_tagged_corpus_on_a_segmentation_page_is_sent_to_the_tagging_lessons(open_page):
    at = upload(open_page("pages/word_segmentation.py"), "seg", "ewt.conllu", CONLLU)
    said = " ".join(e.value for e in at.error)
    assert "Cannot read ewt.conllu: this page reads segmented text from a file ending in .txt" \
        in said
    assert "A .conllu file is tagged text: HMM tag trajectories, HMM estimators" in said
    at = upload(open_page("pages/word_segmentation.py"), "seg", "tagged.txt", TAGGED)
    assert "looks like a tagged corpus" in " ".join(w.value for w in at.warning)


def test_trees_on_a_segmentation_page_are_said_to_be_trees(open_page):
    """Read as utterances of brackets before, without a word: the kinds' recogniser says
    what the file is, and the lessons that read it, as the command line does."""
    trees = (ROOT / "datasets" / "builtin" / "trees.txt").read_bytes()
    at = upload(open_page("pages/word_segmentation.py"), "seg", "trees.txt", trees)
    warned = " ".join(w.value for w in at.warning)
    assert "trees.txt looks like Penn-bracketed trees (Tree fragments" in warned, warned
    assert "read those), not segmented text: here it is read as segmented text" in warned


def test_the_upload_boxes_name_the_endings_they_read(open_page):
    at = open_page("pages/word_segmentation.py")
    at.radio(key="seg_source").set_value("upload").run()
    assert at.file_uploader(key="seg_upload").label.endswith("(.txt)")
    at = upload(open_page("pages/restaurants.py"), "rest_fig", "words.csv", b"a,b\n")
    assert at.file_uploader(key="rest_fig_upload").label.endswith("(.txt or .conllu)")
    assert "Cannot read words.csv: this page reads plain segmented text (.txt) or CoNLL-U " \
           "(.conllu)." in [e.value for e in at.error]


def k_of(at, prefix):
    race = at.session_state[f"{prefix}_race"]
    return next(iter(race.runs.values())).model.n_states


def test_k_follows_a_new_corpus_unless_a_link_or_the_user_sets_it(open_page):
    at = open_page("pages/tag_trajectories.py")
    assert k_of(at, "hmm") == 15
    upload(at, "hmm", "small.conllu", CONLLU)
    assert k_of(at, "hmm") == 4 and "4 gold tags; K = 4" in captions(at)
    linked = upload(open_page("pages/tag_trajectories.py", n_states=6), "hmm", "small.conllu",
                    CONLLU)
    assert k_of(linked, "hmm") == 6
    chosen = open_page("pages/tag_trajectories.py")
    chosen.number_input(key="hmm_n_states").set_value(3).run()
    upload(chosen, "hmm", "small.conllu", CONLLU)
    assert k_of(chosen, "hmm") == 3


@pytest.mark.parametrize("page, prefix", [("pages/toy_posterior.py", "toy"),
                                          ("pages/tag_trajectories.py", "hmm")])
def test_the_preset_box_names_a_links_preset_until_a_setting_changes(open_page, page, prefix):
    labels = open_page(page).selectbox(key=f"{prefix}_preset").options
    at = open_page(page, preset=slug(labels[-1]))
    assert at.selectbox(key=f"{prefix}_preset").value == labels[-1]
    at.number_input(key=f"{prefix}_seed").set_value(7).run()
    assert at.selectbox(key=f"{prefix}_preset").value is None
    at.selectbox(key=f"{prefix}_preset").set_value(labels[0]).run()
    assert at.selectbox(key=f"{prefix}_preset").value == labels[0]  # chosen in the box


def test_the_header_has_no_deploy_button():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["client"]["toolbarMode"] == "viewer"  # the browser test checks the header
