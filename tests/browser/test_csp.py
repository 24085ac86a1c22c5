"""The site's Content-Security-Policy in the browser: what it refuses is reported to the
tests (tests/browser/conftest.py), so every browser test fails on a violation."""

from __future__ import annotations

from playwright.sync_api import Route

from tests.browser.conftest import VIOLATIONS, NewPage, wait_until

PLANTED = (
    '<script>document.title = "planted";</script>'
    '<p style="color: red">planted</p>'
    '<img src="https://example.org/planted.png" alt="">'
)


def plant(route: Route) -> None:
    """The page as the server sent it (its headers, the policy included), with a planted
    inline script, style attribute and foreign image."""
    answer = route.fetch()
    route.fulfill(response=answer, body=answer.text().replace("</main>", PLANTED + "</main>"))


def test_a_planted_inline_script_style_and_image_are_reported(new_page: NewPage) -> None:
    page = new_page()
    page.route("**/rules/scoundrel", plant)
    page.goto("/rules/scoundrel")
    wait_until(page, "() => (window.__cspViolations ?? []).length >= 3")
    seen = VIOLATIONS.take()
    reports = [line for line in seen if ": console: " not in line]
    assert any("script-src-elem refused inline" in line for line in reports), seen
    assert any("style-src-attr refused inline" in line for line in reports), seen
    assert any("img-src refused https://example.org/planted.png" in line for line in reports), seen
    assert any("console: Executing inline script violates" in line for line in seen), seen
    assert page.title() != "planted"
