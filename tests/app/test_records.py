"""A record between friends (app/people/records.py): each player's record and ratings,
computed from stored matches with known results.

Three people (Ada, Ben, Cleo) and the computer at two levels play two two-player games and
Scoundrel; among the matches are wins, draws, a resigned one, an abandoned one and an
aborted one. The matches are stored through the repositories, not in the order they
ended; every number on Ada's record is written out here, and the ratings are computed
again with openskill, independently, for the same sequence."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from openskill.models import PlackettLuce

from app.people.identity import COOKIE
from app.people.records import Rating, seat_rating, shown_rating
from app.storage.models import COMPUTER, Match, Room, Seat
from app.storage.repositories import Finish, Store
from tests.app.tables import Table, play

# The queries (the order of ends, the seats joined, who played together) on PostgreSQL too.
on_both = pytest.mark.both_databases

T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
CPU = "cpu"  # a seat of the computer in the list of matches below


@dataclass(frozen=True)
class Played:
    minute: int  # when it ended, minutes after T0
    game: str
    seats: tuple[str, ...]  # a person's name, or "cpu:<level>"
    status: str  # finished, aborted, abandoned
    winner: int | None
    scores: tuple[int, ...]
    reason: str = "higher_total"


def resigned(minute: int, game: str, seats: tuple[str, ...], by: int) -> Played:
    winner = 1 - by if len(seats) == 2 else None
    return Played(minute, game, seats, "finished", winner, (), "resigned")


EXP, PILZ, SC = "expeditionen", "pilzwanderung", "scoundrel"
# Listed in the order they are stored, which is not the order they ended (``minute``).
MATCHES = [
    Played(5, EXP, ("Ada", "Ben"), "finished", 0, (60, 40)),
    Played(10, EXP, ("Ben", "Ada"), "finished", None, (30, 30)),
    Played(40, EXP, ("Ada", "Cleo"), "finished", 1, (20, 35)),  # stored before it ended...
    resigned(20, EXP, ("Ada", "Ben"), by=0),  # ...after this one
    Played(25, EXP, ("Ada", "Cleo"), "abandoned", None, ()),
    Played(27, EXP, ("Ada", "Cleo"), "aborted", None, ()),
    Played(30, EXP, ("Ada", "cpu:easy"), "finished", 0, (50, 20)),
    Played(35, EXP, ("Ada", "cpu:strong"), "finished", 1, (10, 45)),
    Played(45, EXP, ("Ben", "Cleo"), "finished", 0, (44, 12)),
    Played(8, PILZ, ("Ada", "Ben"), "finished", 0, (12, 8)),
    Played(9, PILZ, ("Ada", "cpu:easy"), "finished", 1, (3, 9)),
    Played(50, PILZ, ("Ada", "cpu:easy"), "finished", 0, (15, 2)),
    Played(1, SC, ("Ada",), "finished", 0, (12,), "survived"),
    Played(2, SC, ("Ada",), "finished", None, (-20,), "slain"),
    Played(3, SC, ("Ada",), "finished", 0, (7,), "survived"),
    resigned(4, SC, ("Ada",), by=0),
]


def person(table: Table, name: str) -> tuple[str, str]:
    """A new player called ``name``: their cookie and id."""
    table.client.cookies.clear()
    answer = table.client.put("/api/me/name", json={"name": name})
    assert answer.status_code == 204, answer.text
    cookie = answer.cookies[COOKIE]
    table.client.cookies.clear()
    return cookie, table.player_id(cookie)


def store_match(store: Store, played: Played, ids: dict[str, str], number: int) -> None:
    """A room with its seats and one match, ended as ``played`` says."""
    at = T0 + timedelta(minutes=played.minute)
    room_id = f"records{number}"
    seats = []
    for seat, who in enumerate(played.seats):
        if who.startswith(CPU):
            level = who.split(":")[1]
            seats.append(
                Seat(
                    room_id=room_id, seat=seat, name="Computer", player_id=COMPUTER, computer=level
                )
            )
        else:
            seats.append(Seat(room_id=room_id, seat=seat, name=who, player_id=ids[who]))
    room = Room(id=room_id, game=played.game, options={}, created_at=at, last_active_at=at)
    match = Match(
        room_id=room_id,
        number=1,
        game=played.game,
        seed=number,
        options={},
        first_seat=0,
        status="playing",
        started_at=at,
    )
    store.create_room(room, match, seats)
    result: dict[str, Any] = {
        "scores": list(played.scores),
        "winner": played.winner,
        "reason": played.reason,
    }
    if played.reason == "resigned":
        result["resigned_by"] = 0
    if played.status == "abandoned":
        result |= {"reason": "abandoned", "abandoned_by": 1}
    if played.status == "aborted":
        result |= {"reason": "aborted", "aborted_by": 0}
    assert store.end_match(match.id, played.status, Finish(result, played.winner, at))


@pytest.fixture
def people(table: Table) -> dict[str, tuple[str, str]]:
    """Ada, Ben and Cleo (cookie, id), with every match of MATCHES stored; a page asked
    before the later ones were stored, so the ratings in memory were taken up in steps (and
    a match that ended earlier was stored after a later one: the replay starts again)."""
    people = {name: person(table, name) for name in ("Ada", "Ben", "Cleo")}
    ids = {name: player_id for name, (_cookie, player_id) in people.items()}
    store = table.app.state.rooms.store
    for number, played in enumerate(MATCHES, start=1):
        store_match(store, played, ids, number)
        if number == 3:
            record(table, people["Ada"][0], ids["Ada"])
    # As when a match ends through the rooms: the ratings in memory take the news in.
    table.app.state.ratings.refresh()
    return people


def record(table: Table, cookie: str | None, player_id: str) -> Any:
    table.client.cookies.clear()
    if cookie is not None:
        table.client.cookies.set(COOKIE, cookie)
    answer = table.client.get(f"/api/players/{player_id}")
    table.client.cookies.clear()
    return answer


def ada_record(table: Table, people: dict[str, tuple[str, str]]) -> dict[str, Any]:
    cookie, player_id = people["Ada"]
    answer = record(table, cookie, player_id)
    assert answer.status_code == 200, answer.text
    return {"record": answer.json(), "games": {g["game"]: g for g in answer.json()["games"]}}


def tally(matches: int, wins: int, draws: int, losses: int) -> dict[str, int]:
    return {"matches": matches, "wins": wins, "draws": draws, "losses": losses}


def test_a_record_counts_finished_matches_and_a_resigned_one_as_a_loss(
    table: Table, people: dict[str, tuple[str, str]]
) -> None:
    games = ada_record(table, people)["games"]
    expeditionen = games[EXP]
    # Won 60:40, drew 30:30, resigned, (abandoned, aborted: nothing), beat easy 50:20, lost
    # to strong 10:45, lost to Cleo 20:35.
    assert {k: expeditionen[k] for k in ("matches", "wins", "draws", "losses")} == tally(6, 2, 1, 3)
    # Margins of the matches with both scores: +20, 0, +30, -35, -15 (the resignation has none).
    assert expeditionen["average_margin"] == pytest.approx(0.0)
    assert expeditionen["best_score"] is None and expeditionen["solo"] is False
    pilz = games[PILZ]
    assert {k: pilz[k] for k in ("matches", "wins", "draws", "losses")} == tally(3, 2, 0, 1)
    assert pilz["average_margin"] == pytest.approx((4 - 6 + 13) / 3, abs=0.05)


def test_scoundrel_counts_plays_survived_best_and_average_score_and_has_no_rating(
    table: Table, people: dict[str, tuple[str, str]]
) -> None:
    scoundrel = ada_record(table, people)["games"][SC]
    assert scoundrel["solo"] is True
    assert (scoundrel["matches"], scoundrel["wins"]) == (4, 2)  # plays, survived
    assert scoundrel["best_score"] == 12
    assert scoundrel["average_score"] == pytest.approx((12 - 20 + 7) / 3, abs=0.05)
    assert scoundrel["rating"] is None
    # Survived, slain, survived, resigned (in the order they ended).
    assert (scoundrel["streak"], scoundrel["best_streak"]) == (0, 1)


def test_streaks_follow_the_order_the_matches_ended(
    table: Table, people: dict[str, tuple[str, str]]
) -> None:
    games = ada_record(table, people)["games"]
    # Expeditionen by end: W(5) D(10) L(20, resigned) W(30) L(35) L(40).
    assert (games[EXP]["streak"], games[EXP]["best_streak"]) == (0, 1)
    # Pilzwanderung by end: W(8) L(9) W(50).
    assert (games[PILZ]["streak"], games[PILZ]["best_streak"]) == (1, 1)


def test_the_computer_counts_in_the_record_per_level(
    table: Table, people: dict[str, tuple[str, str]]
) -> None:
    games = ada_record(table, people)["games"]
    assert games[EXP]["computer"] == [
        {"level": "easy", **tally(1, 1, 0, 0)},
        {"level": "strong", **tally(1, 0, 0, 1)},
    ]
    assert games[PILZ]["computer"] == [{"level": "easy", **tally(2, 1, 0, 1)}]


@on_both
def test_head_to_head_spans_every_room_and_game(
    table: Table, people: dict[str, tuple[str, str]]
) -> None:
    opponents = ada_record(table, people)["record"]["opponents"]
    ben, cleo = people["Ben"][1], people["Cleo"][1]
    assert [(o["player_id"], o["name"]) for o in opponents] == [(ben, "Ben"), (cleo, "Cleo")]
    assert {k: opponents[0][k] for k in ("matches", "wins", "draws", "losses")} == tally(4, 2, 1, 1)
    assert opponents[0]["games"] == [
        {"game": EXP, **tally(3, 1, 1, 1)},
        {"game": PILZ, **tally(1, 1, 0, 0)},
    ]
    # The abandoned and the aborted match against Cleo count for nothing.
    assert opponents[1]["games"] == [{"game": EXP, **tally(1, 0, 0, 1)}]


def expected_ratings(ids: dict[str, str]) -> dict[tuple[str, str], tuple[float, float, int]]:
    """openskill, run here over the finished matches between two people, by their ends."""
    model = PlackettLuce()
    ratings: dict[tuple[str, str], Any] = {}
    counts: dict[tuple[str, str], int] = {}
    rated = [
        played
        for played in sorted(MATCHES, key=lambda played: played.minute)
        if played.status == "finished"
        and len(played.seats) == 2
        and not any(who.startswith(CPU) for who in played.seats)
    ]
    for played in rated:
        keys = [(played.game, ids[who]) for who in played.seats]
        teams = [[ratings.get(key, model.rating())] for key in keys]
        if played.winner is None:
            ranks = [1.0, 1.0]
        else:
            ranks = [1.0 if seat == played.winner else 2.0 for seat in range(2)]
        for key, (new,) in zip(keys, model.rate(teams, ranks=ranks), strict=True):
            ratings[key] = new
            counts[key] = counts.get(key, 0) + 1
    return {key: (r.mu, r.sigma, counts[key]) for key, r in ratings.items()}


@on_both
def test_ratings_are_openskill_over_matches_between_two_people_in_the_order_they_ended(
    table: Table, people: dict[str, tuple[str, str]]
) -> None:
    ids = {name: player_id for name, (_cookie, player_id) in people.items()}
    expected = expected_ratings(ids)
    assert expected[(EXP, ids["Ada"])][2] == 4  # 60:40, the draw, the resignation, Cleo
    for name in ("Ada", "Ben", "Cleo"):
        cookie, player_id = people[name]
        games = {g["game"]: g for g in record(table, cookie, player_id).json()["games"]}
        for game in (EXP, PILZ):
            if (game, player_id) not in expected:  # Cleo never played Pilzwanderung
                assert game not in games
                continue
            mu, sigma, matches = expected[(game, player_id)]
            shown = games[game]["rating"]
            assert shown["matches"] == matches
            assert shown["mu"] == pytest.approx(mu, abs=1e-3)
            assert shown["sigma"] == pytest.approx(sigma, abs=1e-3)
            assert shown["rating"] == round(1500 + 48 * (mu - 3 * sigma))


@on_both
def test_a_rebuild_from_the_database_gives_the_ratings_kept_in_memory(
    table: Table, people: dict[str, tuple[str, str]]
) -> None:
    ratings = table.app.state.ratings
    ratings.refresh()  # taken up in steps; one match was stored after a later one
    ada = people["Ada"][1]
    kept = ratings.get(EXP, ada)
    ratings.rebuild()
    assert ratings.get(EXP, ada) == kept
    ids = {name: player_id for name, (_cookie, player_id) in people.items()}
    mu, sigma, matches = expected_ratings(ids)[(EXP, ada)]
    assert kept is not None and kept.matches == matches
    assert kept.mu == pytest.approx(mu) and kept.sigma == pytest.approx(sigma)


def test_a_stranger_is_answered_as_if_there_were_no_such_player(
    table: Table, people: dict[str, tuple[str, str]]
) -> None:
    ada = people["Ada"][1]
    stranger, _ = person(table, "Dora")
    for cookie in (stranger, None):
        refused = record(table, cookie, ada)
        unknown = record(table, cookie, "no-such-player")
        assert refused.status_code == unknown.status_code == 404
        assert refused.json() == unknown.json()
        table.client.cookies.clear()
        if cookie is not None:
            table.client.cookies.set(COOKIE, cookie)
        assert table.client.get(f"/players/{ada}").status_code == 404
        table.client.cookies.clear()


@on_both
def test_players_who_played_together_see_each_other_and_only_opponents_they_know(
    table: Table, people: dict[str, tuple[str, str]]
) -> None:
    ada, ben, cleo = (people[name][1] for name in ("Ada", "Ben", "Cleo"))
    seen = record(table, people["Cleo"][0], ada)
    assert seen.status_code == 200
    assert seen.json()["name"] == "Ada" and seen.json()["you"] is False
    # Cleo played Ben too (minute 45): named. Seen by a player who never met Ben, Ada's
    # matches against him would be counted under a null id.
    assert [o["player_id"] for o in seen.json()["opponents"]] == [ben, cleo]
    own = record(table, people["Ada"][0], ada)
    assert own.json()["you"] is True


def test_opponents_the_viewer_never_met_are_counted_without_names(
    table: Table, people: dict[str, tuple[str, str]]
) -> None:
    ids = {name: player_id for name, (_cookie, player_id) in people.items()}
    dora_cookie, dora = person(table, "Dora")
    ids["Dora"] = dora
    store_match(
        table.app.state.rooms.store,
        Played(60, EXP, ("Dora", "Cleo"), "finished", 0, (30, 10)),
        ids,
        99,
    )
    seen = record(table, dora_cookie, ids["Ada"])
    assert seen.status_code == 404  # Dora never played Ada
    cleo = record(table, dora_cookie, ids["Cleo"]).json()
    assert [(o["player_id"], o["name"]) for o in cleo["opponents"]] == [
        (dora, "Dora"),
        (None, None),
    ]
    # Ada and Ben, unnamed: Cleo's matches against them together.
    assert cleo["opponents"][1]["matches"] == 2


@pytest.mark.public_history
def test_public_history_shows_every_player(
    table: Table, people: dict[str, tuple[str, str]]
) -> None:
    ada = people["Ada"][1]
    assert record(table, None, ada).status_code == 200
    assert record(table, None, "no-such-player").status_code == 404


def test_the_players_own_page_is_players_me(
    table: Table, people: dict[str, tuple[str, str]]
) -> None:
    cookie, ada = people["Ada"]
    table.client.cookies.set(COOKIE, cookie)
    answer = table.client.get("/players/me", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == f"/players/{ada}"
    assert table.client.get(f"/players/{ada}").status_code == 200
    table.client.cookies.clear()


def test_the_rating_is_shown_on_the_scale_players_know_from_1500() -> None:
    """Issue 53: the ordinal alone started at 0 and went negative for a newcomer's loss."""
    assert shown_rating(25, 25 / 3) == 1500  # a newcomer's mu and sigma
    model = PlackettLuce()
    (won,), (lost,) = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    first = Rating(won.mu, won.sigma, 1).shown, Rating(lost.mu, lost.sigma, 1).shown
    assert 1500 < first[0] < 1800 and 1200 < first[1] < 1500, first


