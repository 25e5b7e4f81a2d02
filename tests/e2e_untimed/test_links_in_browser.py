"""Links in a real browser, where only a browser shows it: an unknown page in the address said on
Home (Streamlit opens Home without a word), the share link's copy button visible without a
pointer over it, and a page embedded as a half of Side by side without its own sidebar and
Presenter switch, and Side by side's halves embedded without Streamlit's removed iframe call.
Pages without kernels of their own (Home, Side by side), so each takes seconds."""
from urllib.parse import urlsplit

from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS
from ui import presenter

WAIT = 60_000  # ms: a server's first page waits for Streamlit's start
NOTICE = '[data-testid="stAlert"]'


def test_an_unknown_page_is_said_on_home(page, app_url):
    page.goto(f"{app_url}/no_such_page")
    expect(page.locator(NOTICE).filter(has_text="Ignored in the address")).to_contain_text(
        "there is no page no_such_page: this is Home", timeout=WAIT)
    expect(page.get_by_text("An interactive lab for why")).to_be_visible()


def test_the_share_links_copy_button_is_visible(page, app_url):
    page.goto(f"{app_url}/side_by_side")
    page.get_by_text("Share this view").first.click()
    copy = page.locator('[data-testid="stCode"]').first.get_by_role(
        "button", name="Copy to clipboard")
    page.mouse.move(0, 0)  # the pointer away from the link
    expect(copy).to_be_visible()


def test_an_embedded_half_has_no_sidebar_nor_presenter_switch(page, app_url):
    page.goto(f"{app_url}/?embed=true")
    expect(page.get_by_text("An interactive lab for why")).to_be_visible(timeout=WAIT)
    expect(page.locator('[data-testid="stSidebar"]')).to_be_hidden()
    expect(page.locator('[data-testid="stExpandSidebarButton"]')).to_be_hidden()
    expect(page.locator(".st-key-presenter_switch")).to_have_count(0)
    # it follows the page's presenter mode from its address
    page.goto(f"{app_url}/?embed=true&presenter=1")
    page.wait_for_function(
        f"getComputedStyle(document.documentElement).fontSize === '{presenter.LEGIBLE}px'")


def test_side_by_side_embeds_its_halves_without_the_removed_iframe_call(page, app_url):
    """Streamlit logged "Please replace `st.components.v1.iframe` with `st.iframe`" (its removal
    date passed): the halves are st.iframe's, each the lesson in embed mode."""
    page.goto(f"{app_url}/side_by_side")
    frames = page.locator("iframe")
    expect(frames).to_have_count(2, timeout=WAIT)
    assert all("embed=true" in frame.get_attribute("src") for frame in frames.all())
    log = ARTIFACTS / f"server-{urlsplit(app_url).port}.log"
    assert "st.components.v1.iframe" not in log.read_text(errors="replace")
