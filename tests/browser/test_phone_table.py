"""The table's frame on a phone and on a laptop, in all three games: the banner tells what to
do and what the other player just did, one short line each; the move log opens as a sheet
that leaves the current step in sight; the header shows the players' names in full; an offer
above the board pushes the table down rather than squeezing it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import PHONE, SCREENSHOTS, NewPage, shoot
from tests.browser.layout import PHONES, SIZES, check_fits, overlapping_parts, resize
from tests.browser.players import (
    act_and_wait,
    choose_language,
    create_room,
    create_turn_based_room,
    is_my_turn,
    join_by_link,
)
from tests.browser.test_pilzwanderung_layout import pilz_ply

SCHEMES = ("light", "dark")


def duel(module_page: NewPage, game: str, names: tuple[str, str]) -> tuple[Page, Page]:
    """Two players on phones at a table of `game`, both seated."""
    anna = module_page(viewport=SIZES["phone"])
    ben = module_page(viewport=SIZES["phone"])
    join_by_link(ben, create_room(anna, game, names[0]), names[1])
    expect(anna.locator("#banner")).to_contain_text("turn")
    return anna, ben


def first_turn(page: Page, other: Page, game: str) -> None:
    """The mover's whole turn, the simplest way the game allows."""
    if game == "pilzwanderung":
        pilz_ply(page, other)
        return
    page.locator("#board button.card[data-testid^='hand-']").first.click()
    act_and_wait(page, page.get_by_test_id("discard").click, (other,))
    act_and_wait(page, page.get_by_test_id("draw-deck").click, (other,))


@pytest.fixture(scope="module")
def tables(module_page: NewPage) -> dict[str, Page]:
    """For each game, the page of a player whose turn it is after a move was made: a step to
    take and a move to read about."""
    pages = {}
    for game in ("expeditionen", "pilzwanderung"):
        anna, ben = duel(module_page, game, ("Anna", "Benedikt"))
        page, other = (anna, ben) if is_my_turn(anna) else (ben, anna)
        first_turn(page, other, game)
        pages[game] = other
    solo = module_page(viewport=SIZES["phone"])
    create_room(solo, "scoundrel", "Anna")
    act_and_wait(solo, solo.locator("#board [data-testid^='take-']").first.click)
    pages["scoundrel"] = solo
    for page in pages.values():
        assert is_my_turn(page)
    return pages


def banner_lines(page: Page) -> dict[str, float]:
    """How many lines the turn hint and the last move take (0: not shown)."""
    return page.evaluate(
        """() => Object.fromEntries(['.banner-hint:not(.last-move)', '.last-move'].map(sel => {
            const el = document.querySelector('#banner ' + sel);
            const box = el?.getBoundingClientRect();
            if (!box?.height) return [sel, 0];
            const style = getComputedStyle(el);
            const line = parseFloat(style.lineHeight) || 1.2 * parseFloat(style.fontSize);
            return [sel, Math.round(box.height / line * 10) / 10];
        }))"""
    )


CUT_HINTS = """() => [...document.querySelectorAll('#banner .banner-hint:not(.last-move)')]
    .filter(el => el.getBoundingClientRect().height && el.scrollWidth > el.clientWidth + 1)
    .map(el => el.textContent)"""


def cut_hints(page: Page) -> list[str]:
    """The banner's hints (the step, the time left, the countdown) drawn cut short."""
    found: list[str] = page.evaluate(CUT_HINTS)
    return found


@pytest.mark.parametrize("game", ["expeditionen", "pilzwanderung", "scoundrel"])
def test_the_banner_says_what_to_do_in_full_and_what_happened_in_a_line(
    tables: dict[str, Page], game: str
) -> None:
    """Issue 53: the step was cut with "…" on a phone; it wraps now, only the last move
    keeps to one line (the log has it in full)."""
    page = tables[game]
    problems = []
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        for label, size in SIZES.items():
            resize(page, size)
            lines = banner_lines(page)
            for part, count in lines.items():
                if count == 0:
                    problems.append(f"{label}: {part} is hidden")
            if label in PHONES and lines[".last-move"] > 1.5:
                problems.append(f"{label}: the last move takes {lines['.last-move']} lines")
            problems += [f"{label}: cut: {hint}" for hint in cut_hints(page)]
        check_fits(page, f"phone-banner-{game}-{scheme}")
    assert problems == [], "; ".join(problems)


def cut_names(page: Page) -> list[str]:
    """The seat names the header cuts short."""
    return page.locator(".seat-name").evaluate_all(
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 0.5).map(e => e.textContent)"
    )


