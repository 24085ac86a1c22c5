"""The pages around the tables: home, rules, not-found, the language, the card component
and the socket wrapper's rules."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from playwright.sync_api import Browser, expect

from engine import games
from tests.browser.conftest import VIOLATIONS, NewPage, screenshot, serve
from tests.browser.players import act_and_wait, create_room


def test_home_offers_every_game_with_its_variants(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator(".game-choice .game-name")).to_have_text([g.title["en"] for g in games()])
    for game in games():
        choice = page.locator(f"label[for='game-{game.name}']")
        choice.click()
        expect(choice.locator(".game-blurb")).not_to_be_empty()
        # A preset that changes nothing is the game's standard and stands for it.
        plain = [] if any(not preset.options for preset in game.presets) else ["Standard"]
        expect(page.locator("#presets .chip-radio")).to_have_text(
            [*plain, *[preset.label["en"] for preset in game.presets]]
        )
        expect(page.locator("#presets input:checked")).to_have_count(1)
        for option in game.options:
            expect(page.locator("#options-body")).to_contain_text(option.label["en"])
    game = [game for game in games() if game.options][-1]
    page.locator(f"label[for='game-{game.name}']").click()
    page.locator("#options summary").click()
    option = game.options[0]
    other = next(i for i, choice in enumerate(option.choices) if choice != option.default)
    if {type(choice) for choice in option.choices} == {bool}:
        page.locator(f"#option-{option.name}").click()
    else:
        page.select_option(f"#option-{option.name}", index=other)
    expect(page.locator("#presets input:checked + span")).to_have_text("Custom")
    screenshot(page, "home")


def test_my_rooms_lists_the_room_and_copies_its_link(new_page: NewPage) -> None:
    page = new_page()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    game = next(game for game in games() if game.seats > 1)
    room_url = create_room(page, game.name, "Erik")
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    room = page.locator(".room-item")
    expect(room).to_have_count(1)
    expect(room).to_contain_text(game.title["en"])
    expect(room).to_contain_text("waiting")
    room.get_by_role("button", name="Copy link").click()
    expect(page.locator(".toast")).to_contain_text("Link copied")
    assert page.evaluate("navigator.clipboard.readText()") == room_url
    screenshot(page, "home-with-rooms")
    room.get_by_role("link", name="Open").click()
    page.wait_for_url(room_url)
    expect(page.locator(".seat", has_text="(you)")).to_contain_text("Erik")
    expect(page.locator("#banner")).to_contain_text("Waiting for another player")


def test_the_language_follows_the_browser_and_the_switch_is_remembered(new_page: NewPage) -> None:
    page = new_page(locale="de-DE")
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("h1")).to_have_text("Kartenspiele mit Freunden")
    expect(page.locator("#create-room")).to_have_text("Raum eröffnen")
    page.get_by_role("button", name="English").click()
    expect(page.locator("h1")).to_have_text("Card games with friends")
    seats = ["Solo" if g.seats == 1 else f"{g.seats} players" for g in games()]
    expect(page.locator(".game-choice .game-seats")).to_have_text(seats)
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#create-room")).to_have_text("Create room")


def test_every_string_exists_in_german_and_english(new_page: NewPage) -> None:
    """The shared strings and every game's own (each game has a strings file)."""
    page = new_page()
    page.goto("/history")
    loaded, missing = page.evaluate(
        """import('/static/js/i18n.js').then(async m => {
            const games = await (await fetch('/api/games')).json();
            const loaded = {};
            for (const game of games) loaded[game.name] = await m.loadGameStrings(game.name);
            return [loaded, [m.missingKeys('en', 'de'), m.missingKeys('de', 'en')]];
        })"""
    )
    assert loaded == {game.name: True for game in games()}
    assert missing == [[], []]


def test_the_rules_pages_are_written_in_both_languages(new_page: NewPage) -> None:
    page = new_page()
    for game in games():
        page.goto(f"/rules/{game.name}")
        english = page.locator("article.rules > [lang='en']")
        german = page.locator("article.rules > [lang='de']")
        expect(english.locator("h1")).to_have_text(game.title["en"])
        expect(german.locator("h1")).to_have_text(game.title["de"])
        expect(english).to_be_visible()
        expect(german).to_be_hidden()
        page.get_by_role("button", name="Deutsch").click()
        expect(german).to_be_visible()
        expect(english).to_be_hidden()
        screenshot(page, f"rules-{game.name}")
        page.get_by_role("button", name="English").click()


