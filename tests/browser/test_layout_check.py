"""The layout check itself (offscreen.js): it finds a control a finger cannot hit."""

from __future__ import annotations

import pytest

from tests.browser.conftest import NewPage
from tests.browser.layout import OFF_SCREEN, SIZES

# A table head, and a 60 px control in the middle of the screen that the step needs; a
# box `cover` px wide lies on its right part (placed through CSSOM: the site's
# Content-Security-Policy refuses style attributes).
PAGE = """(cover) => {
  document.body.innerHTML = `<div class="table-head">Anna</div>
    <main><button data-needed="action" data-testid="cook">Cook</button>
    <div class="cover"></div></main><p id="banner">Your turn</p>`;
  document.querySelector("[data-testid=cook]").style.cssText =
    "position:absolute;left:100px;top:300px;width:60px;height:60px";
  document.querySelector(".cover").style.cssText =
    `position:absolute;left:${160 - cover}px;top:300px;width:${cover}px;height:60px;` +
    "background:#000";
}"""


@pytest.mark.parametrize(
    "cover, problem",
    [
        (0, None),
        (16, None),  # 44 px of it is left
        (20, "cook: 40x60 px of it can be touched (at least 44x44)"),
        (60, "cook is covered by"),
    ],
)
def test_a_control_needs_an_uncovered_44_px_square_on_a_phone(
    new_page: NewPage, cover: int, problem: str | None
) -> None:
    page = new_page(viewport=SIZES["phone"])
    page.goto("/rules/pilzwanderung")
    page.evaluate(PAGE, cover)
    problems = page.evaluate(OFF_SCREEN, True)
    if problem is None:
        assert problems == []
    else:
        assert any(found.startswith(problem) for found in problems), problems
