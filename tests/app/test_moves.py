"""The move log of a room's current match: every action so far, in words, nothing hidden."""

from __future__ import annotations

import random

from engine import get_game
from tests.app.tables import Table


def test_the_moves_of_the_current_match_are_listed_in_order(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    game = get_game("expeditionen")
    rng = random.Random(3)
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        sockets = {0: ada, 1: bo}
        sent = []
        for _ in range(6):
            mover = sockets[ada.state["to_move"]]
            action = rng.choice(mover.state["legal_actions"])
            mover.act(action)
            for socket in sockets.values():
                socket.wait_version(1, len(sent) + 1)
            sent.append((mover.seat, action))
    answer = table.client.get(f"/api/rooms/{room_id}/moves").json()
    assert answer["room_id"] == room_id
    assert answer["match_number"] == 1
    assert [(m["seat"], m["action"]) for m in answer["moves"]] == sent
    assert [m["ply"] for m in answer["moves"]] == list(range(1, 7))
    assert all(m["text"] == game.notation(m["action"]) for m in answer["moves"])


def test_a_new_room_has_no_moves_and_an_unknown_room_is_a_404(table: Table) -> None:
    room_id, _cookies = table.seated_room("scoundrel")
    assert table.client.get(f"/api/rooms/{room_id}/moves").json()["moves"] == []
    missing = table.client.get("/api/rooms/no-such-room/moves")
    assert missing.status_code == 404
    assert missing.json()["detail"]["code"] == "unknown_room"


def test_each_move_tells_the_open_cards_it_took_live_and_after_a_reload(table: Table) -> None:
    """A move log names the card a forest position held even for a page that never saw the
    forest before the move (opened after it)."""
    room_id, cookies = table.seated_room("pilzwanderung")
    rng = random.Random(5)
    held, heard = [], []
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        sockets = {0: ada, 1: bo}
        for version in range(1, 9):
            mover = sockets[ada.state["to_move"]]
            takes = [a for a in mover.state["legal_actions"] if a["type"] == "take"]
            action = rng.choice(takes or mover.state["legal_actions"])
            forest = [slot["card"] for slot in mover.state["view"]["forest"]]
            held.append([forest[action["position"] - 1]] if action in takes else None)
            mover.act(action)
            heard.append(bo.wait_version(1, version)["last_action"]["took"])
            ada.wait_version(1, version)
    moves = table.client.get(f"/api/rooms/{room_id}/moves").json()["moves"]
    assert [move["took"] for move in moves] == heard
    assert any(held)
    assert all(took == cards for took, cards in zip(heard, held, strict=True) if cards)
