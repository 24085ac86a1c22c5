"""The daily deal (issue 37): one deal per game and day for everyone, one attempt each, a
board without lines, a streak and a text to share; replays open once the day is over."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import threading
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.history.daily import Dailies, Result, daily_number, daily_seed, share_text, signed, streak
from app.main import create_app
from app.settings import Settings
from app.storage.dailies import Attempt
from app.storage.models import DailyRow, Match, Room
from app.storage.repositories import DailyTaken, Store
from engine import get_game
from tests.app.tables import Table, play
from tests.app.test_identity import call, second_device

pytestmark = pytest.mark.both_databases  # the attempts are stored; the race is PostgreSQL's

NOON = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)  # daily #338 in UTC
DAY = timedelta(days=1)


def at(table: Table, moment: datetime) -> None:
    """The server's clock (rooms and dailies read the same one) stands at ``moment``."""
    table.app.state.rooms.clock.now = lambda: moment


@pytest.fixture
def daily(table: Table) -> Table:
    at(table, NOON)
    return table


def start(table: Table, game: str, cookie: str | None, name: str = "Ada") -> Any:
    return call(table, "POST", f"/api/daily/{game}", cookie, json={"name": name})


def started(
    table: Table, game: str, cookie: str | None = None, name: str = "Ada"
) -> tuple[str, str]:
    """Starts a daily; returns its room and the browser's cookie (a new one without)."""
    response = start(table, game, cookie, name)
    assert response.status_code == 200, response.text
    cookie = response.cookies.get("kr_player") or cookie
    assert cookie is not None
    return response.json()["room_id"], cookie


def seed_of(table: Table, room_id: str) -> int:
    match_id = table.app.state.rooms.room(room_id).match.id
    seed: int = table.app.state.rooms.store.match_played(match_id)[0]
    return seed


def finish(table: Table, room_id: str, cookie: str, seed: int = 1) -> None:
    """The player plays random legal actions to the end (a daily for two: resigns)."""
    with table.socket(room_id, cookie) as socket:
        if table.app.state.rooms.room(room_id).game.seats > 1:
            socket.send({"type": "resign"})
            while socket.state["result"] is None:
                socket.next("state")
        else:
            assert play(table, room_id, [socket], random.Random(seed)) == []


def test_the_deal_is_the_same_for_everyone_on_a_day(daily: Table) -> None:
    ada_room, _ = started(daily, "scoundrel", name="Ada")
    bo_room, _ = started(daily, "scoundrel", name="Bo")
    assert ada_room != bo_room
    assert daily.live_state(ada_room).dungeon == daily.live_state(bo_room).dungeon
    assert seed_of(daily, ada_room) == seed_of(daily, bo_room)


def test_the_deal_differs_the_next_day_and_between_games(daily: Table) -> None:
    today, cookie = started(daily, "scoundrel")
    expeditionen, _ = started(daily, "expeditionen", cookie)
    at(daily, NOON + DAY)
    tomorrow, _ = started(daily, "scoundrel", cookie)
    seeds = {seed_of(daily, room) for room in (today, expeditionen, tomorrow)}
    assert len(seeds) == 3


def test_the_seed_is_the_secrets_hmac_of_day_and_game_so_nobody_computes_tomorrows() -> None:
    day = date(2026, 12, 5)
    digest = hmac.new(b"one secret", b"2026-12-05:scoundrel", hashlib.sha256).digest()
    assert daily_seed("one secret", day, "scoundrel") == int.from_bytes(digest[:8]) >> 1
    assert daily_seed("another secret", day, "scoundrel") != daily_seed(
        "one secret", day, "scoundrel"
    )
    assert 0 <= daily_seed("one secret", day, "scoundrel") < 2**63


def test_the_number_counts_days_from_the_first_of_january_2026() -> None:
    assert daily_number(date(2026, 1, 1)) == 1
    assert daily_number(date(2026, 8, 2)) == 214