@pytest.mark.parametrize("game", ["expeditionen", "pilzwanderung", "scoundrel"])
def test_the_header_shows_the_players_names_in_full(tables: dict[str, Page], game: str) -> None:
    page = tables[game]
    problems = []
    for lang in ("de", "en"):
        choose_language(page, lang)
        for label, size in SIZES.items():
            resize(page, size)
            shoot(page, SCREENSHOTS / f"phone-names-{game}-{lang}-{label}.png")
            problems += [f"{lang} {label}: {name} is cut" for name in cut_names(page)]
    assert problems == [], "; ".join(problems)


@pytest.mark.parametrize("game", ["expeditionen", "pilzwanderung", "scoundrel"])
def test_the_move_log_on_a_phone_is_a_sheet_that_leaves_the_step_in_sight(
    tables: dict[str, Page], game: str
) -> None:
    page = tables[game]
    problems = []
    for label in PHONES:
        page.set_viewport_size(SIZES[label])
        page.locator("#log-toggle").click()
        expect(page.locator("#log-list .log-turn").last).to_be_in_viewport()
        sheet = page.locator("#log").bounding_box()
        assert sheet is not None
        if sheet["height"] * sheet["width"] > SIZES[label]["height"] * SIZES[label]["width"] / 2:
            problems.append(f"{label}: the log covers more than half the screen")
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            try:
                check_fits(page, f"phone-log-{game}-{scheme}-{label}", (label,))
            except AssertionError as error:
                problems.append(str(error))
        page.locator("#log-close").click()
    assert problems == [], "; ".join(problems)


def test_only_a_really_long_name_is_cut_and_only_on_a_phone(new_page: NewPage) -> None:
    page = new_page(viewport=SIZES["laptop"])
    create_room(page, "expeditionen", "Maximiliane Wolkenstein")  # 24 characters at most
    for label in ("laptop", "desktop"):
        resize(page, SIZES[label])
        assert cut_names(page) == [], label
    page.set_viewport_size(SIZES["phone"])
    name = page.locator(".seat-name").first
    expect(name).to_have_css("text-overflow", "ellipsis")
    box = name.bounding_box()
    assert box is not None and box["width"] >= 120  # a cut name still shows its first letters
    check_fits(page, "phone-long-name", ("phone",))


@pytest.fixture(scope="module")
def alone(module_page: NewPage) -> dict[str, Page]:
    """For the games of two, a player alone at a new table on a phone: the offer of a computer
    player lies above the board (as the offer to take over for a player who is away does)."""
    pages = {}
    for game in ("expeditionen", "pilzwanderung"):
        page = module_page(viewport=SIZES["phone"], touch=True)
        create_room(page, game, "Anna")
        expect(page.locator("#offer")).to_be_visible()
        pages[game] = page
    return pages


# What the player cannot bring on screen by scrolling the page to its end: the board's foot
# below the screen, or a part of the board only the board's own scrolling shows.
OUT_OF_REACH = """() => {
  const main = document.querySelector('main'), board = document.getElementById('board');
  main.scrollTop = main.scrollHeight;
  const foot = board.getBoundingClientRect().bottom;
  const hidden = board.scrollHeight - board.clientHeight;
  return [...(foot > innerHeight + 1 ? [`the board ends at ${Math.round(foot)} px`] : []),
    ...(hidden > 1 ? [`the board hides ${hidden} px of itself`] : [])];
}"""


@pytest.mark.parametrize("game", ["expeditionen", "pilzwanderung"])
def test_an_offer_above_the_board_pushes_the_table_down_on_a_phone(
    alone: dict[str, Page], game: str
) -> None:
    # The table keeps its room and the page scrolls to it; the offer is then the step
    # (check_fits: on screen, its buttons a finger's size), the board's parts whole.
    page = alone[game]
    sizes = {"phone-small": PHONE, **SIZES}
    problems = []
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        for label, size in sizes.items():
            resize(page, size)
            page.evaluate("document.querySelector('main').scrollTop = 0")
            problems += [f"{scheme} {label}: {p}" for p in overlapping_parts(page)]
            problems += [f"{scheme} {label}: {p}" for p in page.evaluate(OUT_OF_REACH)]
            shoot(page, SCREENSHOTS / f"phone-offer-{game}-{scheme}-{label}-scrolled.png")
            page.evaluate("document.querySelector('main').scrollTop = 0")
        try:
            check_fits(page, f"phone-offer-{game}-{scheme}")
        except AssertionError as error:
            problems.append(str(error))
    assert problems == [], "; ".join(problems)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_time_left_the_step_and_the_countdown_are_whole_on_a_phone(
    new_page: NewPage, lang: str
) -> None:
    """Issue 53: "You have 23 h 59 min · tur…", "Ben is away · you may cho…"."""
    anna = new_page(viewport=SIZES["phone"], touch=True, motion=False)
    ben = new_page(viewport=SIZES["phone"], touch=True, motion=False)
    join_by_link(ben, create_turn_based_room(anna, "expeditionen", "Anna", "1 day"), "Benedikt")
    expect(anna.locator("#banner")).to_contain_text("turn")
    for page in (anna, ben):
        choose_language(page, lang)
        expect(page.get_by_test_id("turn-clock")).to_be_visible()
        assert cut_hints(page) == []
        shoot(page, SCREENSHOTS / f"phone-banner-turn-based-{lang}-{page is anna}.png")

    anna, ben = new_page(viewport=SIZES["phone"]), new_page(viewport=SIZES["phone"])
    join_by_link(ben, create_room(anna, "expeditionen", "Anna"), "Benedikt")
    expect(anna.locator("#banner")).to_contain_text("turn")
    if is_my_turn(anna):
        first_turn(anna, ben, "expeditionen")
    choose_language(anna, lang)
    ben.context.close()  # Benedikt, to move, is away
    expect(anna.get_by_test_id("away-countdown")).to_be_visible()
    assert cut_hints(anna) == []
    shoot(anna, SCREENSHOTS / f"phone-banner-away-{lang}.png")