def test_the_rating_stands_beside_names_in_a_room_for_its_players(
    table: Table, people: dict[str, tuple[str, str]]
) -> None:
    (ada_cookie, ada), (ben_cookie, ben) = people["Ada"], people["Ben"]
    expected = expected_ratings({name: pid for name, (_c, pid) in people.items()})
    room_id = table.create_room(EXP)
    table.join(room_id, "Ada", ada_cookie)
    table.join(room_id, "Ben", ben_cookie)
    with table.socket(room_id, ada_cookie) as seated, table.socket(room_id) as watching:
        shown = seated.state["ratings"]
        assert watching.state["ratings"] is None  # a spectator: only with PUBLIC_HISTORY
    for seat, player_id in enumerate((ada, ben)):
        mu, sigma, matches = expected[(EXP, player_id)]
        assert shown[seat] == {
            "player_id": player_id,
            "rating": round(1500 + 48 * (mu - 3 * sigma)),
            "matches": matches,
        }


def test_the_state_that_ends_a_resigned_match_shows_the_ratings_it_made(
    table: Table, people: dict[str, tuple[str, str]]
) -> None:
    """Issue 53: the chips were one match behind until a reload."""
    (ada_cookie, ada), (ben_cookie, ben) = people["Ada"], people["Ben"]
    room_id = table.create_room(PILZ)
    table.join(room_id, "Ada", ada_cookie)
    table.join(room_id, "Ben", ben_cookie)
    with table.socket(room_id, ada_cookie) as socket:
        before = socket.state["ratings"]
        socket.send({"type": "resign"})
        while socket.state["result"] is None:
            socket.next("state")
        shown = socket.state["ratings"]
    assert [seat["matches"] for seat in shown] == [seat["matches"] + 1 for seat in before]
    assert shown[0]["rating"] < before[0]["rating"] and shown[1]["rating"] > before[1]["rating"]
    assert shown == rebuilt_ratings(table, PILZ, [ada, ben])


def test_the_state_that_ends_a_match_by_its_rules_shows_the_ratings_it_made(
    table: Table, people: dict[str, tuple[str, str]]
) -> None:
    (ada_cookie, ada), (cleo_cookie, cleo) = people["Ada"], people["Cleo"]
    room_id = table.create_room(EXP, preset="short")
    table.join(room_id, "Ada", ada_cookie)
    table.join(room_id, "Cleo", cleo_cookie)
    with table.socket(room_id, ada_cookie) as one, table.socket(room_id, cleo_cookie) as other:
        before = one.state["ratings"]
        play(table, room_id, [one, other], random.Random(3))
        assert one.state["result"] is not None
        shown = [one.state["ratings"], other.state["ratings"]]
    assert shown[0] == shown[1]
    assert [seat["matches"] for seat in shown[0]] == [seat["matches"] + 1 for seat in before]
    assert shown[0] == rebuilt_ratings(table, EXP, [ada, cleo])


def rebuilt_ratings(table: Table, game: str, seats: list[str]) -> list[dict[str, Any]]:
    """What a rebuild of every rating from the database shows for these seats."""
    ratings = table.app.state.ratings
    ratings.rebuild()
    return [seat_rating(ratings.get(game, player_id), player_id) for player_id in seats]
