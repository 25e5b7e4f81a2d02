"""What a class needs from the lessons, in a real Chromium: a link that reopens a view, a run that
survives a visit to another page, the keyboard, charts that never go blank while playing, a
phone-sized first screen and a Pause that answers at once.

The last three document requirements the pages may not meet yet: their failure messages carry
the measured numbers.
"""
import re
import statistics
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ui.playback import INTERVAL

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

expect.set_options(timeout=30_000)  # the first page load may wait for Numba's cache

LABELS = '[data-testid="stMetricLabel"]'
SIDEBAR = '[data-testid="stSidebar"]'


def metric_labels(page):
    return page.locator(LABELS).all_inner_texts()


def metric_values(page):
    return page.locator('[data-testid="stMetricValue"]').all_inner_texts()


def pass_numbers(page):
    """Each chain's passes (an estimator's iterations) from the metrics' labels."""
    return [int(re.search(r"(?:pass|iteration) ([\d,]+)", text).group(1).replace(",", ""))
            for text in metric_labels(page)]


def expect_every_chain_at(page, done):
    """Until every chain's label shows pass (iteration) `done`: a rerun draws its labels one by
    one, and on a loaded machine the rerun a click caused can begin after any fixed wait."""
    page.wait_for_function(
        """done => {
          const labels = [...document.querySelectorAll('[data-testid="stMetricLabel"]')];
          return labels.length > 0 && labels.every(label => {
            const m = /(?:pass|iteration) ([\\d,]+)/.exec(label.innerText);
            return m !== null && Number(m[1].replace(/,/g, '')) === done;
          });
        }""", arg=done, timeout=60_000)
    assert set(pass_numbers(page)) == {done}, metric_labels(page)


def wait_idle(page):
    """Until Streamlit's 'Running…' indicator is gone (the rerun a widget caused is over)."""
    page.wait_for_timeout(150)  # let the rerun begin
    expect(page.locator('[data-testid="stStatusWidget"]')).to_have_count(0, timeout=30_000)


def focus_page_body(page):
    """Click plain text, so that key presses go to the page and not into an input."""
    page.locator('[data-testid="stMain"] h1').first.click()
    assert page.evaluate("document.activeElement.tagName") not in ("INPUT", "TEXTAREA")


# --- 1. a link reopens the same view -----------------------------------------------------------
# (path, the page's checkbox, the metrics' first label at pass 0, or the Type blocks status)
LESSONS = [
    ("toy_posterior", "TYPE: skip approximation", "TOKEN · pass 0"),
    ("type_blocks", "Skip approximation", None),
    ("word_segmentation", "TYPE: skip approximation", "TOKEN · pass 0"),
    ("tag_trajectories", "TYPE: skip approximation", "TOKEN · pass 0"),
    ("sampler_race", "TYPE: skip approximation", "TOKEN · pass 0"),
]


def wait_loaded(page, first_label):
    if first_label:
        expect(page.locator(LABELS).first).to_have_text(re.compile(re.escape(first_label)))
    else:  # Type blocks: its status line, before any move
        expect(page.get_by_text(re.compile(r"^Move 0 · pass 1"))).to_be_visible()


def read_view(page, checkbox):
    sidebar = page.locator(SIDEBAR)
    return dict(seed=sidebar.get_by_role("spinbutton", name="Seed", exact=True).input_value(),
                skip=sidebar.get_by_role("checkbox", name=checkbox).is_checked())


