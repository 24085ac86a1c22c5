"""Every message and HTTP body between server and clients: the single source of the protocol.

``docs/protocol.md`` explains these models; a test checks that it documents each one.
The server builds its hot-path messages as plain dicts in exactly these shapes (the tests
validate every message they receive against ``SERVER_MESSAGE``).
"""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    StringConstraints,
    TypeAdapter,
    WithJsonSchema,
)

from engine import ErrorCode as EngineErrorCode

# Every code of an error, the engine's (why it refused an action) among them: a nested
# Literal is flattened, so the wire's list holds the engine's by construction.
ErrorCode = Literal[
    EngineErrorCode,
    "too_large",
    "rate_limited",
    "not_seated",
    "stale",
    "waiting",
    "unknown_room",
    "forbidden_origin",
    "unavailable",
    "unknown_game",
    "unknown_preset",
    "bad_option",
    "unknown_match",
    "unknown_step",
    "too_many_connections",
    "too_many_rooms",
    "unknown_level",
    "no_free_seat",
    "not_offered",
    "unknown_device",
    "nothing_to_take_back",
    "not_your_move",
    "revealed",
    "takeback_open",
    "too_many_takebacks",
    "takeback_declined",
    "paused",
    "not_paused",
    "bad_text",
    "too_fast",
    "unknown_player",
    "daily_played",
    "unknown_daily",
    "daily_running",
    "unknown_path",
]

# Websocket close codes (4000-4999 are free for applications).
CLOSE_UNKNOWN_ROOM = 4404
CLOSE_FORBIDDEN_ORIGIN = 4403
CLOSE_ROOM_CLOSED = 4410
# The device was signed out (DELETE /api/me/devices/{id}, POST /api/me/sign-out-all): its
# cookie reaches its player no more, so reconnecting with it would only watch.
CLOSE_SIGNED_OUT = 4401
# A connection that could not keep up: its outgoing queue overflowed or a write stalled.
CLOSE_TOO_SLOW = 4408
# A connection that sent faster than MESSAGES_PER_SECOND.
CLOSE_RATE_LIMITED = 4429
# The server restarts (uvicorn's close on shutdown; the standard code for "service restart").
CLOSE_RESTART = 1012
# The database could not be reached when the socket opened (the standard "try again later").
CLOSE_TRY_AGAIN = 1013
# A text frame that is not UTF-8 (the standard "invalid frame payload data").
CLOSE_INVALID_TEXT = 1007
# A frame above the transport's limit (TRANSPORT_MAX_BYTES) is closed with the standard 1009.
CLOSE_TOO_BIG = 1009
TRANSPORT_MAX_BYTES = 64 * 1024

# The largest id (or ply) a request may name: the id columns are integers, 32 bits on
# PostgreSQL (app/storage/models.py).
MAX_ID = 2**31 - 1

# Printable text only: PostgreSQL refuses NUL, and no name needs control characters.
PRINTABLE = r"^[^\x00-\x1f\x7f]*$"


def printable_name(name: str) -> str:
    """No control characters (C0 or C1) and no lone surrogates (they are no UTF-8)."""
    if any(unicodedata.category(char) in ("Cc", "Cs") for char in name):
        raise ValueError("a name may not hold control characters or lone surrogates")
    return name


