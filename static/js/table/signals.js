// @ts-check
// Turn signals: the favicon's badge while it is your turn; a sound and a browser notification
// when your turn starts in a hidden tab (nothing leaves the server: Web Push is push.js's).

import { t } from "../i18n.js";
import { prefs } from "../prefs.js";
import { gameTitle, isMyTurn, isOffline, shell } from "./shell.js";

const ICON = "/static/img/icon.svg";

/** The badge while it is your turn; the sound and the notice once per turn that starts
 * (shell.wasMyTurn is what the signals saw last). */
export function renderSignals() {
  const mine = isMyTurn();
  setFavicon(mine && !isOffline());
  const started = mine && !shell.wasMyTurn;
  shell.wasMyTurn = mine;
  if (!started || shell.players.length < 2) return;
  if (!document.hidden) return;
  if (prefs().sound) beep();
  if (prefs().notify && "Notification" in window && Notification.permission === "granted") {
    const note = new Notification(t("notify.title", { game: gameTitle() }), {
      body: t("notify.body"),
      tag: `kr-${shell.roomId}`,
      icon: ICON,
    });
    note.onclick = () => {
      window.focus();
      note.close();
    };
  }
}

// A favicon is drawn like an <img>, which loads nothing further: the badge carries the icon's
// own shapes, not a reference to it.
/** @type {Promise<string> | null} fetched at the first turn that needs it (private: a cache) */
let badgeIcon = null;
function loadBadgeIcon() {
  badgeIcon ??= fetch(ICON)
    .then((answer) => (answer.ok ? answer.text() : ""))
    .catch(() => "")
    .then(
      (icon) =>
        `data:image/svg+xml,${encodeURIComponent(
          `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${icon}<circle cx="48" cy="16" r="14" fill="#d93025" stroke="#fff" stroke-width="4"/></svg>`,
        )}`,
    );
  return badgeIcon;
}

let badged = false; // the badge last asked for (private: the icon loads meanwhile)
/** @param {boolean} badge */
async function setFavicon(badge) {
  badged = badge;
  /** @type {HTMLLinkElement | null} */
  const link = document.querySelector("link[rel='icon']");
  if (!link) return;
  if (!badge) {
    if (link.getAttribute("href") !== ICON) link.setAttribute("href", ICON);
    delete link.dataset.badge;
    return;
  }
  const href = await loadBadgeIcon();
  if (!badged) return; // the turn passed while the icon loaded
  if (link.getAttribute("href") !== href) link.setAttribute("href", href);
  link.dataset.badge = "turn";
}

/** Safari before 14.1 names it webkitAudioContext. */
const SoundContext =
  window.AudioContext ??
  /** @type {{webkitAudioContext?: typeof AudioContext}} */ (/** @type {unknown} */ (window))
    .webkitAudioContext;

function beep() {
  try {
    const audio = new SoundContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.0001, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
    tone.onended = () => audio.close();
  } catch {
    // no audio here: the other signals remain
  }
}