@pytest.mark.parametrize("path, checkbox, first_label", LESSONS, ids=[p for p, *_ in LESSONS])
def test_a_shared_link_reopens_the_view_in_another_browser(browser, page, app_url, path,
                                                           checkbox, first_label):
    page.goto(f"{app_url}/{path}")
    wait_loaded(page, first_label)
    sidebar = page.locator(SIDEBAR)
    seed = sidebar.get_by_role("spinbutton", name="Seed", exact=True)
    seed.fill("7")
    seed.press("Enter")
    page.wait_for_url(re.compile(r"[?&]seed=7\b"))
    wait_idle(page)
    assert sidebar.get_by_role("checkbox", name=checkbox).is_checked()
    sidebar.get_by_text(checkbox, exact=True).click()
    page.wait_for_url(re.compile(r"[?&]skip=0\b"))
    wait_idle(page)
    link = page.url
    assert re.search(r"[?&]seed=7\b", link) and re.search(r"[?&]skip=0\b", link), link
    shown = read_view(page, checkbox)
    assert shown == dict(seed="7", skip=False)

    # the Share panel offers exactly this link
    sidebar.get_by_role("button", name="Share this view").click()
    codes = page.locator('[data-testid="stPopoverBody"] [data-testid="stCode"]')
    expect(codes.first).to_have_text(link)
    page.keyboard.press("Escape")

    if first_label:  # a race: one pass here; the link must open its own race at pass 0
        page.get_by_role("button", name="Step").click()
        expect(page.locator(LABELS).first).to_contain_text("pass 1")
        here = [text.replace("pass 1", "pass 0") for text in metric_labels(page)]
    else:
        status = page.get_by_text(re.compile(r"^Move 0 · pass 1")).inner_text()

    other = browser.new_context(viewport={"width": 1400, "height": 3200})
    try:
        fresh = other.new_page()
        fresh.set_default_timeout(60_000)
        fresh.goto(link)
        wait_loaded(fresh, first_label)
        wait_idle(fresh)
        # read with retries: under load a widget's box may still be drawing its value
        fresh_sidebar = fresh.locator(SIDEBAR)
        expect(fresh_sidebar.get_by_role("spinbutton", name="Seed", exact=True)).to_have_value("7")
        expect(fresh_sidebar.get_by_role("checkbox", name=checkbox)).not_to_be_checked()
        assert read_view(fresh, checkbox) == shown
        assert re.search(r"[?&]seed=7\b", fresh.url) and re.search(r"[?&]skip=0\b", fresh.url)
        expect(fresh.get_by_text("Ignored in the address")).to_have_count(0)
        if first_label:
            # every sampler's metric drawn first (on a slow host the last one came later)
            expect(fresh.locator(LABELS)).to_have_count(len(here))
            assert metric_labels(fresh) == here
            assert set(pass_numbers(fresh)) == {0}
        else:
            assert fresh.get_by_text(re.compile(r"^Move 0 · pass 1")).inner_text() == status
    finally:
        other.close()


def test_a_preset_link_and_a_bad_link(browser, app_url):
    context = browser.new_context(viewport={"width": 1400, "height": 3200})
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{app_url}/toy_posterior?preset=small-n-12-type-s-draws-m-by-m")
        expect(page.locator('[data-testid="stMetricValue"]').first).to_have_text("m = 12")
        sidebar = page.locator(SIDEBAR)
        expect(sidebar.get_by_role("spinbutton", name="n — copies of `ab`")).to_have_value("12")
        expect(sidebar.get_by_role("spinbutton", name="Passes per run")).to_have_value("50")

        page.goto(f"{app_url}/toy_posterior?seed=banana&colour=red")
        notice = page.locator('[data-testid="stAlert"]')
        expect(notice).to_contain_text("Ignored in the address")
        expect(notice).to_contain_text("seed=banana: the seed must be a whole number")
        expect(notice).to_contain_text("colour is not a setting of this page")
        expect(sidebar.get_by_role("spinbutton", name="Seed", exact=True)).to_have_value("0")
        expect(page.locator(LABELS).first).to_contain_text("pass 0")
    finally:
        context.close()


