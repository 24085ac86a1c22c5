"""Scoundrel fits every screen (tests/browser/layout.py says what that means)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import NewPage
from tests.browser.layout import SIZES, check_fits
from tests.browser.players import act_and_wait, create_room


def test_scoundrel_fits_every_screen(new_page: NewPage) -> None:
    page = new_page(viewport=SIZES["phone"])
    create_room(page, "scoundrel", "Dana")
    expect(page.locator("#board [data-testid^='take-']").first).to_be_visible()
    check_fits(page, "scoundrel-room")
    weapon = page.locator("#board [data-testid^='take-'][data-testid$='-bare']").first
    for _ in range(3):
        equip = page.locator(".sc-slot-weapon [data-testid^='take-']")
        act_and_wait(page, (equip.first if equip.count() else weapon).click)
        if page.locator("#end").is_visible():
            return
    check_fits(page, "scoundrel-later")
