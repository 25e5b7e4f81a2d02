"""The Sampler race in a real Chromium: a 3-sampler × 4-chain race plays and its R̂ and ESS
update; a bad upload names the line and the race survives it; a corpus too large for the page
is cut to a subsample; the η sweep runs in the background with a progress bar, can be
cancelled, and draws its bands."""
import re

from playwright.sync_api import expect

from engine.models import registry
from tests.e2e.test_browser import upload_a_tab
from tests.e2e.test_classroom import LABELS, expect_every_chain_at, pass_numbers, wait_idle
from ui.models import page_options

expect.set_options(timeout=60_000)

TABLE = '[data-testid="stTable"]'


def diagnostics(page):
    """The diagnostics table as {sampler: {column: text}}."""
    rows = page.evaluate("""() => {
      const table = document.querySelector('[data-testid="stTable"] table');
      const head = [...table.querySelectorAll('thead th')].map(th => th.innerText.trim());
      return [...table.querySelectorAll('tbody tr')].map(tr =>
        [...tr.querySelectorAll('th, td')].map(c => c.innerText.trim())).map(
        cells => Object.fromEntries(cells.map((c, i) => [head[i], c])));
    }""")
    return {row[""] if "" in row else row["sampler"]: row for row in rows}


def test_a_three_sampler_four_chain_race_updates_rhat_and_ess(page, app_url, screenshot):
    page.goto(f"{app_url}/sampler_race?samplers=token,type,type-token&chains=4&passes=100000"
              "&clock=time")
    expect(page.locator(LABELS)).to_have_count(3)
    expect(page.locator(LABELS).first).to_contain_text("TOKEN · pass 0")
    page.get_by_role("button", name="Play").click()
    expect(page.locator(TABLE).get_by_text("4 × ", exact=False).first).to_be_visible()
    first = diagnostics(page)
    page.wait_for_timeout(4000)
    then = diagnostics(page)
    page.get_by_role("button", name="Pause").click()
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    assert set(then) == {"TOKEN", "TYPE", "TYPE + TOKEN"}, then
    for sampler in then:
        assert float(then[sampler]["R̂"]) > 0  # the first table: R̂ and ESS of log p
        assert then[sampler]["chains × draws"] != first[sampler]["chains × draws"]
    # recomputed from the new draws: one sampler's R̂ (2 decimals) can stay where it was
    # (1.99 twice, with ESS undefined, once), all three hardly
    assert any((then[sampler]["R̂"], then[sampler]["bulk ESS"]) != (
        first[sampler]["R̂"], first[sampler]["bulk ESS"]) for sampler in then), (first, then)
    verdicts = page.get_by_text(re.compile(r"— (not )?mixed: R̂ = "))
    expect(verdicts).to_have_count(3)
    expect(page.locator('[data-testid="stMain"] .vega-embed svg')).to_have_count(6)
    wait_idle(page)
    screenshot("sampler_race")


def test_a_bad_upload_names_the_line_and_the_race_survives(page, app_url, tmp_path):
    page.goto(f"{app_url}/sampler_race")
    expect(page.locator(LABELS).first).to_contain_text("TOKEN · pass 0")
    for done in (1, 2):  # one click at a time: a click during a rerun could be lost
        page.get_by_role("button", name="Step").click()
        expect_every_chain_at(page, done)
    wait_idle(page)
    reached = pass_numbers(page)
    upload_a_tab(page, tmp_path)
    assert pass_numbers(page) == reached  # the race is still there, unchanged
    page.get_by_role("button", name="Step").click()
    # the chains' rows come from their worker processes: on a loaded machine after the rerun
    expect_every_chain_at(page, 3)


def test_a_corpus_too_large_for_the_page_is_cut_to_a_subsample(page, app_url, tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("abcde fghij klmno\n" * 20_000)  # 300,000 symbols: 280,000 sites
    big.write_text(big.read_text() + "pqrst uvwxy\n" * 3_000)  # and 27,000 more
    page.goto(f"{app_url}/sampler_race")
    expect(page.locator(LABELS).first).to_contain_text("TOKEN · pass 0")
    page.get_by_text("Upload a file").click()
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(big))
    expect(page.get_by_text(re.compile(r"has 307,000 sites; the race page takes at most "
                                       r"300,000"))).to_be_visible()
    page.get_by_role("button", name="Race a subsample").click()
    expect(page.get_by_text(re.compile(r"\), 29\d,\d{3} sites; 8 chains"))).to_be_visible()
    expect(page.get_by_text("has 307,000 sites")).to_have_count(0)
    expect(page.locator(LABELS).first).to_contain_text("TOKEN · pass 0")


def test_the_eta_sweep_shows_progress_can_be_cancelled_and_draws_its_bands(page, app_url):
    page.goto(f"{app_url}/sampler_race?model=toy&toy_n=200&sweep_step=0.5&sweep_seconds=0.5"
              "&sweep_chains=2")
    expect(page.locator(LABELS).first).to_contain_text("TOKEN · pass 0")
    run = page.get_by_role("button", name=re.compile(r"Run the sweep: 12 chains"))
    run.click()
    expect(page.get_by_role("button", name="Cancel the sweep")).to_be_visible()
    page.get_by_role("button", name="Cancel the sweep").click()
    expect(run).to_be_visible()  # cancelled: the button is back, no result

    run.click()
    expect(page.get_by_text(re.compile(r"\d+ of 12 chains done"))).to_be_visible()
    expect(page.get_by_text("Lines: the median over the chains")).to_be_visible(timeout=180_000)
    expect(page.locator(".st-key-race_sweep_loglik .vega-embed svg")).to_have_count(1)
    expect(page.locator(".st-key-race_sweep_m .vega-embed svg")).to_have_count(1)
    expect(run).to_have_count(0)  # the result is kept for these settings


def choose_preset(page, label):
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.locator('[data-testid="stSelectbox"]').filter(has_text="Preset").locator(
        "input").click()
    page.get_by_role("option", name=label).click()
    wait_idle(page)


def test_a_preset_after_presets_of_other_models_sets_its_models_options(page, app_url):
    """Once another model's preset had hidden them, the unigram model's option widgets came
    back showing their minimum (1e-9) while the server held the preset's values: the next
    click sent 1e-9 back and the race ran a different model."""
    page.goto(f"{app_url}/sampler_race")
    expect(page.locator(LABELS).first).to_contain_text("TOKEN · pass 0")
    for label in ("R̂ catches a stuck chain", "TYPE + TOKEN on the HMM",
                  "Word segmentation: none of five samplers"):
        choose_preset(page, re.compile(re.escape(label)))
    expect(page.get_by_text("nursery talk", exact=False).first).to_be_visible()
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("Model settings").click()
    for option in page_options(registry.get("usm")):
        box = sidebar.get_by_role("spinbutton", name=option.help)
        expect(box).to_be_visible()
        assert float(box.input_value()) == option.default, (option.name, box.input_value())
