"""A new user's uploads in a real browser: the project's own tagged file read on an HMM page with
its format told from the text, a CoNLL-U file on Word segmentation refused in words that name
what the page reads (the browser's own refusal named nothing), and a header without Deploy."""
from pathlib import Path

from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]


def choose_file(page, path):
    page.get_by_text("Upload a file").click()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(path))


def test_the_hmm_page_reads_the_projects_tagged_file(page, app_url, screenshot):
    page.goto(f"{app_url}/tag_trajectories")
    choose_file(page, ROOT / "datasets" / "builtin" / "tagged.txt")
    expect(page.get_by_text("Read as word/TAG tokens, a sentence per line")).to_be_visible()
    expect(page.locator('[data-testid="stAlertContentError"]')).to_have_count(0)
    expect(page.get_by_role("button", name="Deploy")).to_have_count(0)
    screenshot("new_user_hmm_upload")


def test_a_conllu_file_on_word_segmentation_is_told_where_it_goes(page, app_url, tmp_path):
    tagged = tmp_path / "ewt.conllu"
    tagged.write_text("1\tthe\t_\tDET\t_\t_\t_\t_\t_\t_\n2\tdog\t_\tNOUN\t_\t_\t_\t_\t_\t_\n\n")
    page.goto(f"{app_url}/word_segmentation")
    choose_file(page, tagged)
    expect(page.get_by_text("this page reads segmented text from a file ending in .txt")
           ).to_be_visible()
    expect(page.get_by_text("files are not allowed")).to_have_count(0)
