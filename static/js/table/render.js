// @ts-check
// The one render: every part of the table drawn from the shell. Every handler changes the
// shell, then calls render(); nothing else calls a part's render. Each part draws again only
// what changed (draw.js), so render() is safe at any time and as often as it is called.

import { renderBanner } from "./banner.js";
import { renderBoard } from "./board.js";
import { renderChat } from "./chat.js";
import { renderDialogs } from "./dialogs.js";
import { renderEnd } from "./end.js";
import { renderHead } from "./head.js";
import { renderLog } from "./log.js";
import { renderNote } from "./note.js";
import { renderNotice } from "./notice.js";
import { renderOffers } from "./offers.js";
import { renderOffline } from "./offline.js";
import { renderPause } from "./pause.js";
import { renderSeats } from "./seats.js";
import { shell } from "./shell.js";
import { renderSheets } from "./sheets.js";
import { renderSignals } from "./signals.js";
import { renderTools } from "./tools.js";
import { renderWire } from "./wire.js";

// The guard against re-entry (private): a part's handler that calls render() while the parts
// are drawn (a game module's rerender) has them drawn once more when this pass ends.
let rendering = false;
let again = false;

export function render() {
  if (rendering) {
    again = true;
    return;
  }
  rendering = true;
  try {
    do {
      again = false;
      renderParts();
    } while (again);
  } finally {
    rendering = false;
  }
}

/** The offers come before the board (an offer is the current step, not the board's), the
 * board before the sheets (placed beside the step it shows). */
function renderParts() {
  renderDialogs(); // over anything: the page loading, the table, a notice
  renderNote();
  if (shell.notice) return renderNotice();
  if (!shell.room) return; // the page shows its loading state until the room is known
  renderHead();
  renderSignals();
  renderSeats();
  renderBanner();
  renderTools();
  renderPause();
  renderEnd();
  renderOffers();
  renderBoard();
  renderLog();
  renderChat();
  renderOffline();
  renderSheets();
  renderWire();
}
