// @ts-check
// What the server sends, as types for the client's checker (tsc --noEmit, make lint-js): the
// messages of a room's socket and the bodies of the HTTP API the table reads. The source is
// app/protocol.py (its models) and docs/protocol.md (each field in words). Types only: the
// browser never loads this module.

/**
 * An action of the game's: its fields are the game's (`GET /api/games/{name}/schema`).
 * @typedef {Record<string, unknown>} Action
 */

/**
 * A game's view of the table for one seat or a spectator: its fields are the game's.
 * @typedef {Record<string, unknown>} View
 */

/**
 * @typedef {object} Player
 * @property {number} seat
 * @property {string | null} name null while the seat is free
 * @property {boolean} connected at the table (the computer always is)
 * @property {string | null} [computer] the level of the computer playing the seat: its own
 *   seat (named "Computer"), or a person's while they are away; null: the person plays
 */

/**
 * @typedef {object} Tally
 * @property {number[]} wins matches won, per seat
 * @property {number} draws
 * @property {number} matches finished matches in this room
 */

/**
 * @typedef {object} LastAction
 * @property {number} seat
 * @property {Action} action
 * @property {string} text the engine's notation, e.g. "take 7C weapon"
 * @property {boolean} [computer] the computer made this move
 * @property {string[]} took the open cards the move took that the action does not name
 */

/**
 * The engine's outcome of a finished match, then the game's own breakdown beside it
 * (Expeditionen `rounds`, Scoundrel `health`, ...).
 * @typedef {{
 *   scores: number[],
 *   winner: number | null,
 *   reason: string,
 *   outcome: "win" | "draw" | "loss" | "aborted" | "abandoned",
 *   resigned_by?: number,
 *   aborted_by?: number,
 *   abandoned_by?: number,
 *   time_ran_out?: number | null,
 *   [breakdown: string]: unknown,
 * }} Result
 */

/**
 * @typedef {object} TurnInfo a turn-based room's running match
 * @property {number} seat the seat that must move
 * @property {string} since when its turn began (ISO 8601)
 * @property {string | null} deadline when its time per move runs out; null: no limit
 * @property {string | null} [now] in a state message, the server's clock as it was built
 */

/**
 * @typedef {object} TakebackStatus
 * @property {number | null} seat the seat whose last move may be taken back now; null: none
 * @property {boolean} requested that seat asked; another seat may answer
 * @property {number | null} undone the newest entry is a takeback: the ply it took back
 */

/**
 * @typedef {object} PauseStatus a pause of the running match
 * @property {number[]} asked_by the seats that asked for a pause (or agreed)
 * @property {boolean} paused every person agreed: nobody moves, no clock runs
 */

/**
 * @typedef {object} UnseenCount what a viewer may not see, by place: a count, never which
 * @property {string} zone the place, in the game's word (hand, draw_pile, dungeon, ...)
 * @property {number | null} seat whose place (a hand); null: the table's
 * @property {number} count
 */

/**
 * @typedef {object} SeatRating
 * @property {string} player_id the person's record is /players/{player_id}
 * @property {number | null} rating null before their first rated match
 * @property {number} matches the finished matches between two people it rests on
 */

/**
 * @typedef {object} StateMessage on connect and after every change of the match, to each
 *   connection with its own view and legal actions
 * @property {"state"} type
 * @property {string} room_id
 * @property {number} match_id
 * @property {number} match_number 1 for the room's first match, 2 for its first rematch, ...
 * @property {number} version actions applied in this match
 * @property {number | null} seat this connection's seat; null: a spectator
 * @property {number | null} to_move null when over or waiting for players
 * @property {View} view
 * @property {Action[]} legal_actions
 * @property {LastAction | null} last_action
 * @property {Result | null} result
 * @property {Player[]} players
 * @property {Tally} tally
 * @property {{requested_by: number[]} | null} rematch
 * @property {TurnInfo | null} [turn]
 * @property {boolean} abortable
 * @property {TakebackStatus} takeback
 * @property {PauseStatus | null} pause null while no match runs
 * @property {UnseenCount[]} unseen
 * @property {(SeatRating | null)[] | null} [ratings]
 */

/** @typedef {{type: "presence", players: Player[]}} PresenceMessage */
/** @typedef {{type: "rematch", requested_by: number[]}} RematchMessage */
/** @typedef {{type: "error", code: string, message: string}} ErrorMessage */

/**
 * @typedef {object} TakeoverMessage
 * @property {"takeover"} type
 * @property {number | null} seat the seat offered to the others; null: no offer stands
 * @property {string[]} levels the computer's levels, for the choice "computer"
 * @property {boolean} [time_ran_out] a turn-based room: the seat's time per move ran out
 * @property {number | null} [away] while no offer stands: the seat to move with no socket
 * @property {number | null} [offer_in] seconds until the offer for `away` comes
 */

/**
 * @typedef {object} TakebackMessage
 * @property {"takeback"} type
 * @property {number} seat the seat that asked to take back its last move
 * @property {"asked" | "accepted" | "declined"} answer
 */

/**
 * @typedef {object} ChatLine
 * @property {number} match_id
 * @property {number} ply the match's version when it was sent
 * @property {number | null} seat the writer's seat; null: a spectator
 * @property {string} name
 * @property {string | null} writer the writer, for muting: the same key in every room and
 *   under every name (null: a line from before the key)
 * @property {string | null} text plain text, shown as text (never as markup)
 * @property {string | null} reaction a quick reaction's key instead of text
 * @property {string} at
 */

/**
 * A move of the current match (`GET /api/rooms/{id}/moves`; the table adds each state's).
 * @typedef {LastAction & {ply: number, time_ran_out?: boolean, taken_back?: boolean}} Move
 */

/**
 * @typedef {object} RoomMoves
 * @property {number} match_number
 * @property {number} version the match's version these moves are complete up to
 * @property {Move[]} moves
 */

/** @typedef {{messages: ChatLine[]}} RoomChat */

/**
 * @typedef {object} DailyOfRoom a player's attempt at a daily deal
 * @property {string} day
 * @property {number} number
 * @property {string} game
 * @property {number} match_id
 */

/**
 * @typedef {object} RoomInfo `GET /api/rooms/{id}`
 * @property {string} room_id
 * @property {string} game
 * @property {Player[]} seats
 * @property {"waiting" | "playing" | "finished"} status
 * @property {number} match_id
 * @property {Tally} tally
 * @property {Record<string, unknown>} options the room's options, resolved
 * @property {string | null} preset the preset it was made with (null: none named)
 * @property {boolean} [turn_based]
 * @property {number | null} [move_days] a turn-based room's days per move (null: no limit)
 * @property {boolean} [spectator_chat]
 * @property {DailyOfRoom | null} [daily]
 */

/**
 * @typedef {object} GameInfo a game as `GET /api/games` lists it
 * @property {string} name
 * @property {Record<string, string>} title by language
 * @property {number} seats
 * @property {string[]} computer the computer's levels, the usual first; empty for a solo game
 * @property {{name: string, default: unknown}[]} options the game's options
 * @property {{name: string, label: Record<string, string>}[]} presets named variants
 * @property {Record<string, unknown>} tables the rules' tables the client displays
 */

/** @typedef {{room_id: string, name: string}} MyRoom an entry of `GET /api/me/rooms` */

export {};