def test_unknown_rooms_matches_games_are_friendly_404s(new_page: NewPage, base_url: str) -> None:
    too_big = "/matches/" + "9" * 20
    unknown = ("/rules/poker", "/r/no-such-room", "/matches/987654", "/matches/x", too_big)
    for path in unknown:
        assert httpx.get(f"{base_url}{path}").status_code == 404, path
    page = new_page()
    page.goto("/rules/poker")
    expect(page.locator("h1")).to_have_text("We do not know this game")
    expect(page.get_by_role("link", name="Back to the start page")).to_be_visible()
    screenshot(page, "not-found")
    page.goto("/r/no-such-room")
    expect(page.get_by_role("heading", level=1)).to_have_text("This room does not exist")
    screenshot(page, "room-not-found")
    page.goto("/matches/987654")
    expect(page.get_by_role("heading", level=1)).to_have_text("This match cannot be shown")


def test_cards_tell_every_suit_apart_by_shape_not_only_by_colour(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/history")
    cards = page.evaluate(
        """import('/static/js/cards.js').then(({ card }) =>
          ['7S', '7H', '7D', '7C', 'JK', 'QH'].map(code => {
            const el = card(code);
            document.body.append(el);
            return {
              label: el.getAttribute('aria-label'),
              symbol: el.querySelector('use').getAttribute('href'),
              frame: [...el.querySelectorAll('.card-frame')]
                .map(f => [f.getAttribute('stroke-dasharray'), f.getAttribute('stroke-width')])
                .join(' / '),
              ink: getComputedStyle(el.querySelector('.card-rank')).fill,
            };
        }))"""
    )
    suits = cards[:4]
    assert [c["label"] for c in suits] == [
        "Seven of spades",
        "Seven of hearts",
        "Seven of diamonds",
        "Seven of clubs",
    ]
    assert len({c["symbol"] for c in suits}) == 4
    assert len({c["frame"] for c in suits}) == 4
    assert len({c["ink"] for c in suits}) == 4
    assert cards[4]["label"] == "Joker"
    assert cards[5]["label"] == "Queen of hearts"


def test_cards_take_every_code_of_the_rules_night_cards_and_repeats_included(
    new_page: NewPage,
) -> None:
    page = new_page()
    page.goto("/history")
    checks = page.evaluate(
        """import('/static/js/cards.js').then(({ card, cardChip, isCard, rankOf, suitOf }) => {
          const row = document.createElement('div');
          document.querySelector('main').prepend(row);
          const shown = ['N5', '7H', '7H', 'N5', 'N2', 'N9'].map(code => {
            const el = card(code);
            row.append(el);
            return {
              label: el.getAttribute('aria-label'),
              rank: el.querySelector('.card-rank').textContent,
              symbol: el.querySelector('use').getAttribute('href'),
              ink: getComputedStyle(el.querySelector('.card-rank')).fill,
            };
          });
          const ranks = ['2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A'];
          const codes = [...ranks.flatMap(r => ['S', 'H', 'D', 'C'].map(s => r + s)), 'JK'];
          const night = ['2', '3', '4', '5', '6', '7', '8', '9'].map(r => 'N' + r);
          return {
            shown,
            cards: row.querySelectorAll('.card').length,
            chip: cardChip('N5').getAttribute('aria-label'),
            accepted: [...codes, ...night].every(isCard),
            refused: ['N1', 'N10', 'NJ', 'N', '1H', '11C', '7h', 'JKS', ''].filter(isCard),
            night: night.map(code => [rankOf(code), suitOf(code)].join('')),
          };
        })"""
    )
    night, seven = checks["shown"][0], checks["shown"][1]
    assert night["label"] == checks["chip"] == "Night card Five"
    assert night["rank"] == "5"
    assert night["symbol"] == "#kr-suit-N"
    assert night["ink"] != seven["ink"]
    assert checks["shown"][2] == seven and checks["shown"][3] == night
    assert [c["label"] for c in checks["shown"][4:]] == ["Night card Two", "Night card Nine"]
    assert checks["cards"] == 6
    assert checks["accepted"] is True
    assert checks["refused"] == []
    assert checks["night"] == [f"{rank}N" for rank in range(2, 10)]


def test_the_card_gallery(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/history")
    page.evaluate(
        """import('/static/js/cards.js').then(({ card }) => {
            const ranks = ['2','3','4','5','6','7','8','9','10','J','Q','K','A'];
            const gallery = document.createElement('div');
            gallery.id = 'gallery';
            gallery.className = 'card-row';
            for (const s of ['S','H','D','C']) for (const r of ranks) gallery.append(card(r + s));
            for (const r of ranks.slice(0, 8)) gallery.append(card('N' + r));
            gallery.append(card('JK'), card(null, { faceDown: true }));
            document.querySelector('main').prepend(gallery);
        })"""
    )
    expect(page.locator("#gallery .card")).to_have_count(62)
    screenshot(page, "cards")


def test_the_socket_drops_stale_states_and_backs_off(new_page: NewPage) -> None:
    page = new_page()
    page.goto("/history")
    checks = page.evaluate(
        """import('/static/js/socket.js').then(({ compareStates, backoffDelay, RoomSocket }) => {
          const at = (match_number, version) => ({ match_number, version });
          return {
            shown: (() => {
              const socket = Object.create(RoomSocket.prototype);
              const seen = [];
              socket.shown = null;
              socket.handlers = { state: (m, { resync }) => seen.push([m.version, resync]) };
              for (const version of [2, 1, 2, 3]) {
                socket.receive(JSON.stringify({ type: 'state', match_number: 1, version }));
              }
              return seen;
            })(),
            queued: (() => {
              const socket = Object.create(RoomSocket.prototype);
              socket.queue = [];
              socket.ws = { readyState: WebSocket.CONNECTING };
              socket.send({ type: 'action', version: 0, action: { type: 'avoid' } });
              socket.send({ type: 'ping' });
              return socket.queue.map(m => m.type);
            })(),
            first: compareStates(null, at(1, 0)),
            newer: compareStates(at(1, 3), at(1, 4)),
            same: compareStates(at(1, 3), at(1, 3)),
            older: compareStates(at(1, 3), at(1, 2)),
            rematch: compareStates(at(1, 30), at(2, 0)),
            oldMatch: compareStates(at(2, 0), at(1, 30)),
            delays: [0, 1, 2, 3, 10].map(attempt => backoffDelay(attempt, () => 1)),
            least: backoffDelay(3, () => 0),
          };
        })"""
    )
    assert checks == {
        "shown": [[2, False], [2, True], [3, False]],
        "queued": ["action"],
        "first": 1,
        "newer": 1,
        "same": 0,
        "older": -1,
        "rematch": 1,
        "oldMatch": -1,
        "delays": [500, 1000, 2000, 3000, 3000],
        "least": 1500,
    }


def test_by_default_the_history_shows_each_browser_only_its_own_matches(
    new_page: NewPage,
) -> None:
    """No "All matches" (not even by its address) unless the host sets PUBLIC_HISTORY=true: a
    browser lists the matches it played and no one else's."""
    player = new_page(motion=False)
    create_room(player, "scoundrel", "Dana")
    while not player.locator("#end").is_visible():
        act_and_wait(player, player.locator("#board [data-testid^='take-']").first.click)
    stranger = new_page()
    for page, listed in ((player, 1), (stranger, 0)):
        page.goto("/history?scope=all")
        page.wait_for_selector("body[data-ready]")
        expect(page.locator(".lead")).to_contain_text("No one else sees them.")
        expect(page.get_by_role("button", name="All matches")).to_have_count(0)
        expect(page.locator(".match-item")).to_have_count(listed)
        if not listed:
            expect(page.locator("#matches")).to_contain_text("You have not finished")


def test_a_host_who_sets_public_history_offers_all_matches(
    browser: Browser, tmp_path: Path
) -> None:
    with serve(tmp_path, PUBLIC_HISTORY="true") as url:
        visitor = browser.new_context(base_url=url, locale="en-US")
        VIOLATIONS.watch(visitor)
        try:
            page = visitor.new_page()
            page.goto("/history")
            page.wait_for_selector("body[data-ready]")
            expect(page.get_by_role("button", name="Your matches")).to_have_attribute(
                "aria-pressed", "true"
            )
            page.get_by_role("button", name="All matches").click()
            expect(page.get_by_role("button", name="All matches")).to_have_attribute(
                "aria-pressed", "true"
            )
            expect(page).to_have_url(re.compile(r"scope=all"))
            expect(page.locator("#matches")).to_contain_text("No finished matches yet.")
        finally:
            visitor.close()