# --- 2. a run survives a visit to another page -------------------------------------------------
def test_a_run_survives_going_home_and_back(page, app_url):
    page.goto(f"{app_url}/word_segmentation")
    labels = page.locator(LABELS)
    expect(labels.first).to_contain_text("pass 0")
    for done in range(1, 4):  # one click at a time: a click during a rerun could be lost
        page.get_by_role("button", name="Step").click()
        expect(labels.first).to_contain_text(f"pass {done}")
    # the first label changes before the rest of the rerun has drawn: read the values only when
    # the rerun is over and every sampler shows pass 3 (a stale value once failed this test)
    expect_every_chain_at(page, 3)
    wait_idle(page)
    before = metric_values(page)

    nav = page.locator('[data-testid="stSidebarNav"]')
    nav.get_by_role("link", name="Home").click()
    expect(page.get_by_role("heading", name="Typeblocks")).to_be_visible()
    nav.get_by_role("link", name="Word segmentation").click()
    expect(page.get_by_role("heading", name="Word segmentation")).to_be_visible()
    expect(labels).to_have_count(5)
    expect_every_chain_at(page, 3)
    wait_idle(page)
    assert metric_values(page) == before


# --- 3. the keyboard ---------------------------------------------------------------------------
def test_keys_step_play_pause_and_reset_the_toy_race(page, app_url):
    page.goto(f"{app_url}/toy_posterior")
    labels = page.locator(LABELS)
    expect(labels.first).to_contain_text("pass 0")
    # the page drawn to its end, as a reader sees it before pressing a key: a key pressed while
    # the first run still draws the page was lost once in CI (no Step in 60 s)
    wait_idle(page)
    focus_page_body(page)

    page.keyboard.press("ArrowRight")
    expect_every_chain_at(page, 1)

    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Pause")).to_be_visible()
    page.wait_for_timeout(1500)
    page.keyboard.press("Space")
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    wait_idle(page)
    assert min(pass_numbers(page)) > 1, metric_labels(page)

    page.keyboard.press("0")
    expect_every_chain_at(page, 0)


# --- 4. no blank chart while playing -----------------------------------------------------------
# What the reader sees of each chart (ui.charts.show puts it in a container keyed by its name):
# the element containers of non-zero height in that place, each of which must hold a drawn
# Vega-Lite chart (an SVG) with marks. A container of height 0 (the stale copy Streamlit keeps
# while a remounted chart draws) is not on screen: it is only counted.
# Installed once per page: window.chartProblems(keys) → {problems, hidden, blanks (their boxes)};
# window.recordCharts(keys) checks every frame the browser paints until window.stopRecording().
WATCH_CHARTS = """() => {
  window.chartProblems = (keys) => {
    const main = document.querySelector('[data-testid="stMain"]');
    const found = {problems: [], hidden: 0, blanks: []};
    for (const key of keys) {
      const place = main.querySelector('.st-key-' + key);
      const boxes = place ? [...place.querySelectorAll('[data-testid="stElementContainer"]')] : [];
      const shown = boxes.filter(box => box.getBoundingClientRect().height > 0);
      found.hidden += boxes.length - shown.length;
      if (!shown.length) found.problems.push(key + ': missing');
      for (const box of shown) {
        const plot = box.querySelector('.vega-embed svg');
        const r = plot && plot.getBoundingClientRect();
        const traces = plot ? plot.querySelectorAll(
            'g.mark-line path, g.mark-rect path, g.mark-area path').length : 0;
        if (!plot) {
          found.problems.push(key + ': blank (no plot drawn yet)');
          const b = box.getBoundingClientRect();
          found.blanks.push({key, x: b.x, y: b.y, width: b.width, height: b.height});
        }
        else if (!traces) found.problems.push(key + ': a plot with no data');
        else if (!r.width || !r.height) found.problems.push(key + ': a plot of size 0');
      }
    }
    return found;
  };
  window.recordCharts = (keys) => {
    const rec = window.chartRecord = {frames: 0, bad: 0, hidden: 0, longestBlankMs: 0,
                                      first: null, seconds: 0};
    let blankSince = null, stop = false;
    const began = performance.now();
    window.stopRecording = () => { stop = true; rec.seconds = (performance.now() - began) / 1000;
                                   return rec; };
    const frame = now => {
      if (stop) return;
      const found = window.chartProblems(keys);
      rec.frames++;
      if (found.hidden) rec.hidden++;
      if (found.problems.length) {
        rec.bad++;
        if (!rec.first) rec.first = found.problems;
        if (blankSince === null) blankSince = now;
      } else if (blankSince !== null) {  // how long the blank stayed on screen
        rec.longestBlankMs = Math.max(rec.longestBlankMs, Math.round(now - blankSince));
        blankSince = null;
      }
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  };
}"""