PlayerName = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=24, pattern=PRINTABLE),
    AfterValidator(printable_name),
    # The checks above apply after trimming; the schema says what a client may send.
    WithJsonSchema(
        {
            "type": "string",
            "pattern": r"^\s*[^\x00-\x1f\x7f]{1,24}\s*$",
            "description": "1 to 24 printable characters after trimming whitespace",
        }
    ),
]
# Checked like any text, so an unknown one can be named back (a lone surrogate cannot).
OptionName = Annotated[str, StringConstraints(max_length=32, pattern=PRINTABLE)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# Client → server


class ActionMessage(Strict):
    type: Literal["action"]
    version: StrictInt = Field(ge=0, description="the last state version this client saw")
    action: dict[str, Any] = Field(description="one of the legal_actions, e.g. {type, card}")


class RematchRequest(Strict):
    type: Literal["rematch"]


class Ping(Strict):
    type: Literal["ping"]


class TakeoverChoice(Strict):
    type: Literal["takeover"]
    choice: Literal["wait", "computer", "end"] = Field(
        description="keep waiting, let the computer play the absent seat, or end the match"
    )
    level: str | None = Field(
        None, max_length=16, description="the computer's level (default: the first offered)"
    )


class Resign(Strict):
    """Give up the running match: the other seat wins (alone, the match is lost)."""

    type: Literal["resign"]


class Abort(Strict):
    """Call the running match off, while ``state.abortable``: no result, not counted."""

    type: Literal["abort"]


class Visibility(Strict):
    """The page of this socket became hidden or visible again: a player with no visible
    tab of the table gets "your turn" as a Web Push notice (app/people/push.py)."""

    type: Literal["visibility"]
    visible: StrictBool


class TakebackRequest(Strict):
    """Ask to take back this seat's last move (alone at the table: it is taken back)."""

    type: Literal["takeback"]


class TakebackAnswer(Strict):
    type: Literal["takeback_answer"]
    accept: StrictBool = Field(description="take the asker's move back (true) or not")


class PauseRequest(Strict):
    """Ask to pause the running match, or agree to the other player's request: once every
    person seated asked, nobody moves and no clock runs (app/table/pause.py)."""

    type: Literal["pause"]


class Resume(Strict):
    """Go on with the paused match (either player)."""

    type: Literal["resume"]


# Chat (app/table/chat.py). A reaction is a key; each client shows it in its language.
Reaction = Literal["good_move", "oops", "thanks", "well_played", "thumbs_up", "laugh", "wow"]
CHAT_MAX_CHARS = 300


class Say(Strict):
    """A chat message to everyone in the room: plain text (never markup)."""

    type: Literal["chat"]
    text: StrictStr = Field(
        description=f"1 to {CHAT_MAX_CHARS} characters after trimming whitespace, no control "
        "characters (a line break is one); refused with bad_text otherwise"
    )


class React(Strict):
    """A quick reaction, as one tap: a key the client shows in its reader's language."""

    type: Literal["react"]
    reaction: Reaction


AnyClientMessage = (
    ActionMessage
    | RematchRequest
    | Ping
    | TakeoverChoice
    | Resign
    | Abort
    | Visibility
    | TakebackRequest
    | TakebackAnswer
    | PauseRequest
    | Resume
    | Say
    | React
)
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)


# Server → client


class Player(BaseModel):
    seat: int
    name: str | None = Field(description="null while the seat is free")
    connected: bool = Field(description="at the table (the computer always is)")
    computer: str | None = Field(
        None,
        description="the level of the computer playing this seat: its own seat (name "
        "'Computer'), or a person's while they are away; null: the person plays",
    )


class Tally(BaseModel):
    wins: list[int] = Field(description="matches won, per seat")
    draws: int
    matches: int = Field(description="finished matches in this room")


TOOK = (
    "the open cards the move took that the action does not name (a forest position's card, "
    "a discard pile's top)"
)


class LastAction(BaseModel):
    seat: int
    action: dict[str, Any]
    text: str = Field(description="the engine's notation, e.g. 'take 7C weapon'")
    computer: bool = Field(False, description="the computer made this move")
    took: list[str] = Field(description=TOOK)


class RematchStatus(BaseModel):
    requested_by: list[int]


class TurnInfo(BaseModel):
    seat: int = Field(description="the seat that must move")
    since: datetime = Field(description="when its turn began")
    deadline: datetime | None = Field(
        description="when its time per move runs out; null: no time limit"
    )
    now: datetime | None = Field(
        None,
        description="in a state message, the server's clock as it was built: the time left "
        "and since is counted from it, never from the device's own clock",
    )


class TakebackStatus(BaseModel):
    seat: int | None = Field(
        description="the seat whose last move may be taken back now (it stands last and "
        "revealed nothing); null: none"
    )
    requested: bool = Field(description="that seat asked; another seat may answer")
    undone: int | None = Field(
        description="the newest entry is a takeback: the ply of the move it took back"
    )


class PauseStatus(BaseModel):
    asked_by: list[int] = Field(description="the seats that asked for a pause (or agreed)")
    paused: bool = Field(description="every person agreed: nobody moves, no clock runs")


class UnseenCount(BaseModel):
    zone: str = Field(
        description="a place whose cards this viewer may not see, in the game's word "
        "(hand, draw_pile, dungeon, ...)"
    )
    seat: int | None = Field(description="whose place (a hand); null: the table's")
    count: int = Field(description="how many cards lie there, never which")


