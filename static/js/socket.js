// @ts-check
// The room's websocket: reconnects with exponential back-off (capped low: an outage should not
// cost much more than itself), at once on retryNow() (the browser is back online, the tab is
// visible again, the player asked), queues sends while connecting, and hands on only states
// newer than the one shown (by match_number, then version).

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 3000;
const PING_MS = 25000;
// Closed for good: unknown room, forbidden origin, room closed after idling.
const FINAL_CLOSE_CODES = new Set([4404, 4403, 4410]);
// This device was signed out: its cookie no longer plays the seat (docs/protocol.md).
const SIGNED_OUT = 4401;

/** @typedef {import("./protocol.js").StateMessage} StateMessage */
/** @typedef {{match_number: number, version: number}} Snapshot */

/**
 * -1 older, 0 the same snapshot, 1 newer than what is shown.
 * @param {Snapshot | null} shown
 * @param {Snapshot} incoming
 */
export function compareStates(shown, incoming) {
  if (!shown) return 1;
  if (incoming.match_number !== shown.match_number)
    return incoming.match_number > shown.match_number ? 1 : -1;
  return Math.sign(incoming.version - shown.version);
}

/**
 * @param {number} attempt
 * @param {() => number} [random]
 */
export function backoffDelay(attempt, random = Math.random) {
  const ceiling = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/**
 * The socket's state: after "gone" and "signed_out" it stays closed.
 * @typedef {"connecting" | "open" | "reconnecting" | "gone" | "signed_out"} Status
 */

/**
 * What the socket hands on, by message type (docs/protocol.md); a type without a handler is
 * dropped.
 * @typedef {object} Handlers
 * @property {(message: StateMessage, arrival: {resync: boolean, text: string}) => void} [state]
 * @property {(message: import("./protocol.js").PresenceMessage) => void} [presence]
 * @property {(message: import("./protocol.js").RematchMessage) => void} [rematch]
 * @property {(message: import("./protocol.js").ErrorMessage) => void} [error]
 * @property {(message: import("./protocol.js").TakeoverMessage) => void} [takeover]
 * @property {(message: import("./protocol.js").TakebackMessage) => void} [takeback]
 * @property {(message: import("./protocol.js").ChatLine) => void} [chat]
 * @property {(status: Status) => void} [status]
 */

/**
 * handlers: state(msg, {resync, text}), presence(msg), rematch(msg), error(msg),
 * status("connecting" | "open" | "reconnecting" | "gone" | "signed_out"); after the last
 * two it stays closed. A resync is the same version
 * sent again (after a reconnect, or when the last seat is taken and the match starts); text is
 * the message exactly as it arrived (the table's wire inspector shows it).
 */
export class RoomSocket {
  /**
   * @param {string} url
   * @param {Handlers} handlers
   */
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    /** @type {{type: string, [field: string]: unknown}[]} sent once the socket is open */
    this.queue = [];
    this.attempt = 0;
    /** @type {Snapshot | null} */
    this.shown = null;
    this.stopped = false;
    this.everOpen = false;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {number | null} when the next attempt comes (Date.now()'s clock); null: none due */
    this.nextAttemptAt = null;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pinger = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    // The server pushes "your turn" only when no visible tab shows the table (app/people/push.py).
    document.addEventListener("visibilitychange", () => this.tellVisibility());
    this.connect();
  }

  tellVisibility() {
    if (this.ws?.readyState !== WebSocket.OPEN) return; // a new socket says it when it opens
    this.ws.send(JSON.stringify({ type: "visibility", visible: !document.hidden }));
  }

  connect() {
    this.nextAttemptAt = null;
    this.status(this.attempt === 0 && !this.everOpen ? "connecting" : "reconnecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => this.opened());
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", (event) => this.closed(event));
  }

  opened() {
    this.attempt = 0;
    this.everOpen = true;
    this.status("open");
    for (const message of this.queue.splice(0)) this.ws?.send(JSON.stringify(message));
    if (document.hidden) this.tellVisibility(); // a new socket counts as visible
    this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
  }

  /** @param {CloseEvent} event */
  closed(event) {
    clearInterval(this.pinger);
    if (this.stopped) return;
    if (FINAL_CLOSE_CODES.has(event.code) || event.code === SIGNED_OUT) {
      this.stopped = true;
      this.status(event.code === SIGNED_OUT ? "signed_out" : "gone");
      return;
    }
    const delay = backoffDelay(this.attempt);
    this.nextAttemptAt = Date.now() + delay;
    this.status("reconnecting");
    this.timer = setTimeout(() => this.connect(), delay);
    this.attempt += 1;
  }

  /** Tries again now instead of waiting for the back-off (no-op while open or connecting). */
  retryNow() {
    if (this.stopped || !this.ws) return;
    if (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)
      return;
    clearTimeout(this.timer);
    this.connect();
  }

  /**
   * Sends now when connected, otherwise as soon as the connection is back.
   * @param {{type: string, [field: string]: unknown}} message
   */
  send(message) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
    else if (message.type !== "ping") this.queue.push(message);
  }

  /** @param {string} text */
  receive(text) {
    /** @type {{type: string}} the server's message; its type says which fields it has */
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message.type === "state") this.receiveState(/** @type {StateMessage} */ (message), text);
    else this.dispatch(message);
  }

  /**
   * A message of another type than state, to its handler.
   * @param {{type: string}} message
   */
  dispatch(message) {
    const handler = /** @type {Record<string, ((message: unknown) => void) | undefined>} */ (
      /** @type {unknown} */ (this.handlers)
    )[message.type];
    handler?.(message);
  }

  /**
   * @param {StateMessage} message
   * @param {string} [text]
   */
  receiveState(message, text = JSON.stringify(message)) {
    const order = compareStates(this.shown, message);
    if (order < 0) return;
    this.shown = { match_number: message.match_number, version: message.version };
    this.handlers.state?.(message, { resync: order === 0, text });
  }

  /** @param {Status} value */
  status(value) {
    this.handlers.status?.(value);
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.ws?.close();
  }
}
