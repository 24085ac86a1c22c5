// @ts-check
// The server's clock as this page last heard it: a device's own may be off (a phone's by
// minutes or hours), and a turn's time must read the same on every device and on "Your
// games". Pages tell it what the server said; the time left and since count from it.

let offset = 0; // the server's clock less this device's, in ms

/** @param {number} serverMs the server's clock now, as a message or an answer said it */
export function heardServerClock(serverMs) {
  if (Number.isFinite(serverMs)) offset = serverMs - Date.now();
}

/** Now by the server's clock, in ms. */
export function serverNow() {
  return Date.now() + offset;
}