class SeatRating(BaseModel):
    player_id: str = Field(description="the person's id: their record is /players/{player_id}")
    rating: int | None = Field(
        description="their rating for the room's game: 1500 + 48 x openskill's conservative "
        "ordinal (mu - 3 sigma, PlackettLuce), rounded; null before their first rated match"
    )
    matches: int = Field(description="the finished matches between two people it rests on")


class StateMessage(BaseModel):
    type: Literal["state"]
    room_id: str
    match_id: int
    match_number: int
    version: int
    seat: int | None
    to_move: int | None
    view: dict[str, Any]
    legal_actions: list[dict[str, Any]]
    last_action: LastAction | None
    result: dict[str, Any] | None
    players: list[Player]
    tally: Tally
    rematch: RematchStatus | None
    turn: TurnInfo | None = Field(
        None, description="a turn-based room's running match: whose turn since when, until when"
    )
    abortable: bool = Field(
        description="the running match may still be aborted: each seat has made fewer than "
        "two moves (a turn of several actions is one move)"
    )
    takeback: TakebackStatus
    pause: PauseStatus | None = Field(
        description="a pause of the running match (null: the match is not running)"
    )
    unseen: list[UnseenCount] = Field(
        description="what this viewer may not see, by place: counts only (the game's "
        "unseen places; the table's developer panel)"
    )
    ratings: list[SeatRating | None] | None = Field(
        None,
        description="by seat, each person's rating for the game (null: a free seat, the "
        "computer's, a solo game); null for spectators unless PUBLIC_HISTORY",
    )


class PresenceMessage(BaseModel):
    type: Literal["presence"]
    players: list[Player]


class RematchMessage(BaseModel):
    type: Literal["rematch"]
    requested_by: list[int]


class ErrorMessage(BaseModel):
    type: Literal["error"]
    code: ErrorCode
    message: str


class Pong(BaseModel):
    type: Literal["pong"]


class TakeoverMessage(BaseModel):
    type: Literal["takeover"]
    seat: int | None = Field(
        description="the seat whose player has been away during their turn for "
        "TAKEOVER_SECONDS; null: the offer is over"
    )
    levels: list[str] = Field(description="the computer's levels, for the choice `computer`")
    time_ran_out: bool = Field(
        False, description="a turn-based room: the seat's time per move ran out"
    )
    away: int | None = Field(
        None,
        description="while no offer stands: the seat to move whose player has no socket; "
        "the offer for it comes in `offer_in` seconds",
    )
    offer_in: float | None = Field(
        None, description="seconds until the offer for the `away` seat comes (server's clock)"
    )


class TakebackMessage(BaseModel):
    type: Literal["takeback"]
    seat: int = Field(description="the seat that asked to take back its last move")
    answer: Literal["asked", "accepted", "declined"] = Field(
        description="asked (the others may answer), accepted (taken back), declined"
    )


class ChatLine(BaseModel):
    """One chat message or reaction as stored: in the room's chat and in a replay."""

    match_id: int
    ply: int = Field(
        description="the match's version when it was sent: the replay shows it at that step"
    )
    seat: int | None = Field(description="the writer's seat; null: a spectator")
    name: str
    writer: str | None = Field(
        description="the writer, for muting: the same key for the same player in every "
        "room and under every name (null: a line from before the key)"
    )
    text: str | None = Field(description="plain text, to be shown as text (never as markup)")
    reaction: Reaction | None = Field(description="a quick reaction's key instead of text")
    at: datetime


class ChatMessage(ChatLine):
    type: Literal["chat"]


AnyServerMessage = (
    StateMessage
    | PresenceMessage
    | RematchMessage
    | ErrorMessage
    | Pong
    | TakeoverMessage
    | TakebackMessage
    | ChatMessage
)
ServerMessage = Annotated[AnyServerMessage, Field(discriminator="type")]
SERVER_MESSAGE: TypeAdapter[AnyServerMessage] = TypeAdapter(ServerMessage)


# HTTP


class ErrorDetail(BaseModel):
    code: ErrorCode
    message: str


class ErrorResponse(BaseModel):
    detail: ErrorDetail


class OptionInfo(BaseModel):
    name: str
    default: Any
    choices: list[Any]
    label: dict[str, str]
    help: dict[str, str]


class PresetInfo(BaseModel):
    name: str
    options: dict[str, Any]
    label: dict[str, str]


