"""A turn-based move's time running out, lived through in no time: the server's clock is
moved on through TEST_CLOCK_FILE (the way for the "simulated days" scenarios), the
browser's through Playwright's clock."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NewPage
from tests.browser.players import create_turn_based_room, is_my_turn, join_by_link
from tests.browser.test_turn_based import shots

DAY_SECONDS = 86_400


@pytest.fixture(scope="module")
def clock_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("clock") / "seconds-ahead"


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory, clock_file: Path) -> Iterator[str]:
    """A server whose clock runs ahead by the seconds in `clock_file`, looking for run-out
    turns five times a second; the computer answers at once."""
    from tests.browser.conftest import serve

    with serve(
        tmp_path_factory.mktemp("turn-time-server"),
        TEST_CLOCK_FILE=str(clock_file),
        TURN_CHECK_SECONDS="0.2",
        BOT_MOVE_DELAY_SECONDS="0",
    ) as url:
        yield url


def test_a_run_out_time_is_offered_and_the_log_says_so(new_page: NewPage, clock_file: Path) -> None:
    ada, bo = new_page(), new_page()
    for page in (ada, bo):
        page.clock.install()
    url = create_turn_based_room(ada, "expeditionen", "Ada", days="1 day")
    join_by_link(bo, url, "Bo")
    mover, waiter = (ada, bo) if is_my_turn(ada) else (bo, ada)
    name = "Ada" if mover is ada else "Bo"
    mover.goto("/games")  # away from the table: in a turn-based room that is fine
    mover.wait_for_selector("body[data-ready]")

    clock_file.write_text(str(DAY_SECONDS + 3600))  # a day and an hour later
    for page in (mover, waiter):
        page.clock.fast_forward("25:00:00")
    offer = waiter.get_by_test_id("takeover")
    expect(offer).to_contain_text(f"{name}'s time for this move ran out.")
    expect(waiter.get_by_test_id("turn-clock")).to_contain_text(f"{name}'s time ran out")
    shots(waiter, "ran-out")
    mover.reload()
    mover.wait_for_selector("body[data-ready]")
    expect(mover.get_by_test_id("your-game")).to_contain_text("Your time ran out")
    expect(mover).to_have_title("(1) Kartenrunde")

    waiter.get_by_role("button", name=f"Let the computer play for {name}").click()
    expect(offer).to_have_count(0)
    waiter.wait_for_selector("#banner.is-mine")
    if waiter.locator("#log-toggle").is_visible():  # the desktop shows the log beside
        waiter.locator("#log-toggle").click()
    expect(waiter.get_by_test_id("log-time-ran-out")).to_have_text(f"{name}'s time ran out")
    shots(waiter, "ran-out-log")
    mover.goto(url)  # back at the table: its own log says it in the second person
    mover.wait_for_selector("body[data-ready]")
    expect(mover.locator("#log-list li").first).to_be_attached()
    if mover.locator("#log-toggle").is_visible():
        mover.locator("#log-toggle").click()
    expect(mover.get_by_test_id("log-time-ran-out")).to_have_text("Your time ran out")
    shots(mover, "ran-out-own-log")
