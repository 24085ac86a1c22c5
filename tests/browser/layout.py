"""The table fits the screen: on two phone sizes and two desktop sizes, everything a player needs
for the current step (the cards to choose from, the buttons, the health or score) is on screen
without scrolling and not covered, and on phones every control is at least 44x44 px.

Each game module marks what the current step needs with data-needed; ``check_fits`` fails when
one of those elements lies outside the viewport or under something else. Each game's layout
tests are its own (tests/browser/test_<game>_layout.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from tests.browser.conftest import SCREENSHOTS, shoot

SIZES = {
    "phone": {"width": 390, "height": 844},
    "phone-landscape": {"width": 844, "height": 390},
    "laptop": {"width": 1280, "height": 800},
    "desktop": {"width": 1366, "height": 768},
}
PHONES = {"phone", "phone-landscape"}

# Every element marked as needed, and the turn banner, must be inside the viewport and be what
# the player sees at a point inside it (cards overlap: the point is near their top-left corner).
OFF_SCREEN = (Path(__file__).parent / "offscreen.js").read_text()
TARGETS = (Path(__file__).parent / "targets.js").read_text()
# The table at rest: a card still travelling to its place (static/js/motion.js, 420 ms) or
# glowing as just moved lies over its neighbours for a moment. The screenshot taken before
# each check finishes such animations (Playwright's animations="disabled"), but not on CI,
# where none is drawn: there a card in flight over the decay pile once failed the check. So
# the check finishes them itself, as the screenshot would; endless ones keep running.
AT_REST = """() => {
  for (const animation of document.getAnimations())
    if (animation.effect?.getComputedTiming().endTime !== Infinity) animation.finish();
}"""


def resize(page: Page, size: dict[str, int]) -> None:
    """The viewport at ``size``, once the page has answered: a media query's change event
    (a Pilzwanderung display folds on phones) runs with the next frame, not at once, and
    measuring before it once found the board 8 px too tall; animations are finished."""
    page.set_viewport_size(size)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)))")
    page.evaluate(AT_REST)


def check_fits(page: Page, name: str, sizes: tuple[str, ...] = tuple(SIZES)) -> None:
    """At every size: nothing needed is off screen; saves what the player sees."""
    original = page.viewport_size
    problems: list[str] = []
    for label in sizes:
        resize(page, SIZES[label])
        page.evaluate("window.scrollTo(0, 0)")
        shoot(page, SCREENSHOTS / f"layout-{name}-{label}.png", animations="disabled")
        problems += [f"{label}: {p}" for p in page.evaluate(OFF_SCREEN, label in PHONES)]
        if label in PHONES:
            problems += [f"{label}: {p} (at least 44x44)" for p in small_targets(page)]
    if original:
        page.set_viewport_size(original)
    assert problems == [], f"{name}: " + "; ".join(problems)


def small_targets(page: Page, within: str | None = None) -> list[str]:
    """The controls a finger may tap (of the open dialog, else of the page; or of
    ``within``) smaller than 44x44 px."""
    if within is None and page.locator("[aria-modal='true']").count():
        within = "[aria-modal='true']"
    return list(page.evaluate(TARGETS, within))


def needed(page: Page) -> set[str]:
    """What the game module marks as needed for the current step (data-needed)."""
    return set(
        page.locator("#board [data-needed]").evaluate_all("els => els.map(e => e.dataset.needed)")
    )


def render_state(
    page: Page,
    game: str,
    message: dict[str, Any],
    names: list[str],
    recent: list[dict[str, Any]] | None = None,
) -> None:
    """Draws a `state` message with the game's own module on the page's board, as the table
    would (to check a step that is slow to reach by playing); `recent` are the last moves
    ({seat, action, took}) the table marks."""
    page.evaluate(
        """([game, state, names, recent]) => import(`/static/js/games/${game}.js`).then(module => {
            const board = document.getElementById('board');
            const ctx = { seat: state.seat, readOnly: false, pending: false, offline: false,
              ui: {}, recent, act() {}, say() {}, name: seat => names[seat] };
            ctx.rerender = () => module.render(board, state, ctx);
            ctx.rerender();
        })""",
        [game, message, names, recent or []],
    )


# The parts of the board's layout (Expeditionen's rows, Pilzwanderung's displays and forest)
# that are drawn over one another: a part squeezed into too little room draws past its box.
OVERLAP = (Path(__file__).parent / "overlap.js").read_text()


def overlapping_parts(page: Page) -> list[str]:
    """The parts of the board's layout drawn over one another, as "a overlaps b by n px"."""
    return list(page.evaluate(OVERLAP))