class GameInfo(BaseModel):
    name: str
    title: dict[str, str]
    seats: int
    options: list[OptionInfo]
    presets: list[PresetInfo]
    computer: list[str] = Field(
        description="levels of computer player, the usual first; empty for a solo game"
    )
    tables: dict[str, Any] = Field(
        description="the rules' tables the client displays (points, roles, costs), by name"
    )


class GameSchema(BaseModel):
    game: str
    action: dict[str, Any] = Field(description="JSON Schema of one action a seat may send")
    view: dict[str, Any] = Field(description="JSON Schema of what one seat or a spectator sees")


class CreateRoom(Strict):
    game: str = Field(max_length=32)
    options: dict[OptionName, Any] = Field(default_factory=dict)
    preset: str | None = Field(None, max_length=64)
    computer: str | None = Field(
        None,
        max_length=16,
        description="play against the computer: its level (GameInfo.computer), it takes "
        "the last seat",
    )
    turn_based: bool = Field(
        False, description="played over days: never closed for idleness while a match runs"
    )
    move_days: Literal[1, 2, 3, 7] | None = Field(
        None, description="a turn-based room's time per move in days; null: no limit"
    )
    spectator_chat: bool = Field(False, description="spectators may write in the chat")
    private_chat: bool = Field(
        False,
        description="only the room's players read the chat back (GET "
        "/api/rooms/{room_id}/chat, the replay); spectators get the lines written while "
        "they watch",
    )


class AddComputer(Strict):
    level: str = Field(max_length=16, description="one of the game's GameInfo.computer levels")


class ComputerAdded(BaseModel):
    seat: int


class RoomCreated(BaseModel):
    room_id: str
    url: str


class DailyOfRoom(BaseModel):
    day: str
    number: int
    game: str
    match_id: int = Field(description="the daily's match (a rematch in its room is ordinary)")


class RoomInfo(BaseModel):
    room_id: str
    game: str
    options: dict[str, Any]
    preset: str | None
    seats: list[Player]
    status: Literal["waiting", "playing", "finished"]
    match_id: int
    tally: Tally
    turn_based: bool = False
    move_days: int | None = None
    turn: TurnInfo | None = None
    spectator_chat: bool = False
    private_chat: bool = False
    daily: DailyOfRoom | None = Field(
        None, description="a player's attempt at a daily deal: its day and match; else null"
    )


class JoinRoom(Strict):
    name: PlayerName


class Joined(BaseModel):
    seat: int | None = Field(description="the seat this browser holds; null = spectator")


class MyRoom(BaseModel):
    room_id: str
    url: str
    game: str
    seat: int
    name: str
    created_at: datetime
    last_active_at: datetime
    status: Literal["waiting", "playing", "finished"] | None = None
    to_move: int | None = None


class MyGame(BaseModel):
    room_id: str
    url: str
    game: str
    match_number: int
    status: Literal["waiting", "playing"]
    seat: int = Field(description="this player's seat")
    players: list[str | None] = Field(description="the names by seat (null: free)")
    turn_based: bool
    move_days: int | None
    to_move: int | None
    your_turn: bool
    since: datetime | None = Field(description="when the current turn began")
    deadline: datetime | None = Field(description="when its time runs out; null: no limit")
    seconds_left: float | None = Field(description="until the deadline, as the server counts")
    seconds_since: float | None = Field(
        None, description="since the current turn began, as the server counts"
    )


class MatchSummary(BaseModel):
    match_id: int
    room_id: str
    game: str
    options: dict[str, Any]
    players: list[str | None]
    player_ids: list[str | None] = Field(
        description="by seat, the player's id (their record: /players/{id}); null: the computer"
    )
    result: dict[str, Any]
    finished_at: datetime
    replay_from: datetime | None = Field(
        None,
        description="a daily deal whose day still runs: its replay opens at this time "
        "(the day's end); until then /api/matches/{id} answers 403 daily_running",
    )


class Step(BaseModel):
    ply: int
    seat: int | None
    action: dict[str, Any] | None
    text: str | None
    view: dict[str, Any]
    computer: bool = Field(description="the computer made this move")
    took: list[str] | None = Field(description="the open cards the move took (as in Move)")
    taken_back: bool = Field(False, description="a later step took this move back")
    undoes: int | None = Field(
        None,
        description="a takeback (action null): the ply of the move it took back; the view is "
        "the table as before that move",
    )


