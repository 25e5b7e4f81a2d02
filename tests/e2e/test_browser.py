"""The app in a real headless Chromium: open it, go to the Toy page, step, play, find the plots."""
import re

from playwright.sync_api import expect

from tests.e2e.test_classroom import wait_idle

expect.set_options(timeout=30_000)  # the first page load may wait for Numba's cache


def metric_values(page):
    return page.locator('[data-testid="stMetricLabel"]').all_inner_texts()


def pass_numbers(page):
    return [int(re.search(r"pass ([\d,]+)", text).group(1).replace(",", ""))
            for text in metric_values(page)]


def test_home_page_lists_the_lessons(page, app_url, screenshot):
    page.goto(app_url)
    expect(page.get_by_role("heading", name="Typeblocks")).to_be_visible()
    expect(page.get_by_text("How to read the plots")).to_be_visible()
    screenshot("home")


def test_toy_page_steps_plays_and_plots(page, app_url, screenshot):
    page.goto(app_url)
    page.get_by_role("link", name="Toy posterior").first.click()
    expect(page.get_by_role("heading", name=re.compile("^Toy posterior"))).to_be_visible()
    expect(page.locator('[data-testid="stMetricLabel"]').first).to_contain_text("pass 0")

    page.get_by_role("button", name="Step").click()
    expect(page.locator('[data-testid="stMetricLabel"]').first).to_contain_text("pass 1")

    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("button", name="Pause")).to_be_visible()
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid="stMetricLabel"]')]
                 .every(e => /pass ([3-9]|[1-9][0-9])/.test(e.innerText))""", timeout=60_000)
    assert min(pass_numbers(page)) >= 3

    page.get_by_role("button", name="Pause").click()
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    # the race (redrawn in place while playing), then the exact posterior, TYPE's draws and
    # TOKEN's escape times, all Vega-Lite
    expect(page.locator(".vega-embed svg")).to_have_count(4)
    expect(page.locator(".js-plotly-plot")).to_have_count(0)
    screenshot("toy_posterior")


def test_toy_page_bad_n_keeps_the_chains(page, app_url):
    page.goto(f"{app_url}/toy_posterior")
    expect(page.locator('[data-testid="stMetricLabel"]').first).to_contain_text("pass 0")
    page.get_by_role("button", name="Step").click()
    expect(page.locator('[data-testid="stMetricLabel"]').first).to_contain_text("pass 1")
    box = page.get_by_role("spinbutton", name="n — copies of `ab`")
    box.fill("0")
    box.press("Enter")
    expect(page.get_by_text("n must be between 1 and 100,000; it is 0.")).to_be_visible()
    expect(page.locator('[data-testid="stMetricLabel"]').first).to_contain_text("pass 1")


def test_a_lesson_address_opened_first_gets_the_apps_navigation(page, fresh_server):
    """Streamlit's old pages/ mode would run the page alone for a fresh server's first visitor."""
    with fresh_server() as url:
        page.goto(f"{url}/toy_posterior?n=77")
        expect(page.locator('[data-testid="stMetricValue"]').first).to_have_text("m = 77")
        nav = page.locator('[data-testid="stSidebarNav"]')
        expect(nav.get_by_role("link", name=re.compile("Home"))).to_be_visible()
        expect(nav.get_by_role("link", name=re.compile("^app"))).to_have_count(0)


def upload_a_tab(page, tmp_path):
    """Upload a segmented file whose line 2 has a tab; the page must name the line."""
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"the dog\nthe\tcat\n")
    page.get_by_text("Upload a file").click()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(bad))
    expect(page.get_by_text("line 2: the character '\\t' (tab)")).to_be_visible()


def test_word_segmentation_page_plays_and_survives_a_bad_upload(page, app_url, screenshot,
                                                                tmp_path):
    page.goto(f"{app_url}/word_segmentation")
    labels = page.locator('[data-testid="stMetricLabel"]')
    expect(labels.first).to_contain_text("TOKEN · pass 0")
    expect(labels).to_have_count(5)  # the metrics appear one by one: wait for all five
    page.get_by_role("button", name="Play").click()
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid="stMetricLabel"]')]
                 .every(e => /pass ([5-9]|[1-9][0-9])/.test(e.innerText))""", timeout=60_000)
    page.get_by_role("button", name="Pause").click()
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    expect(page.locator(".vega-embed svg")).to_have_count(2)
    expect(page.get_by_text("a boundary gold does not have")).to_be_visible()
    screenshot("word_segmentation")
    # the last tick's rerun redraws the labels one by one: read them once it is over (CI read
    # [8, 8, 7, 7, 7] mid-draw and [8, 8, 8, 8, 8] after the upload)
    wait_idle(page)
    reached = pass_numbers(page)

    upload_a_tab(page, tmp_path)
    assert pass_numbers(page) == reached  # the race is still there, unchanged


def test_type_blocks_page_makes_moves_and_draws_them(page, app_url, screenshot):
    page.goto(f"{app_url}/type_blocks")
    expect(page.get_by_text("Press TYPE move: a pivot site")).to_be_visible()
    for move in range(1, 5):  # one click at a time: a click during a rerun could be lost
        page.get_by_role("button", name="TYPE move").click()
        expect(page.get_by_text(re.compile(rf"^Move {move} · pass"))).to_be_visible()
    expect(page.locator(".st-key-tb_m_chart .vega-embed svg")).to_have_count(1)
    expect(page.locator(".st-key-tb_token_chart .vega-embed svg")).to_have_count(1)
    expect(page.get_by_text("The pivot's type", exact=True)).to_be_visible()
    expect(page.get_by_text("same type, left out (conflict)")).to_be_visible()
    screenshot("type_blocks")


def test_tag_trajectories_page_plays_and_draws_the_heatmaps(page, app_url, screenshot):
    page.goto(f"{app_url}/tag_trajectories")
    labels = page.locator('[data-testid="stMetricLabel"]')
    expect(labels.first).to_contain_text("TOKEN · pass 0")
    page.get_by_role("button", name="Play").click()
    page.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid="stMetricLabel"]')]
                 .every(e => /pass ([5-9]|[1-9][0-9])/.test(e.innerText))""", timeout=60_000)
    page.get_by_role("button", name="Pause").click()
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    expect(page.locator(".vega-embed svg")).to_have_count(6)
    expect(page.get_by_text("TYPE: each token's state, pass by pass")).to_be_visible()
    screenshot("tag_trajectories")


def test_type_blocks_page_shows_an_hmm_move(page, app_url, screenshot):
    page.goto(f"{app_url}/type_blocks")
    page.get_by_text("Part-of-speech tagging (HMM)").click()
    expect(page.get_by_text("The corpus below is the current tagging.")).to_be_visible()
    for move in range(1, 4):
        page.get_by_role("button", name="TYPE move").click()
        expect(page.get_by_text(re.compile(rf"^Move {move} · pass"))).to_be_visible()
    expect(page.get_by_text("The pivot's type", exact=True)).to_be_visible()
    expect(page.locator(".st-key-tb_m_chart .vega-embed svg")).to_have_count(1)
    screenshot("type_blocks_hmm")
