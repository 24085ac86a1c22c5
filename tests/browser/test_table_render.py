"""The table draws through one render() (static/js/table/render.js): every handler changes the
shell and calls it, so it must be safe to call at any time. Called again with nothing
changed, it draws nothing anew: no node of the page is replaced and no text rewritten, so a
control stays under the pointer, the focus and what is typed stay where they were."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import NewPage
from tests.browser.players import act_and_wait, create_room, wait_for_state

# The page's own render() (the same module as the table's), called three times while every
# node added, removed or rewritten under <body> is noted.
RENDER_AGAIN = """async () => {
  const { render } = await import('/static/js/table/render.js');
  const seen = [];
  const observer = new MutationObserver((records) => seen.push(...records));
  observer.observe(document.body, { childList: true, characterData: true, subtree: true });
  render();
  render();
  render();
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 50)));
  seen.push(...observer.takeRecords());
  observer.disconnect();
  const where = (node) => node.id || node.parentElement?.id || node.nodeName;
  return seen.map((record) => `${record.type} in ${where(record.target)}`);
}"""


def test_render_again_draws_nothing_anew(new_page: NewPage) -> None:
    page = new_page(motion=False)
    create_room(page, "scoundrel", "Anna")
    wait_for_state(page)
    act_and_wait(page, page.locator("#board [data-testid^='take-']").first.click)
    chat = page.locator("#chat-input")
    chat.fill("Hallo")
    chat.press("Enter")
    expect(page.locator("#chat-list .chat-text")).to_have_text(["Hallo"])
    chat.fill("typed, not sent")
    expect(page.locator("#log-list .log-turn")).to_have_count(1)

    assert page.evaluate(RENDER_AGAIN) == []
    expect(chat).to_be_focused()
    expect(chat).to_have_value("typed, not sent")