LIVE_CHARTS = {
    "toy_posterior": ["toy_race_chart"],
    "word_segmentation": ["seg_loglik_chart", "seg_f_chart"],
    "tag_trajectories": ["hmm_chart_loglik", "hmm_chart_acc_many_to_one", "hmm_heat_token",
                         "hmm_heat_type", "hmm_word_chart", "hmm_confusion"],
    "sampler_race": ["race_loglik_time", "race_loglik_sweeps", "race_token_f_time",
                     "race_token_f_sweeps", "race_scalar_trace"],
    "hmm_estimators": ["gj_chart_loglik", "gj_chart_objective", "gj_chart_acc_many_to_one",
                       "gj_chart_acc_one_to_one", "gj_chart_acc_cross_validation",
                       "gj_chart_vi"],
}


def white_in(png, boxes):
    """The keys of ``boxes`` that are (almost) plain white in the screenshot ``png``."""
    import io

    from PIL import Image
    image = Image.open(io.BytesIO(png)).convert("L")
    white = []
    for box in boxes:
        crop = image.crop((int(box["x"]) + 4, int(box["y"]) + 4,
                           int(box["x"] + box["width"]) - 4, int(box["y"] + box["height"]) - 4))
        histogram = crop.histogram()
        if sum(histogram[250:]) >= 0.995 * sum(histogram):
            white.append(box["key"])
    return white


@pytest.mark.parametrize("path", list(LIVE_CHARTS))
def test_no_chart_goes_blank_while_playing(page, app_url, path):
    keys = LIVE_CHARTS[path]
    page.goto(f"{app_url}/{path}?passes=5000")  # a run that outlasts the test
    expect(page.locator(LABELS).first).to_contain_text(re.compile(r"(pass|iteration) 0\b"))
    for key in keys:  # each live chart drawn (the page's still charts besides them)
        expect(page.locator(f".st-key-{key} .vega-embed svg")).to_have_count(1)
    page.evaluate(WATCH_CHARTS)
    assert page.evaluate("keys => window.chartProblems(keys)", keys)["problems"] == []
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("button", name="Pause")).to_be_visible()

    page.evaluate("keys => window.recordCharts(keys)", keys)
    samples, bad, first_bad, shot = 0, 0, None, ARTIFACTS / f"blank_chart_{path}.png"
    seen_white, tries = [], 0  # a screenshot lags the sample: keep one that shows the blank
    started = time.monotonic()
    while time.monotonic() - started < 6:  # and a sample every 150 ms from here
        found = page.evaluate("keys => window.chartProblems(keys)", keys)
        samples += 1
        if found["problems"]:
            bad += 1
            first_bad = first_bad or found["problems"]
            if not seen_white and tries < 5 and found["blanks"]:
                tries += 1
                png = page.screenshot()
                seen_white = white_in(png, found["blanks"])
                if seen_white or tries == 1:
                    ARTIFACTS.mkdir(exist_ok=True)
                    shot.write_bytes(png)
        page.wait_for_timeout(150)
    frames = page.evaluate("window.stopRecording()")
    passes = pass_numbers(page)
    page.get_by_role("button", name="Pause").click()
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    if seen_white:
        evidence = f"{shot.name} shows {seen_white} as a white box"
    elif tries:
        evidence = f"{shot.name}, taken just after the blank (the chart had drawn by then)"
    else:
        evidence = "no screenshot"
    report = (f"{path}: sampled every 150 ms: {bad} of {samples} samples had a chart missing or "
              f"blank (first: {first_bad}; {evidence}); painted frames: {frames['bad']} of "
              f"{frames['frames']} in {frames['seconds']:.1f} s "
              f"({frames['frames'] / frames['seconds']:.0f} frames/s), longest blank "
              f"{frames['longestBlankMs']} ms, {frames['hidden']} frames held a hidden stale "
              f"copy of a chart (a remount); passes reached {passes}")
    print(report)
    assert bad == 0 and frames["bad"] == 0, report


