"""Every preset, chosen in the browser after every other preset of its page, shows the same
widgets as its own link opened fresh (issue 25: a preset chosen after another model's preset
left that model's options at their minimum in the browser while the server held the preset's
values). One walk per page chooses the presets in an order that passes through every ordered
pair (A then B) once: an Eulerian circuit of the complete directed graph on the presets."""
import re

import pytest
from playwright.sync_api import expect

from ui.settings import PRESET, slug

PAGES = ["toy_posterior", "type_blocks", "word_segmentation", "tag_trajectories",
         "hmm_estimators", "restaurants", "particle_filter", "sampler_race", "tree_fragments"]

# What each kind of widget shows, keyed by its kind and label: read from the DOM, so a value
# the server holds but the browser does not show is caught.
WIDGETS_JS = """() => {
  const shown = {};
  const kinds = ['stNumberInput', 'stTextInput', 'stCheckbox', 'stToggle', 'stSelectbox',
                 'stMultiSelect', 'stRadio', 'stSlider', 'stSelectSlider'];
  for (const kind of kinds) {
    document.querySelectorAll(`[data-testid="${kind}"]`).forEach((el, i) => {
      if (!el.checkVisibility()) return;  // an element of the last run, kept until this one ends
      const label = el.querySelector('[data-testid="stWidgetLabel"]');
      let key = `${kind}:${label ? label.innerText.trim() : i}`;
      while (key in shown) key += "'";  // two widgets of one label (a race's and a grid's)
      let value;
      if (kind === 'stNumberInput' || kind === 'stTextInput') {
        value = el.querySelector('input').value;
      } else if (kind === 'stCheckbox' || kind === 'stToggle') {
        value = String(el.querySelector('input').checked);
      } else if (kind === 'stRadio') {
        const on = el.querySelector('input:checked');
        value = on ? on.closest('label').innerText.trim() : '';
      } else if (kind === 'stSlider' || kind === 'stSelectSlider') {
        value = Array.from(el.querySelectorAll('input[type="range"]'))
          .map(s => s.getAttribute('aria-valuetext')).join('|');
      } else if (kind === 'stMultiSelect') {
        value = Array.from(el.querySelectorAll('[data-tag] [title]')).map(t => t.title).join('|');
      } else {  // a selectbox: its choice, or the placeholder it shows without one
        const input = el.querySelector('input');
        value = input.value || `(${input.placeholder})`;
      }
      shown[key] = value;
    });
  }
  for (const [key, value] of Object.entries(shown))
    if (value === '' && !key.startsWith('stTextInput') && !key.startsWith('stNumberInput'))
      throw new Error(`no value read from ${key}: the page's markup has changed`);
  return shown;
}"""


def eulerian_order(k):
    """Indices 0 … k−1 in an order in which every ordered pair (a, b), a ≠ b, appears once as
    consecutive items (Hierholzer's algorithm on the complete directed graph)."""
    unused = {a: [b for b in range(k) if b != a] for a in range(k)}
    stack, order = [0], []
    while stack:
        if unused[stack[-1]]:
            stack.append(unused[stack[-1]].pop())
        else:
            order.append(stack.pop())
    return order[::-1]


def test_eulerian_order_passes_every_ordered_pair_once():
    for k in range(1, 6):
        order = eulerian_order(k)
        pairs = list(zip(order, order[1:]))
        assert sorted(pairs) == sorted((a, b) for a in range(k) for b in range(k) if a != b)


def idle(page):
    """Until Streamlit's running indicator has gone (and stayed gone for a moment)."""
    status = page.locator('[data-testid="stStatusWidget"]')
    for _ in range(2):
        page.wait_for_timeout(300)
        expect(status).to_have_count(0, timeout=240_000)


def preset_box(page):
    return page.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').filter(
        has_text="Preset")


def opened(page, url):
    """Open ``url`` and wait until its run has ended: the widgets below a long computation
    (the toy's escape times at n = 100,000) are drawn after it."""
    page.goto(url)
    expect(preset_box(page)).to_be_visible(timeout=120_000)
    seen = []  # idle, and the same widgets three times 0.4 s apart: the run has drawn all
    while len(seen) < 3 or seen[-1] != seen[-2] or seen[-2] != seen[-3]:
        idle(page)
        seen.append(shown_widgets(page))
        page.wait_for_timeout(400)


def shown_widgets(page):
    return {key: value for key, value in page.evaluate(WIDGETS_JS).items()
            if not key.startswith("stSelectbox:Preset")}  # the box itself: what it names


def preset_labels(page):
    preset_box(page).locator("input").click()
    labels = [o.inner_text().strip() for o in page.get_by_role("option").all()]
    page.keyboard.press("Escape")
    return labels


def choose(page, label):
    preset_box(page).locator("input").click()
    page.get_by_role("option", name=re.compile(f"^{re.escape(label)}$")).click()


@pytest.mark.parametrize("path", PAGES)
def test_every_preset_after_every_other_shows_its_links_widgets(page, app_url, path):
    opened(page, f"{app_url}/{path}")
    labels = preset_labels(page)
    assert labels, f"{path} offers no preset"
    expected = {}
    for label in labels:
        opened(page, f"{app_url}/{path}?{PRESET}={slug(label)}")
        expected[label] = shown_widgets(page)
    opened(page, f"{app_url}/{path}")
    order = [labels[i] for i in eulerian_order(len(labels))]
    for before, label in zip([None, *order], order):
        choose(page, label)
        assert settled_widgets(page, expected[label]) == expected[label], (
            f"{label!r} after {before!r} on {path}")


def settled_widgets(page, expected, seconds=60):
    """The widgets shown once they equal ``expected`` or after ``seconds``, read again when
    the page is idle (a wrong value sent after the right one must fail): the rerun a click
    causes may take a while on a machine busy with other tests."""
    for _ in range(4 * seconds):
        if shown_widgets(page) == expected:
            break
        page.wait_for_timeout(250)
    idle(page)
    return shown_widgets(page)