def test_the_move_log_opens_at_the_newest_move_on_a_phone(new_page: NewPage) -> None:
    """Issue 53: with more moves than the sheet holds, it opened at the oldest."""
    anna = new_page(viewport=SIZES["phone"], motion=False)
    ben = new_page(viewport=SIZES["phone"], motion=False)
    join_by_link(ben, create_room(anna, "expeditionen", "Anna"), "Benedikt")
    expect(anna.locator("#banner")).to_contain_text("turn")
    for _ in range(14):
        mover, other = (anna, ben) if is_my_turn(anna) else (ben, anna)
        first_turn(mover, other, "expeditionen")
    anna.locator("#log-toggle").click()
    newest = anna.locator("#log-list .log-turn").last
    expect(newest).to_be_in_viewport()
    assert anna.locator("#log-list").evaluate("list => list.scrollTop") > 0
    shoot(anna, SCREENSHOTS / "phone-log-newest.png")


def cut_title(page: Page) -> bool:
    return bool(page.locator("#game-title").evaluate("e => e.scrollWidth > e.clientWidth + 0.5"))


def too_small(locator: Locator) -> list[str]:
    """The controls of ``locator`` smaller than 44x44 px where they show."""
    return locator.evaluate_all(
        """els => els.filter(e => e.getClientRects().length)
            .map(e => [e.textContent.trim() || e.ariaLabel, e.getBoundingClientRect()])
            .filter(([, box]) => box.width < 44 || box.height < 44)
            .map(([name, box]) => `${name} ${Math.round(box.width)}x${Math.round(box.height)}`)"""
    )


@pytest.mark.parametrize("game", ["expeditionen", "pilzwanderung"])
def test_the_head_bar_keeps_the_games_name_whole_and_the_settings_hold_the_rest(
    tables: dict[str, Page], game: str
) -> None:
    """Issue 53: a phone's head bar cut the name ("Expedi…"); the table led nowhere but the
    logo; the room's wins were a bare number. A phone finds the language and the colours in
    the settings, beside the ways to "Your games" and "You"."""
    page = tables[game]
    problems = []
    for lang in ("de", "en"):
        choose_language(page, lang)
        for label, size in {**SIZES, "small phone": PHONE}.items():
            resize(page, size)
            if cut_title(page):
                problems.append(f"{lang} {label}: {page.locator('#game-title').inner_text()}")
    assert problems == [], "; ".join(problems)

    wins = page.locator(".seat-wins").first
    expect(wins).to_have_attribute("title", "Matches won in this room: 0")
    cup = wins.evaluate("e => getComputedStyle(e, '::before').width")
    assert float(cup.removesuffix("px")) >= 10, cup  # the cup before the bare number

    for label in ("phone", "phone-landscape", "laptop"):
        resize(page, SIZES[label])
        page.locator("#settings-button").click()
        dialog = page.locator("#settings")
        expect(dialog.get_by_role("link", name="Your games")).to_have_attribute("href", "/games")
        expect(dialog.get_by_role("link", name="You", exact=True)).to_have_attribute("href", "/me")
        assert too_small(dialog.locator("a, button, .chip-radio span")) == []
        shoot(page, SCREENSHOTS / f"table-settings-{game}-{label}.png")
        page.locator("#settings-close").click()
    resize(page, SIZES["phone"])
    expect(page.locator(".table-head .lang-switch")).to_be_hidden()
    choose_language(page, "de")  # in the settings
    expect(page.locator("#game-title")).to_have_text(TITLES[game])
    expect(page.locator("#settings-title")).to_have_text("Einstellungen")
    choose_language(page, "en")


TITLES = {"expeditionen": "Expeditionen", "pilzwanderung": "Pilzwanderung"}