class MatchReplay(BaseModel):
    match_id: int
    game: str
    options: dict[str, Any]
    players: list[str | None]
    result: dict[str, Any]
    steps: list[Step]
    chat: list[ChatLine] = Field(
        description="the match's chat, each line at its step (empty when the room kept its "
        "chat private and this browser held no seat there)"
    )


class NotSent(BaseModel):
    zone: str = Field(description="the place, in the game's word (as in the state's `unseen`)")
    seat: int | None = Field(description="whose place (a hand); null: the table's")
    count: int
    cards: list[str] = Field(description="the cards lying there, in their order")


class WireViewer(BaseModel):
    viewer: str = Field(description="`seat 0`, `seat 1`, ... or `spectator`")
    seat: int | None
    name: str | None = Field(description="the seat's player; null for the spectator")
    message: dict[str, Any] = Field(
        description="the `state` message this viewer received at the step, as the socket "
        "path builds it"
    )
    not_sent: list[NotSent] = Field(
        description="what this viewer may not see and others may (not counting "
        "`not_sent_to_anyone`)"
    )


class MatchWire(BaseModel):
    """The wire inspector: what each seat and a spectator received at one step of a
    finished match, and what was not sent to them."""

    match_id: int
    game: str
    ply: int
    steps: int = Field(description="the match's steps, the deal included")
    per_connection: list[str] = Field(
        description="the message fields that tell of the room when a message went out, "
        "not of the step (shown for a room nobody sits in now)"
    )
    viewers: list[WireViewer]
    not_sent_to_anyone: list[NotSent]


class MatchAnalysis(BaseModel):
    """After a match: the best score its deal allowed and one line reaching it, step by
    step, and where the line played fell below it. ``solved`` is false if the search ran
    out of its budget (nothing else is set)."""

    match_id: int
    game: str
    your_score: int | None
    solved: bool
    best_score: int | None
    winnable: bool | None
    result: dict[str, Any] | None
    steps: list[Step]
    slip: int | None = Field(
        description="the first step of the replay after which the best score was out of "
        "reach; null if the line played kept it in reach (or the search gave up)"
    )


class Chance(BaseModel):
    action: dict[str, Any]
    text: str
    chance: float


class RoomHint(BaseModel):
    """Scoundrel during play: each legal action's share of sampled dungeons (the cards the
    seat has not seen, in random order) that a perfect continuation still wins."""

    match_id: int
    version: int
    samples: int
    chances: list[Chance]


class Move(BaseModel):
    ply: int
    seat: int
    action: dict[str, Any]
    text: str
    computer: bool = Field(description="the computer made this move")
    took: list[str] = Field(description=TOOK)
    time_ran_out: bool = Field(
        False, description="a turn-based room: the mover's time per move ran out before it"
    )
    taken_back: bool = Field(False, description="a later takeback undid this move")


class RoomChat(BaseModel):
    room_id: str
    messages: list[ChatLine] = Field(description="the room's latest chat lines, oldest first")


class RoomMoves(BaseModel):
    room_id: str
    match_id: int
    match_number: int
    version: int = Field(description="the match's version these moves are complete up to")
    moves: list[Move]


# The daily deal (app/history/daily.py)


class StartDaily(Strict):
    name: PlayerName


class DailyStarted(BaseModel):
    room_id: str
    url: str
    new: bool = Field(description="false: back to this player's running attempt")


class DailyResult(BaseModel):
    outcome: Literal["win", "draw", "loss", "resigned", "aborted", "abandoned"] = Field(
        description="for the player (seat 0); alone at the table a lost game is a loss"
    )
    score: int | None = Field(description="the player's points; null after a resignation")
    opponent_score: int | None = Field(description="the computer's points (a game for two)")


class DailyGame(BaseModel):
    game: str
    status: Literal["new", "running", "done"] = Field(
        description="new: to play; running: the attempt's room is open (room_id); done: "
        "finished (result, share), a new attempt is refused"
    )
    room_id: str | None
    result: DailyResult | None = None
    share: dict[str, str] | None = Field(
        None, description='the text to share per language, e.g. "Scoundrel #214: 27/30"'
    )


class DailyToday(BaseModel):
    day: str = Field(description="today in DAILY_TIME_ZONE, YYYY-MM-DD")
    number: int = Field(description="the day's number: 2026-01-01 is #1, on every server")
    ends_at: datetime
    time_zone: str
    streak: int = Field(description="consecutive days with a daily finished, up to today")
    games: list[DailyGame]