# --- 5. a phone's first screen -----------------------------------------------------------------
def test_on_a_phone_play_and_the_first_chart_are_on_the_first_screen(browser, app_url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True, device_scale_factor=2)
    try:
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(f"{app_url}/word_segmentation")
        expect(page.locator(LABELS).first).to_contain_text("pass 0")
        chart = page.locator('[data-testid="stMain"] .vega-embed').first
        expect(chart).to_be_attached()
        wait_idle(page)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "phone_word_segmentation.png"))
        play = page.get_by_role("button", name="Play").bounding_box()
        top = chart.bounding_box()["y"]
        # what stands above the first chart, top to bottom: (y, height, text)
        blocks = page.evaluate("""() => [...document.querySelectorAll(
              '[data-testid="stMainBlockContainer"] > [data-testid="stVerticalBlock"] > *')]
            .map(e => { const r = e.getBoundingClientRect();
                        return [Math.round(r.top), Math.round(r.height),
                                (e.innerText || '').split('\\n')[0].slice(0, 30)]; })""")
        assert play["y"] + play["height"] <= 844, f"Play ends at y = {play['y'] + play['height']}"
        # its title and the upper part of its plot, not just a sliver
        assert top + 150 <= 844, f"the first chart starts at y = {top:.0f}; above it: {blocks}"
    finally:
        context.close()


# --- 6. Pause answers within a tick ------------------------------------------------------------
PAUSE_LATENCY = """async () => {
  const button = () => document.querySelector('.st-key-hmm_play button, .st-key-hmm_pause button');
  const says = word => (button() ? button().innerText : '').includes(word);
  if (!says('Pause')) return null;
  return await new Promise(resolve => {
    let start;
    const watch = new MutationObserver(() => {
      if (says('Play')) { watch.disconnect(); resolve(performance.now() - start); }
    });
    watch.observe(document.body, {subtree: true, childList: true, characterData: true});
    start = performance.now();
    button().click();
    setTimeout(() => { watch.disconnect(); resolve(-1); }, 15000);
  });
}"""


def test_pause_answers_within_a_tick(page, app_url):
    page.goto(f"{app_url}/tag_trajectories?passes=5000&speed=50")
    expect(page.locator(LABELS).first).to_contain_text("pass 0")
    expect(page.get_by_role("slider", name=re.compile("Speed"))).to_have_attribute(
        "aria-valuetext", re.compile("50"))
    limit = 300 + 1000 * INTERVAL
    latencies = []
    for delay in (1300, 1750, 2150):  # land the click at different points of a tick
        page.get_by_role("button", name="Play").click()
        expect(page.get_by_role("button", name="Pause")).to_be_visible()
        page.wait_for_timeout(delay)
        latencies.append(page.evaluate(PAUSE_LATENCY))
        expect(page.get_by_role("button", name="Play")).to_be_visible()
        wait_idle(page)
    print(f"pause latencies (ms): {[round(ms) for ms in latencies]}")
    assert None not in latencies and -1 not in latencies, latencies
    # the target is the median click's; a click that lands while the browser draws a tick may
    # wait one tick more. On the Intel host (2026-11-29) Chromium's drawing of this page's six
    # charts kept its main thread busy 80-96 % of the time while playing, and clicks answered in
    # 0.8-1.7 s (CI: 1,044, 1,055 and 1,668 ms); with the two heatmaps drawn as pictures and
    # the lines' newest points sent apart (ui/charts.py), 40-50 %, and 0.2-0.9 s
    median = statistics.median(latencies)
    assert median <= limit and max(latencies) <= limit + 1000 * INTERVAL, (
        f"Pause took {[round(ms) for ms in latencies]} ms (median {median:.0f}); the target "
        f"is a median ≤ {limit:.0f} ms (300 ms + one {INTERVAL} s tick), every click within "
        "one tick more")
