"""Live charts in a real Chromium: they never dim while a race plays (Streamlit fades what a
rerun has not redrawn yet; on a projector the charts flickered), and before Play every chart
shows each sampler at pass 0."""
from playwright.sync_api import expect

from tests.e2e.test_classroom import LABELS

# the lowest opacity of each chart, its ancestors' included (what the eye sees)
CHART_OPACITY = """() => [...document.querySelectorAll('[data-testid="stMain"] .vega-embed')]
  .map(e => { let o = 1;
              for (let x = e; x; x = x.parentElement) o = Math.min(o, +getComputedStyle(x).opacity);
              return o; })"""
# the samplers' points drawn in each chart (their tooltips name the sampler)
SAMPLER_POINTS = """() => [...document.querySelectorAll('[data-testid="stMain"] .vega-embed svg')]
  .map(s => [...s.querySelectorAll('path[aria-roledescription="point"]')]
            .filter(p => /sampler: /.test(p.getAttribute('aria-label') || '')).length)"""


def test_estimators_charts_show_pass_zero_and_never_dim_while_playing(page, app_url,
                                                                       screenshot):
    page.goto(f"{app_url}/hmm_estimators")
    expect(page.locator(LABELS).first).to_contain_text("iteration 0")
    expect(page.locator('[data-testid="stMain"] .vega-embed svg')).to_have_count(6)
    # six estimators at iteration 0, EM's and VB's objective among them
    assert page.evaluate(SAMPLER_POINTS) == [6, 6, 6, 6, 6, 6]
    page.get_by_role("button", name="Play").click()
    expect(page.get_by_role("button", name="Pause")).to_be_visible()
    lowest = []
    for _ in range(10):  # two ticks a second: a burst over about five ticks
        lowest.append(min(page.evaluate(CHART_OPACITY)))
        page.wait_for_timeout(250)
    screenshot("hmm_estimators_playing")
    page.get_by_role("button", name="Pause").click()
    expect(page.get_by_role("button", name="Play")).to_be_visible()
    assert min(lowest) > 0.99, lowest
