"""The chat at a table: who may write, what a line may hold, how fast, and where it is kept."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack

import pytest
from sqlalchemy import func, select

from app.storage.models import CHAT
from app.table.chat import CHAT_BURST, CHAT_PER_SECOND
from tests.app.tables import Socket, Table


def stored_lines(table: Table) -> int:
    with table.app.state.db_engine.connect() as connection:
        count: int = connection.scalar(select(func.count()).select_from(CHAT))
        return count


def say(socket: Socket, text: str) -> None:
    socket.send({"type": "chat", "text": text})


def test_players_write_and_everyone_in_the_room_reads_it(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    _, watcher = table.join(room_id, "Cy")
    with (
        table.socket(room_id, cookies[0]) as ada,
        table.socket(room_id, cookies[1]) as bo,
        table.socket(room_id, watcher) as cy,
    ):
        say(ada, "  Viel Glück! https://example.org <b>  ")
        for socket in (ada, bo, cy):
            line = socket.next("chat")
            assert line["text"] == "Viel Glück! https://example.org <b>"
            assert (line["seat"], line["name"], line["reaction"], line["ply"]) == (
                0,
                "Ada",
                None,
                0,
            )
        bo.send({"type": "react", "reaction": "good_move"})
        assert ada.next("chat")["reaction"] == "good_move"
    lines = table.client.get(f"/api/rooms/{room_id}/chat").json()["messages"]
    assert [(line["name"], line["text"], line["reaction"]) for line in lines] == [
        ("Ada", "Viel Glück! https://example.org <b>", None),
        ("Bo", None, "good_move"),
    ]


def test_a_line_names_its_writer_by_one_key_in_every_room_and_under_every_name(
    table: Table,
) -> None:
    """Issue 53: muting went by the name shown, so a rename escaped it. The key a browser
    mutes by follows the player, and tells nothing else about them (not their id)."""
    first, (ada, bo) = table.seated_room("expeditionen", preset="short")
    second = table.create_room("pilzwanderung")
    table.join(second, "Ada the Second", ada)
    table.join(second, "Cy")
    keys = []
    for room_id, cookie, text in ((first, ada, "eins"), (second, ada, "zwei"), (first, bo, "drei")):
        with table.socket(room_id, cookie) as socket:
            say(socket, text)
            keys.append(socket.next("chat")["writer"])
    assert keys[0] == keys[1] != keys[2]
    for cookie, key in ((ada, keys[0]), (bo, keys[2])):
        assert isinstance(key, str) and table.player_id(cookie) not in key
    lines = table.client.get(f"/api/rooms/{first}/chat").json()["messages"]
    assert [line["writer"] for line in lines] == [keys[0], keys[2]]


def test_spectators_read_but_do_not_write_by_default(table: Table) -> None:
    room_id, _ = table.seated_room("expeditionen", preset="short")
    _, watcher = table.join(room_id, "Cy")
    with table.socket(room_id, watcher) as cy:
        say(cy, "hallo")
        assert cy.error()["code"] == "not_seated"
        cy.send({"type": "react", "reaction": "wow"})
        assert cy.error()["code"] == "not_seated"
    assert stored_lines(table) == 0


def test_spectators_write_when_the_rooms_creator_allows_it(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short", spectator_chat=True)
    _, watcher = table.join(room_id, "Cy")
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, watcher) as cy:
        say(cy, "hallo")
        line = ada.next("chat")
        assert (line["seat"], line["name"], line["text"]) == (None, "Cy", "hallo")
    assert table.client.get(f"/api/rooms/{room_id}").json()["spectator_chat"] is True


@pytest.mark.parametrize(
    "text",
    ["", "   ", "x" * 301, "zwei\nZeilen", "nul\x00", "c1\x85c1"],
    ids=["empty", "blank", "too_long", "newline", "nul", "c1"],
)
def test_a_bad_text_is_refused_and_nothing_is_stored(table: Table, text: str) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada:
        say(ada, text)
        assert ada.error()["code"] == "bad_text"
        assert ada.quiet()
    assert stored_lines(table) == 0


def test_a_text_of_300_characters_is_kept_whole(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada:
        say(ada, "ä" * 300)
        assert ada.next("chat")["text"] == "ä" * 300


@pytest.mark.parametrize(
    "message",
    [
        {"type": "react", "reaction": "<script>"},
        {"type": "chat", "text": 7},
        {"type": "chat", "text": "hi", "html": "<b>hi</b>"},
        {"type": "chat", "text": "\ud800"},
    ],
    ids=["unknown_reaction", "not_text", "extra_field", "lone_surrogate"],
)
def test_a_message_of_the_wrong_shape_is_malformed_and_nothing_is_stored(
    table: Table, message: dict
) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada:
        ada.send(message)
        assert ada.error()["code"] == "malformed"
    assert stored_lines(table) == 0


def test_a_binary_frame_that_is_no_text_is_refused_and_the_socket_goes_on(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada:
        ada.ws.send_bytes(b'{"type": "chat", "text": "\\u0000\\u0001"}')
        assert ada.error()["code"] == "bad_text"
        say(ada, "noch da")
        assert ada.next("chat")["text"] == "noch da"
    assert stored_lines(table) == 1


def test_a_flood_is_refused_line_by_line_while_the_match_goes_on(table: Table) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        mover = ada if ada.state["to_move"] == 0 else bo
        for number in range(6):
            say(mover, f"spam {number}")
        got = [m for m in mover.drain() if m["type"] in ("chat", "error")]
        assert [m["type"] for m in got] == ["chat"] * 5 + ["error"]
        assert got[-1]["code"] == "too_fast"
        mover.act(mover.state["legal_actions"][0])
        assert mover.next("state")["version"] == 1
    assert stored_lines(table) == 5


def test_a_flood_is_counted_per_player_over_all_their_sockets(table: Table) -> None:
    """Fresh sockets bring no fresh allowance: one player's six sockets together pass at
    most CHAT_BURST lines (and what the rate refilled meanwhile); the other player still
    writes."""
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with ExitStack() as stack:
        sockets = [stack.enter_context(table.socket(room_id, cookies[0])) for _ in range(6)]
        started = time.monotonic()
        for number, socket in enumerate(sockets):
            for line in range(10):
                say(socket, f"spam {number}.{line}")
        refused = sum(
            message.get("code") == "too_fast" for socket in sockets for message in socket.drain()
        )
        refilled = int((time.monotonic() - started) * CHAT_PER_SECOND)
        assert stored_lines(table) <= CHAT_BURST + refilled
        assert refused == 60 - stored_lines(table)
        with table.socket(room_id, cookies[1]) as bo:
            say(bo, "und ich?")
            assert bo.next("chat")["text"] == "und ich?"


def test_spectators_without_a_player_are_counted_per_address(table: Table) -> None:
    room_id, _ = table.seated_room("expeditionen", preset="short", spectator_chat=True)
    with ExitStack() as stack:
        sockets = [stack.enter_context(table.socket(room_id)) for _ in range(6)]
        for socket in sockets:
            say(socket, "hallo")
            say(socket, "hallo?")
        codes = [
            message["code"]
            for socket in sockets
            for message in socket.drain()
            if message["type"] == "error"
        ]
    assert sorted(codes) == ["not_seated"] * CHAT_BURST + ["too_fast"] * (12 - CHAT_BURST)


@pytest.mark.public_history
@pytest.mark.both_databases
def test_a_line_is_stored_with_the_match_and_shown_in_the_replay_at_its_step(
    table: Table,
) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, cookies[1]) as bo:
        mover = ada if ada.state["to_move"] == 0 else bo
        mover.act(mover.state["legal_actions"][0])
        mover.wait_version(1, 1)
        say(mover, "oh je")
        mover.next("chat")
        mover.send({"type": "resign"})
        match_id = mover.next("state")["match_id"]
    table.client.cookies.set("kr_player", cookies[0])
    replay = table.client.get(f"/api/matches/{match_id}").json()
    table.client.cookies.clear()
    [line] = replay["chat"]
    assert (line["ply"], line["text"], line["match_id"]) == (1, "oh je", match_id)
    assert replay["steps"][line["ply"]]["ply"] == 1


@pytest.mark.public_history
def test_a_private_chat_is_left_out_of_a_public_replay_but_not_the_players_own(
    table: Table,
) -> None:
    room_id, cookies = table.seated_room("expeditionen", preset="short", private_chat=True)
    with table.socket(room_id, cookies[0]) as ada:
        say(ada, "unter uns")
        ada.next("chat")
        ada.send({"type": "resign"})
        match_id = ada.next("state")["match_id"]
    assert table.client.get(f"/api/matches/{match_id}").json()["chat"] == []
    table.client.cookies.set("kr_player", cookies[0])
    mine = table.client.get(f"/api/matches/{match_id}").json()["chat"]
    table.client.cookies.clear()
    assert [line["text"] for line in mine] == ["unter uns"]


@pytest.mark.public_history
def test_only_the_seated_players_read_back_a_private_chat_while_its_room_is_open(
    table: Table,
) -> None:
    """The public history names the room of a finished match, which stays open for the
    rematch: its private chat is read back by its players alone. A spectator gets the
    lines written while its socket is open (as every socket does), never the earlier ones;
    anyone else the answer of a room without lines."""
    room_id, cookies = table.seated_room("expeditionen", preset="short", private_chat=True)
    _, watcher = table.join(room_id, "Cy")
    with table.socket(room_id, cookies[0]) as ada, table.socket(room_id, watcher) as cy:
        say(ada, "unter uns")
        assert cy.next("chat")["text"] == "unter uns"
        ada.send({"type": "resign"})
        match_id = ada.next("state")["match_id"]
    [listed] = table.client.get("/api/matches").json()
    assert (listed["match_id"], listed["room_id"]) == (match_id, room_id)
    nothing = {"room_id": room_id, "messages": []}
    for cookie in (None, watcher, table.join(room_id, "Eve")[1]):
        if cookie is not None:
            table.client.cookies.set("kr_player", cookie)
        answer = table.client.get(f"/api/rooms/{room_id}/chat")
        assert (answer.status_code, answer.json()) == (200, nothing)
        assert table.client.get(f"/api/matches/{match_id}").json()["chat"] == []
        table.client.cookies.clear()
    for cookie in cookies:
        table.client.cookies.set("kr_player", cookie)
        lines = table.client.get(f"/api/rooms/{room_id}/chat").json()["messages"]
        assert [line["text"] for line in lines] == ["unter uns"]
        table.client.cookies.clear()


def test_a_chat_line_waits_for_no_lock_of_the_room(table: Table) -> None:
    """A move in progress holds the room's lock; a chat line goes past it."""
    room_id, cookies = table.seated_room("expeditionen", preset="short")
    room = table.app.state.rooms.room(room_id)
    with table.socket(room_id, cookies[0]) as ada:
        portal = table.client.portal
        assert portal is not None
        portal.call(room.lock.acquire)
        try:
            say(ada, "schnell")
            assert ada.next("chat")["text"] == "schnell"
        finally:
            portal.call(room.lock.release)
    assert json.loads(ada.texts[-1])["type"] == "chat"
