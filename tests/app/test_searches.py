"""Long searches (Scoundrel's best line, its hint) run in worker processes: never in the
server process, once per match or table however often they are asked for, and a bounded
number at a time; a flood is told to try again and changes nothing."""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from app.computer.searches import Searches, SearchesBusy, SearchFailed
from tests.app.tables import Table
from tests.app.test_analysis import QUICK_DEAL, finished_match, foreseen
from tests.app.test_hint import hint


def where(seconds: float = 0.0) -> tuple[int, str]:
    """The worker's process id and a mark of this one run."""
    time.sleep(seconds)
    return os.getpid(), uuid.uuid4().hex


def die() -> None:
    os._exit(1)


def job(search: Callable[..., object], *args: object) -> Callable[[], tuple[Any, tuple[Any, ...]]]:
    return lambda: (search, args)


@pytest.fixture
def searches() -> Iterator[Searches]:
    pool = Searches(processes=1, queue=2)
    yield pool
    pool.close()


def test_a_search_runs_in_another_process(searches: Searches) -> None:
    pid, _ = searches.run("a", job(where))
    assert pid != os.getpid()


def test_the_same_search_asked_for_twice_at_once_runs_once(searches: Searches) -> None:
    searches.run("warm", job(where))  # the worker has started
    with ThreadPoolExecutor(2) as threads:
        first = threads.submit(searches.run, "match 7", job(where, 0.5))
        time.sleep(0.1)
        second = threads.submit(searches.run, "match 7", job(where, 0.5))
        assert first.result() == second.result()
    assert searches.run("match 7", job(where)) != first.result(), "once answered, a new search"


def test_searches_beyond_the_queue_are_refused_and_start_nothing(searches: Searches) -> None:
    searches.run("warm", job(where))
    started = threading.Event()

    def busy(key: str) -> tuple[int, str]:
        started.set()
        return searches.run(key, job(where, 0.5))

    with ThreadPoolExecutor(2) as threads:
        running = [threads.submit(busy, key) for key in ("one", "two")]
        started.wait()
        time.sleep(0.1)
        with pytest.raises(SearchesBusy):
            searches.run("three", job(where))
        assert len({future.result() for future in running}) == 2
    assert searches.run("three", job(where))[0] > 0, "room again once they are done"


def test_a_worker_that_dies_fails_its_search_and_the_next_one_gets_a_new_worker(
    searches: Searches,
) -> None:
    with pytest.raises(SearchFailed):
        searches.run("doomed", job(die))
    pid, _ = searches.run("next", job(where))
    assert pid != os.getpid()


def test_a_hint_while_the_searches_are_busy_is_refused_and_changes_nothing(table: Table) -> None:
    room_id, cookies = table.seated_room("scoundrel", names=("Ada",))
    table.app.state.matches.searches.queue = 0
    before = table.client.get(f"/api/rooms/{room_id}").json()
    response = hint(table, room_id, cookies[0])
    assert response.status_code == 503
    assert response.json()["detail"]["code"] == "unavailable"
    assert table.client.get(f"/api/rooms/{room_id}").json() == before


@pytest.mark.public_history
@pytest.mark.analysis_ahead
def test_an_analysis_while_the_searches_are_busy_is_refused_and_not_kept(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.table.live.secrets.randbits", lambda bits: QUICK_DEAL)
    match_id = finished_match(table)
    matches = table.app.state.matches
    foreseen(table, match_id).result(timeout=10)
    del matches.foreseen[match_id]  # as in a process that did not deal this match
    matches.searches.queue = 0
    response = table.client.get(f"/api/matches/{match_id}/analysis")
    assert response.status_code == 503
    assert response.json()["detail"]["code"] == "unavailable"
    assert match_id not in matches.analyses
    matches.searches.queue = 1
    assert table.client.get(f"/api/matches/{match_id}/analysis").json()["solved"]


def test_what_a_search_needs_is_read_once_for_all_who_ask_at_once(searches: Searches) -> None:
    searches.run("warm", job(where))
    reads: list[int] = []

    def read() -> tuple[Any, tuple[Any, ...]]:
        reads.append(1)
        return where, (0.5,)

    with ThreadPoolExecutor(4) as threads:
        answers = [threads.submit(searches.run, "table 3", read) for _ in range(4)]
        assert len({answer.result() for answer in answers}) == 1
    assert reads == [1]


def test_what_the_preparation_raises_every_caller_of_the_search_gets(searches: Searches) -> None:
    def stale() -> tuple[Any, tuple[Any, ...]]:
        raise ValueError("the table changed")

    with pytest.raises(ValueError, match="the table changed"):
        searches.run("table 4", stale)
    assert searches.run("table 4", job(where))[0] > 0, "nothing left pending"


def test_closing_ends_a_search_under_way_at_once() -> None:
    searches = Searches(processes=1, queue=2)
    pid, _ = searches.run("warm", job(where))
    with ThreadPoolExecutor(1) as threads:
        waiting = threads.submit(searches.run, "long", job(where, 60.0))
        time.sleep(0.2)
        started = time.monotonic()
        searches.close()
        with pytest.raises(SearchFailed):
            waiting.result(timeout=10)
    while alive(pid) and time.monotonic() - started < 5:
        time.sleep(0.05)
    assert not alive(pid)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_search_runs_at_the_lowest_priority(searches: Searches) -> None:
    """Where the system has SCHED_IDLE (Linux) it runs only when nothing else wants the
    CPU: the rooms' moves go first."""
    assert searches.run("policy", job(os.sched_getscheduler, 0)) == os.SCHED_IDLE


def test_at_most_twice_the_queue_wait_even_for_one_search() -> None:
    """Each caller holds a thread that every plain route shares: one search asked for by a
    crowd must not take them all."""
    searches = Searches(processes=1, queue=1)
    try:
        searches.run("warm", job(where))
        with ThreadPoolExecutor(2) as threads:
            crowd = [threads.submit(searches.run, "one", job(where, 0.5)) for _ in range(2)]
            time.sleep(0.2)
            with pytest.raises(SearchesBusy):
                searches.run("one", job(where))
            assert len({waiter.result() for waiter in crowd}) == 1
        assert searches.run("one", job(where))[0] > 0
    finally:
        searches.close()


def test_a_foreseen_search_starts_only_when_no_other_search_waits_or_runs(
    searches: Searches,
) -> None:
    searches.run("warm", job(where))
    with ThreadPoolExecutor(1) as threads:
        running = threads.submit(searches.run, "asked", job(where, 0.5))
        time.sleep(0.1)
        assert searches.foresee("ahead", job(where)) is None
        running.result()
    ahead = searches.foresee("ahead", job(where))
    assert ahead is not None and ahead.result()[0] > 0


def test_a_foreseen_search_takes_no_place_of_the_queue_and_is_joined_when_asked_for(
    searches: Searches,
) -> None:
    searches.run("warm", job(where))
    ahead = searches.foresee("match 9", job(where, 0.5))
    assert ahead is not None
    with ThreadPoolExecutor(3) as threads:
        asked = [threads.submit(searches.run, key, job(where)) for key in ("one", "two")]
        joined = threads.submit(searches.run, "match 9", job(where))
        assert all(future.result()[0] > 0 for future in asked), "the queue holds two"
        assert joined.result() == ahead.result(), "joined, not searched again"