class DailyEntry(DailyResult):
    name: str
    you: bool


class DailyYou(BaseModel):
    result: DailyResult
    share: dict[str, str]
    streak: int
    game_streak: int = Field(description="the streak of this game's dailies alone")


class DailyBoard(BaseModel):
    """A day's board of one game: finished attempts, best first; scores only, never a line."""

    day: str
    number: int
    game: str
    over: bool = Field(description="the day has ended: its dailies' replays are open")
    ends_at: datetime
    par: int | None = Field(
        description="Scoundrel: the best score the deal allowed; null while it is searched "
        "or for a game without one"
    )
    entries: list[DailyEntry]
    you: DailyYou | None = Field(description="this player's attempt, once finished")


# Web Push (app/routes/push.py)

BASE64URL = r"^[A-Za-z0-9_-]+=*$"


class PushKey(BaseModel):
    public_key: str = Field(
        description="the server's VAPID public key (base64url): PushManager's applicationServerKey"
    )


class PushKeys(Strict):
    p256dh: str = Field(min_length=40, max_length=200, pattern=BASE64URL)
    auth: str = Field(min_length=8, max_length=100, pattern=BASE64URL)


class PushSubscription(Strict):
    """A device's subscription as PushSubscription.toJSON() gives it, and its language."""

    endpoint: str = Field(max_length=1000, pattern=r"^https?://[^\s]+$")
    expirationTime: int | None = None  # noqa: N815 (the browser's own name)
    keys: PushKeys
    lang: Literal["de", "en"] = "en"


class PushUnsubscribe(Strict):
    endpoint: str = Field(max_length=1000)


class DeviceInfo(BaseModel):
    """One browser signed in as the asking player (never its secret)."""

    id: int
    label: str = Field(description="browser and system, from its User-Agent")
    name: str | None = Field(description="the player's own name for it; null: none given")
    signed_in_at: datetime
    last_seen_at: datetime = Field(description="to the minute")
    this_device: bool


class MyDevices(BaseModel):
    name: str | None = Field(description="the name the player gave themselves; null: none yet")
    devices: list[DeviceInfo]


class Rename(Strict):
    name: PlayerName


class MakeDeviceLink(Strict):
    next: str | None = Field(None, max_length=200, description="a path on this site")


class DeviceLink(BaseModel):
    url: str = Field(description="single use; signs another browser in as this player")
    expires_at: datetime


# A player's record (app/people/records.py)


class RecordTally(BaseModel):
    matches: int
    wins: int = Field(description="a solo game: games survived")
    draws: int
    losses: int = Field(description="a resigned match is a loss")


class LevelRecord(RecordTally):
    level: str = Field(description="the computer's level")


class RatingInfo(BaseModel):
    rating: int = Field(
        description="1500 + 48 x openskill's conservative ordinal (mu - 3 sigma), rounded"
    )
    mu: float
    sigma: float
    matches: int = Field(description="the finished matches between two people it rests on")


class GameRecord(RecordTally):
    game: str
    solo: bool = Field(description="played alone (Scoundrel): no margin, no rating")
    average_margin: float | None = Field(
        description="one's points less the other's, on average over the matches whose "
        "result has both scores (not a resigned one); null: none"
    )
    best_score: int | None = Field(description="a solo game's best score")
    average_score: float | None = Field(description="a solo game's average score")
    streak: int = Field(description="wins (solo: games survived) in a row up to the last match")
    best_streak: int = Field(description="the longest such run")
    computer: list[LevelRecord] = Field(description="against the computer, per level")
    rating: RatingInfo | None = Field(
        description="null: a solo game, or no finished match against a person yet"
    )


class GameTally(RecordTally):
    game: str


class OpponentRecord(RecordTally):
    player_id: str | None = Field(
        description="null: the opponents the viewer never played with, counted together"
    )
    name: str | None
    games: list[GameTally] = Field(description="the same, per game")


class PlayerRecord(BaseModel):
    """A player's record from their finished matches: aborted and abandoned ones count
    for nothing, a resigned one is a loss for who resigned and a win for the other."""

    player_id: str
    name: str
    you: bool = Field(description="the record of this browser's player")
    games: list[GameRecord]
    opponents: list[OpponentRecord] = Field(
        description="head to head, across every room and game; most matches first"
    )
