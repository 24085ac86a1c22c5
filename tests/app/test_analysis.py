"""After a Scoundrel match: the best line its deal allowed, never before the match ends."""

from __future__ import annotations

import random
import time
from concurrent.futures import Future

import pytest

from engine import get_game, replay
from engine.scoundrel_solver import Solution, solve
from tests.app.tables import Table, play

GAME = get_game("scoundrel")
QUICK_DEAL = 16  # a deal the solver answers in a fraction of a second
pytestmark = pytest.mark.analysis_ahead  # as the server runs: searched as it is dealt


@pytest.fixture(autouse=True)
def quick_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.table.live.secrets.randbits", lambda bits: QUICK_DEAL)


def finished_match(table: Table) -> int:
    room_id, cookies = table.seated_room("scoundrel", names=("Ada",))
    with table.socket(room_id, cookies[0]) as player:
        play(table, room_id, [player], random.Random(3))
    (listed,) = table.client.get("/api/matches").json()
    match_id: int = listed["match_id"]
    return match_id


def foreseen(table: Table, match_id: int) -> Future[Solution]:
    """The search started as the match was dealt (on a thread of the server's loop)."""
    deadline = time.monotonic() + 10
    while match_id not in table.app.state.matches.foreseen and time.monotonic() < deadline:
        time.sleep(0.01)
    found: Future[Solution] = table.app.state.matches.foreseen[match_id]
    return found


def test_the_analysis_of_a_running_match_is_refused_and_names_no_card(table: Table) -> None:
    room_id, cookies = table.seated_room("scoundrel", names=("Ada",))
    match_id = table.client.get(f"/api/rooms/{room_id}").json()["match_id"]
    response = table.client.get(f"/api/matches/{match_id}/analysis")
    assert response.status_code == 404
    assert response.json()["detail"]["code"] == "unknown_match"
    dungeon = table.live_state(room_id).dungeon
    assert not any(card in response.text for card in dungeon)


@pytest.mark.public_history
def test_the_analysis_answers_the_best_score_and_its_line_after_the_match(table: Table) -> None:
    match_id = finished_match(table)
    analysis = table.client.get(f"/api/matches/{match_id}/analysis").json()
    played = table.client.get(f"/api/matches/{match_id}").json()
    assert analysis["solved"]
    assert analysis["your_score"] == played["result"]["scores"][0]
    assert analysis["best_score"] >= analysis["your_score"]
    assert analysis["winnable"] == (analysis["best_score"] > 0)
    steps = analysis["steps"]
    assert steps[0]["view"] == played["steps"][0]["view"], "the same deal"
    *_, end = replay(GAME, QUICK_DEAL, {}, [(0, step["action"]) for step in steps[1:]])
    assert GAME.result(end).scores[0] == analysis["best_score"] == analysis["result"]["scores"][0]
    assert steps[-1]["view"]["result"] == analysis["result"]


@pytest.mark.public_history
def test_the_analysis_marks_the_step_after_which_the_best_was_out_of_reach(
    table: Table,
) -> None:
    match_id = finished_match(table)
    analysis = table.client.get(f"/api/matches/{match_id}/analysis").json()
    played = table.client.get(f"/api/matches/{match_id}").json()
    states = list(replay(GAME, QUICK_DEAL, {}, [(0, s["action"]) for s in played["steps"][1:]]))
    slip = analysis["slip"]
    assert analysis["your_score"] < analysis["best_score"], "random play, a deal it loses"
    assert solve(states[slip - 1]).score == analysis["best_score"] > solve(states[slip]).score


@pytest.mark.public_history
def test_the_analysis_is_kept_for_the_next_request(table: Table) -> None:
    match_id = finished_match(table)
    first = table.client.get(f"/api/matches/{match_id}/analysis").json()
    kept = table.app.state.matches.analyses[match_id]
    assert table.client.get(f"/api/matches/{match_id}/analysis").json() == first
    assert table.app.state.matches.analyses[match_id] is kept


@pytest.mark.public_history
def test_a_game_without_an_analysis_answers_not_found(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        play(table, room_id, [ada, bo], random.Random(8))
    (listed,) = table.client.get("/api/matches").json()
    response = table.client.get(f"/api/matches/{listed['match_id']}/analysis")
    assert response.status_code == 404


@pytest.mark.public_history
def test_the_analysis_is_searched_as_the_match_is_dealt(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deal alone decides the best line: its search starts with the match, so the end
    screen need not wait for it, and its answer is given only once the match is over."""
    matches = table.app.state.matches
    match_id = finished_match(table)
    assert foreseen(table, match_id).result(timeout=10).score > 0

    run = matches.searches.run

    def searched_again(key: tuple[object, ...], job: object) -> object:
        assert key[0] != "analysis", "searched again at the end"
        return run(key, job)

    monkeypatch.setattr(matches.searches, "run", searched_again)
    analysis = table.client.get(f"/api/matches/{match_id}/analysis").json()
    assert analysis["solved"] and analysis["best_score"] > 0
    assert match_id not in matches.foreseen, "handed over once"