def test_a_daily_for_two_is_against_the_strong_computer_and_the_player_moves_first(
    daily: Table,
) -> None:
    for game in ("expeditionen", "pilzwanderung"):
        room_id, _ = started(daily, game)
        room = daily.app.state.rooms.room(room_id)
        assert [holder.name for holder in room.seats] == ["Ada", "Computer"]
        assert room.seats[1].computer == "strong"
        assert room.match.status == "playing" and room.to_move() == 0


def test_a_dailys_room_says_so_and_an_ordinary_room_does_not(daily: Table) -> None:
    room_id, _ = started(daily, "scoundrel")
    match_id = daily.app.state.rooms.room(room_id).match.id
    info = call(daily, "GET", f"/api/rooms/{room_id}", None).json()
    assert info["daily"] == {
        "day": "2026-12-04",
        "number": 338,
        "game": "scoundrel",
        "match_id": match_id,
    }
    other = daily.create_room("scoundrel")
    assert call(daily, "GET", f"/api/rooms/{other}", None).json()["daily"] is None


def test_a_dailys_room_refuses_a_rematch_and_deals_nothing_new(daily: Table) -> None:
    room_id, cookie = started(daily, "scoundrel")
    finish(daily, room_id, cookie)
    match_id = daily.app.state.rooms.room(room_id).match.id
    with daily.socket(room_id, cookie) as socket:
        socket.send({"type": "rematch"})
        assert socket.next("error")["code"] == "illegal"
    assert daily.app.state.rooms.room(room_id).match.id == match_id


def test_nobody_but_its_player_watches_a_daily_while_the_day_runs(daily: Table) -> None:
    room_id, cookie = started(daily, "scoundrel")
    _, (stranger,) = daily.seated_room("scoundrel", ("Eve",))
    with daily.client.websocket_connect(
        f"/ws/rooms/{room_id}", headers={"cookie": f"kr_player={stranger}"}
    ) as ws:
        assert json.loads(ws.receive_text())["code"] == "daily_running"
    for browser in (None, stranger):
        refused = call(daily, "GET", f"/api/rooms/{room_id}/moves", browser)
        assert refused.status_code == 403
    assert call(daily, "GET", f"/api/rooms/{room_id}/moves", cookie).status_code == 200
    with daily.socket(room_id, cookie) as own:
        assert own.state["seat"] == 0
    at(daily, NOON + DAY)
    assert call(daily, "GET", f"/api/rooms/{room_id}/moves", stranger).status_code == 200


def test_starting_again_while_it_runs_leads_back_to_the_same_room_on_another_device(
    daily: Table,
) -> None:
    room_id, cookie = started(daily, "expeditionen")
    phone = second_device(daily, cookie)
    again = start(daily, "expeditionen", phone)
    assert again.status_code == 200
    assert again.json()["room_id"] == room_id and again.json()["new"] is False


def test_a_second_attempt_is_refused_also_from_another_device_of_the_same_player(
    daily: Table,
) -> None:
    room_id, cookie = started(daily, "scoundrel")
    finish(daily, room_id, cookie)
    phone = second_device(daily, cookie)
    for browser in (cookie, phone):
        refused = start(daily, "scoundrel", browser)
        assert refused.status_code == 409
        assert refused.json()["detail"]["code"] == "daily_played"
    assert start(daily, "scoundrel", None, "Bo").status_code == 200  # another player may


def test_an_abandoned_daily_counts_as_played(daily: Table) -> None:
    room_id, cookie = started(daily, "expeditionen")
    daily.app.state.rooms.store.close_room(room_id, NOON)  # closed idle: abandoned
    assert start(daily, "expeditionen", cookie).json()["detail"]["code"] == "daily_played"
    (entry,) = call(daily, "GET", "/api/daily/2026-12-04/expeditionen", cookie).json()["entries"]
    assert entry["outcome"] == "abandoned"


