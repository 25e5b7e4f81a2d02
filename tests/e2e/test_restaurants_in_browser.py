"""The Restaurants lesson in a real Chromium: keys step, play, pause and reset the restaurant;
the drawing, the histogram and the chart agree and stay drawn while it plays; Figure 2 draws
for a CoNLL-U upload and a bad upload keeps the figure it had."""
import re

import pytest
from playwright.sync_api import expect

from tests.corpora import EWT_DEV
from tests.e2e.test_classroom import SIDEBAR, focus_page_body, wait_idle

FIGURE_TWO = ".st-key-rest_fig2 .vega-embed svg"


def metric(page, label):
    box = page.locator('[data-testid="stMetric"]').filter(has_text=label)
    return box.locator('[data-testid="stMetricValue"]').inner_text()


def customers(page):
    return int(metric(page, "Customers n").replace(",", ""))


def test_keys_fill_the_restaurant_and_its_pictures_agree(page, app_url, screenshot):
    page.goto(f"{app_url}/restaurants?customers=2000")
    expect(page.get_by_text("Customers n", exact=True)).to_be_visible()
    focus_page_body(page)
    page.keyboard.press("ArrowRight")
    expect(page.locator(".tb-table")).to_have_count(1)
    assert customers(page) == 1

    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Pause")).to_be_visible()
    chart = page.locator('.st-key-rest_path_chart .vega-embed svg')
    for _ in range(20):  # drawn at every sample while it plays (swapped in place, not remounted)
        expect(chart).to_have_count(1, timeout=1000)
        page.wait_for_timeout(150)
    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    wait_idle(page)
    n, tables = customers(page), int(metric(page, "Tables T"))
    assert n > 5
    expect(page.locator(".tb-table")).to_have_count(tables)
    more = sum(int(t.lstrip("+")) for t in page.locator(".tb-more").all_inner_texts())
    assert page.locator(".tb-dot").count() + more == n  # a dot per customer, or "+k" for more
    histogram = page.locator('[data-testid="stCode"]').first.inner_text()
    assert sum(int(k) for k in re.findall(r"\d+: (\d+)", histogram)) == tables
    expect(page.locator(FIGURE_TWO)).to_have_count(1)
    screenshot("restaurants")

    page.keyboard.press("0")
    expect(page.get_by_text("No one has arrived yet")).to_be_visible()
    assert customers(page) == 0


def test_figure_two_on_an_uploaded_conllu_and_a_bad_upload(page, app_url, tmp_path):
    if not EWT_DEV.exists():
        pytest.skip(f"{EWT_DEV} is missing")
    page.goto(f"{app_url}/restaurants")
    expect(page.locator(FIGURE_TWO)).to_have_count(1)
    sidebar = page.locator(SIDEBAR)
    sidebar.get_by_text("Upload: plain segmented text or CoNLL-U").click()
    sidebar.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(EWT_DEV))
    expect(page.get_by_text(re.compile(r"en_ewt-ud-dev\.conllu.*25,1\d\d word tokens"))) \
        .to_be_visible(timeout=120_000)
    expect(page.locator(FIGURE_TWO)).to_have_count(1)

    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"the dog\nthe\tcat\n")
    sidebar.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(bad))
    expect(page.get_by_text("line 2: the character '\\t' (tab)")).to_be_visible()
    expect(page.get_by_text("Figure 2 needs a corpus of words")).to_be_visible()
    assert customers(page) == 0  # the restaurant is untouched


def test_a_shared_link_opens_the_same_restaurant_in_another_browser(browser, page, app_url):
    page.goto(f"{app_url}/restaurants")
    expect(page.get_by_text("Customers n", exact=True)).to_be_visible()
    sidebar = page.locator(SIDEBAR)
    sidebar.get_by_text("Pitman-Yor process (discount d)").click()
    page.wait_for_url(re.compile(r"[?&]process=py\b"))
    seed = sidebar.get_by_role("spinbutton", name="Seed", exact=True)
    seed.fill("7")
    seed.press("Enter")
    page.wait_for_url(re.compile(r"[?&]seed=7\b"))
    wait_idle(page)
    step_five_times(page)
    drawn = page.locator(".tb-room").inner_text()
    link = page.url
    sidebar.get_by_role("button", name="Share this view").click()
    expect(page.locator('[data-testid="stPopoverBody"] [data-testid="stCode"]').first) \
        .to_have_text(link)

    other = browser.new_context(viewport={"width": 1400, "height": 3200})
    try:
        fresh = other.new_page()
        fresh.set_default_timeout(60_000)
        fresh.goto(link)
        expect(fresh.get_by_text("Customers n", exact=True)).to_be_visible()
        expect(fresh.locator(SIDEBAR).get_by_role("spinbutton", name="Seed", exact=True)) \
            .to_have_value("7")
        expect(fresh.get_by_text("d — discount")).to_be_visible()
        step_five_times(fresh)
        assert fresh.locator(".tb-room").inner_text() == drawn  # same seed, same arrivals
    finally:
        other.close()


def step_five_times(page):
    """Five customers by the → key, each awaited (a key pressed while the page reruns for the
    one before may be folded into that rerun)."""
    focus_page_body(page)
    for n in range(1, 6):
        page.keyboard.press("ArrowRight")
        expect(page.locator(".tb-dot")).to_have_count(n)
        wait_idle(page)