def test_simultaneous_starts_store_one_attempt_and_one_room(table: Table) -> None:
    store: Store = table.app.state.rooms.store
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def attempt(number: int) -> None:
        room_id = f"race-{number}"
        room = Room(id=room_id, game="scoundrel", options={}, created_at=NOON, last_active_at=NOON)
        match = Match(
            room_id=room_id, number=1, game="scoundrel", seed=7, options={}, status="waiting"
        )
        row = DailyRow(day="2026-12-04", game="scoundrel", player_id="p", created_at=NOON)
        barrier.wait()
        try:
            store.create_room(room, match, (), row)
            outcomes.append("stored")
        except DailyTaken:
            outcomes.append("taken")

    threads = [threading.Thread(target=attempt, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["stored", "taken"]
    assert store.load_room("race-0") is None or store.load_room("race-1") is None


def test_a_start_that_loses_the_race_joins_the_winners_room(
    daily: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, cookie = started(daily, "scoundrel")
    store = daily.app.state.dailies.store
    found = store.attempts_of
    looks: list[str] = []

    def late_look(player_id: str, day: str | None = None) -> list[Attempt]:
        looks.append(player_id)  # the first look is before the other request's commit
        return [] if len(looks) == 1 else found(player_id, day)

    monkeypatch.setattr(store, "attempts_of", late_look)
    again = start(daily, "scoundrel", cookie)
    assert again.json() | {"url": None} == {"room_id": first, "url": None, "new": False}
    assert len(looks) == 2


def test_a_dailys_replay_is_refused_until_its_day_ends_then_open(daily: Table) -> None:
    room_id, cookie = started(daily, "scoundrel")
    finish(daily, room_id, cookie)
    match_id = daily.app.state.rooms.room(room_id).match.id
    end = "2026-12-05T00:00:00Z"
    for path in (f"/api/matches/{match_id}", f"/api/matches/{match_id}/analysis"):
        refused = call(daily, "GET", path, cookie)
        assert refused.status_code == 403 and refused.json()["detail"]["code"] == "daily_running"
    assert call(daily, "GET", f"/matches/{match_id}", cookie).status_code == 403
    (listed,) = call(daily, "GET", "/api/matches", cookie).json()
    assert listed["replay_from"] == end
    at(daily, datetime(2026, 12, 5, 0, 0, tzinfo=UTC))
    assert call(daily, "GET", f"/api/matches/{match_id}", cookie).status_code == 200
    assert call(daily, "GET", f"/matches/{match_id}", cookie).status_code == 200
    assert call(daily, "GET", "/api/matches", cookie).json()[0]["replay_from"] is None


@pytest.mark.public_history
def test_with_a_public_history_nobody_replays_a_daily_before_the_day_ends(daily: Table) -> None:
    room_id, cookie = started(daily, "scoundrel")
    finish(daily, room_id, cookie)
    match_id = daily.app.state.rooms.room(room_id).match.id
    assert call(daily, "GET", f"/api/matches/{match_id}", None).status_code == 403


def wait_for_par(table: Table, day: str, game: str) -> int | None:
    store = table.app.state.dailies.store
    for _ in range(400):
        searched, best = store.par(day, game)
        if searched:
            return best
        time.sleep(0.025)
    raise AssertionError("the par was never searched")


def test_the_board_lists_results_best_first_with_par_and_no_line(daily: Table) -> None:
    cookies = {}
    for number, name in enumerate(("Ada", "Bo", "Cy")):
        room_id, cookies[name] = started(daily, "scoundrel", name=name)
        finish(daily, room_id, cookies[name], seed=number)
    started(daily, "scoundrel", name="Di")  # still playing: not on the board
    game = get_game("scoundrel")
    dealt = game.new(seed=daily_seed(daily.app.state.settings.secret_key, NOON.date(), "scoundrel"))
    search = game.best_line_search()
    assert search is not None
    assert wait_for_par(daily, "2026-12-04", "scoundrel") == search(dealt).score
    response = call(daily, "GET", "/api/daily/2026-12-04/scoundrel", cookies["Bo"])
    board = response.json()
    assert board["par"] == search(dealt).score and board["over"] is False
    scores = [entry["score"] for entry in board["entries"]]
    assert sorted(scores, reverse=True) == scores and len(scores) == 3
    assert {entry["name"] for entry in board["entries"]} == {"Ada", "Bo", "Cy"}
    assert [entry["you"] for entry in board["entries"]].count(True) == 1
    mine = next(entry for entry in board["entries"] if entry["you"])
    told = f"{signed(mine['score'])}/{signed(board['par'])}"
    assert board["you"]["share"]["en"] == f"Scoundrel #338: {told}"
    for card in dealt.dungeon:
        assert f'"{card}"' not in response.text  # no card, no line


def test_the_board_of_a_game_for_two_shows_points_against_the_computer(daily: Table) -> None:
    room_id, cookie = started(daily, "expeditionen")
    finish(daily, room_id, cookie)  # resigned
    board = call(daily, "GET", "/api/daily/2026-12-04/expeditionen", cookie).json()
    (entry,) = board["entries"]
    assert entry | {"you": None} == {
        "name": "Ada",
        "you": None,
        "outcome": "resigned",
        "score": None,
        "opponent_score": None,
    }
    assert board["par"] is None and board["you"]["share"]["de"] == "Expeditionen #338: ✗"


def attempt(game: str, result: dict[str, Any], status: str = "finished") -> Attempt:
    return Attempt("2026-08-02", game, "p", "r", 1, True, status, result, "Ada")


def test_the_share_text_names_game_day_score_and_par_and_nothing_else() -> None:
    day = date(2026, 8, 2)
    scoundrel = Result.of(attempt("scoundrel", {"scores": [27], "winner": 0, "reason": "x"}))
    assert share_text(get_game("scoundrel"), day, scoundrel, 30)["en"] == "Scoundrel #214: 27/30"
    won = Result.of(attempt("expeditionen", {"scores": [61, 48], "winner": 0, "reason": "x"}))
    assert share_text(get_game("expeditionen"), day, won, None) == {
        "de": "Expeditionen #214: 61:48 ✓",
        "en": "Expeditions #214: 61:48 ✓",
    }
    drawn = Result.of(attempt("expeditionen", {"scores": [5, 5], "winner": None, "reason": "x"}))
    lost = Result.of(attempt("expeditionen", {"scores": [5, 9], "winner": 1, "reason": "x"}))
    assert share_text(get_game("expeditionen"), day, drawn, None)["de"].endswith("5:5 =")
    assert share_text(get_game("expeditionen"), day, lost, None)["de"].endswith("5:9 ✗")


def test_the_share_text_writes_a_negative_score_with_the_boards_minus_sign() -> None:
    day = date(2026, 8, 2)
    dead = Result.of(attempt("scoundrel", {"scores": [-12], "winner": None, "reason": "x"}))
    assert share_text(get_game("scoundrel"), day, dead, -3)["en"] == "Scoundrel #214: −12/−3"
    lost = Result.of(attempt("expeditionen", {"scores": [-7, 9], "winner": 1, "reason": "x"}))
    assert share_text(get_game("expeditionen"), day, lost, None)["en"].endswith("−7:9 ✗")


def test_a_daily_is_played_without_hints(daily: Table) -> None:
    """Its board compares the players alone: the solver's hint is refused in its room."""
    room_id, cookie = started(daily, "scoundrel")
    refused = call(daily, "GET", f"/api/rooms/{room_id}/hint", cookie)
    assert refused.status_code == 403
    assert refused.json()["detail"]["code"] == "daily_running"
    finish(daily, room_id, cookie)
    assert call(daily, "GET", f"/api/rooms/{room_id}/hint", cookie).status_code == 403


def test_a_win_ranks_above_a_draw_above_a_loss_then_by_margin() -> None:
    results = {
        name: Result.of(attempt("expeditionen", result))
        for name, result in {
            "big win": {"scores": [80, 10], "winner": 0, "reason": "x"},
            "close win": {"scores": [90, 85], "winner": 0, "reason": "x"},
            "draw": {"scores": [5, 5], "winner": None, "reason": "x"},
            "loss": {"scores": [50, 60], "winner": 1, "reason": "x"},
            "resigned": {"scores": [], "winner": 1, "reason": "resigned"},
        }.items()
    }
    ranked = sorted(results, key=lambda name: results[name].order())
    assert ranked == ["big win", "close win", "draw", "loss", "resigned"]


def test_the_streak_counts_consecutive_days_up_to_today_or_yesterday() -> None:
    today = date(2026, 12, 4)
    assert streak({today, today - DAY, today - 2 * DAY, today - 4 * DAY}, today) == 3
    assert streak({today - DAY, today - 2 * DAY}, today) == 2  # today not played yet
    assert streak({today - 2 * DAY}, today) == 0


def test_the_overview_and_streak_follow_the_days_played(daily: Table) -> None:
    room_id, cookie = started(daily, "expeditionen")
    finish(daily, room_id, cookie)
    at(daily, NOON + DAY)
    overview = call(daily, "GET", "/api/daily", cookie).json()
    assert overview["number"] == 339 and overview["streak"] == 1
    assert [game["status"] for game in overview["games"]] == ["new", "new", "new"]
    room_id, _ = started(daily, "scoundrel", cookie)
    overview = call(daily, "GET", "/api/daily", cookie).json()
    assert {game["game"]: game["status"] for game in overview["games"]}["scoundrel"] == "running"
    finish(daily, room_id, cookie)
    overview = call(daily, "GET", "/api/daily", cookie).json()
    assert overview["streak"] == 2
    done = {game["game"]: game for game in overview["games"]}["scoundrel"]
    assert done["status"] == "done" and done["share"]["en"].startswith("Scoundrel #339: ")
    board = call(daily, "GET", "/api/daily/2026-12-05/scoundrel", cookie).json()
    assert board["you"]["streak"] == 2 and board["you"]["game_streak"] == 1


@pytest.fixture
def auckland(settings: Settings) -> Iterator[Table]:
    zoned = settings.model_copy(update={"daily_time_zone": "Pacific/Auckland"})
    with TestClient(create_app(zoned)) as client:
        yield Table(client)


def test_the_day_turns_at_midnight_in_the_daily_time_zone(auckland: Table) -> None:
    dailies: Dailies = auckland.app.state.dailies
    before = datetime(2026, 12, 4, 10, 59, tzinfo=UTC)  # 23:59 in Auckland (UTC+13)
    at(auckland, before)
    assert dailies.calendar.today() == date(2026, 12, 4)
    assert dailies.calendar.ends_at(date(2026, 12, 4)) == datetime(2026, 12, 4, 11, 0, tzinfo=UTC)
    first, cookie = started(auckland, "scoundrel")
    at(auckland, before + timedelta(minutes=1))
    assert call(auckland, "GET", "/api/daily", None).json()["day"] == "2026-12-05"
    second, _ = started(auckland, "scoundrel", cookie)
    assert seed_of(auckland, first) != seed_of(auckland, second)


def test_an_unknown_time_zone_is_refused_at_start() -> None:
    with pytest.raises(ValueError, match="unknown time zone"):
        Settings(_env_file=None, daily_time_zone="Mars/Olympus")  # type: ignore[call-arg]


def test_no_board_for_a_day_to_come(daily: Table) -> None:
    response = call(daily, "GET", "/api/daily/2026-12-05/scoundrel", None)
    assert response.status_code == 404 and response.json()["detail"]["code"] == "unknown_daily"
