// One card component for every game: a code like "10H", "QS", "JK" or the night card "N5"
// (every code docs/protocol.md names), or a face-down back, drawn in SVG so it stays crisp
// at any size. Colours AND shapes: every suit (and the night cards) has its own symbol, ink
// colour and frame marking, so no one needs colour to tell suits apart.
// A game may pass `face(code)` to draw its own centre instead of the standard one.
// Two decks repeat codes: a code names a card, never one element; games key by index and code.

import { t } from "./i18n.js";

export const SUITS = ["S", "H", "D", "C"];
const FACES = new Set(["J", "Q", "K"]);
const CODE = /^(10|[2-9JQKA])([SHDC])$/;
const NIGHT = /^N([2-9])$/; // a night card: rank 2..9 of the night deck, suit "N" here

const SUIT_SHAPES = {
  S: '<path d="M50 4C50 4 6 40 6 62C6 76 17 85 30 85C38 85 44 81 47 76C46 86 41 93 33 97L67 97C59 93 54 86 53 76C56 81 62 85 70 85C83 85 94 76 94 62C94 40 50 4 50 4Z"/>',
  H: '<path d="M50 94C50 94 4 64 4 33C4 16 16 6 30 6C40 6 47 12 50 21C53 12 60 6 70 6C84 6 96 16 96 33C96 64 50 94 50 94Z"/>',
  D: '<path d="M50 2L90 50L50 98L10 50Z"/>',
  C: '<circle cx="50" cy="27" r="21"/><circle cx="26" cy="58" r="21"/><circle cx="74" cy="58" r="21"/><circle cx="50" cy="52" r="12"/><path d="M45 52C45 76 41 88 31 97L69 97C59 88 55 76 55 52Z"/>',
  JK: '<path d="M50 3L62 36L97 37L69 58L79 92L50 72L21 92L31 58L3 37L38 36Z"/>',
  N: '<path d="M58 4A46 46 0 1 0 96 64A36 36 0 0 1 58 4Z"/>',
};

// Frame markings, one per suit: solid, dotted, dashed, double (and the joker's, the night's).
const FRAMES = {
  S: 'stroke-width="2"',
  H: 'stroke-width="2.6" stroke-dasharray="0.1 5" stroke-linecap="round"',
  D: 'stroke-width="2" stroke-dasharray="8 4"',
  C: 'stroke-width="1.2"',
  JK: 'stroke-width="2" stroke-dasharray="2 3"',
  N: 'stroke-width="2.4" stroke-dasharray="9 3 0.1 3" stroke-linecap="round"',
};

export function isCard(code) {
  return code === "JK" || CODE.test(code ?? "") || NIGHT.test(code ?? "");
}

/** "S", "H", "D", "C", "JK", or "N" for a night card; null for anything else. */
export function suitOf(code) {
  if (code === "JK") return "JK";
  if (NIGHT.test(code ?? "")) return "N";
  return CODE.exec(code)?.[2] ?? null;
}

export function rankOf(code) {
  if (code === "JK") return "JK";
  return CODE.exec(code)?.[1] ?? NIGHT.exec(code)?.[1] ?? null;
}

/** The card's name in the chosen language: "Queen of spades", "Pik Dame", "Night card Five". */
export function cardName(code) {
  if (code === "JK") return t("card.joker");
  if (!isCard(code)) return t("card.unknown");
  const key = suitOf(code) === "N" ? "card.night" : "card.name";
  return t(key, { rank: t(`rank.${rankOf(code)}`), suit: t(`suit.${suitOf(code)}`) });
}

function escapeText(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

let defsReady = false;

/** The shared SVG symbols and patterns, placed once in the document. */
function ensureDefs() {
  if (defsReady) return;
  defsReady = true;
  const holder = document.createElement("div");
  holder.innerHTML = `<svg class="card-defs" width="0" height="0" aria-hidden="true" focusable="false">
    <defs>
      ${Object.entries(SUIT_SHAPES)
        .map(([s, shape]) => `<symbol id="kr-suit-${s}" viewBox="0 0 100 100">${shape}</symbol>`)
        .join("")}
      <pattern id="kr-back" width="12" height="12" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="12" height="12" fill="#24466e"/><rect width="6" height="6" fill="#2e5a8a"/><rect x="6" y="6" width="6" height="6" fill="#2e5a8a"/>
      </pattern>
    </defs></svg>`;
  document.body.prepend(holder.firstElementChild);
}

function symbol(suit, x, y, size) {
  return `<use href="#kr-suit-${suit}" x="${x}" y="${y}" width="${size}" height="${size}" class="suit-ink"/>`;
}

function corner(rank, suit) {
  const wide = rank.length > 1 ? ' textLength="25" lengthAdjust="spacingAndGlyphs"' : "";
  return `<text x="${rank.length > 1 ? 7 : 8}" y="27" class="card-rank"${wide}>${rank}</text>${symbol(suit, 7, 32, 19)}`;
}

function standardFace(rank, suit) {
  if (suit === "JK") return symbol("JK", 25, 45, 50);
  if (FACES.has(rank)) {
    return `<rect x="27" y="38" width="46" height="64" rx="6" class="face-panel"/>
      <text x="50" y="83" class="card-face-letter" text-anchor="middle">${rank}</text>${symbol(suit, 42, 87, 16)}`;
  }
  return rank === "A" ? symbol(suit, 22, 42, 56) : symbol(suit, 29, 49, 42);
}

/** SVG markup of one card. `face(code)` may return the centre markup instead of the standard one. */
export function cardSvg(code, { faceDown = false, face = null } = {}) {
  ensureDefs();
  if (faceDown || !code) {
    return `<svg class="card-svg" viewBox="0 0 100 140" aria-hidden="true">
      <rect x="1" y="1" width="98" height="138" rx="9" class="card-back-bg"/>
      <rect x="7" y="7" width="86" height="126" rx="5" fill="url(#kr-back)"/>
      <circle cx="50" cy="70" r="17" class="card-back-seal"/>
      <text x="50" y="77" text-anchor="middle" class="card-back-mark">K</text></svg>`;
  }
  const suit = suitOf(code) ?? "JK";
  const rank = code === "JK" ? "JK" : (rankOf(code) ?? escapeText(code).slice(0, 3));
  const centre = face?.(code) ?? standardFace(rank, suit);
  return `<svg class="card-svg suit-${suit}" viewBox="0 0 100 140" aria-hidden="true">
    <rect x="1" y="1" width="98" height="138" rx="9" class="card-bg"/>
    <rect x="4.5" y="4.5" width="91" height="131" rx="6.5" class="card-frame" ${FRAMES[suit]}/>
    ${suit === "C" ? '<rect x="7.5" y="7.5" width="85" height="125" rx="4.5" class="card-frame" stroke-width="1.2"/>' : ""}
    ${corner(rank, suit)}
    <g transform="rotate(180 50 70)">${corner(rank, suit)}</g>
    ${centre}</svg>`;
}

/**
 * A card element. Options: faceDown, face, button (a real <button>), disabled, selected,
 * label (overrides the spoken name), classes (extra class names), data (data-* attributes).
 */
export function card(code, opts = {}) {
  const el = document.createElement(opts.button ? "button" : "div");
  el.className = [
    "card",
    opts.faceDown ? "card-back" : `suit-${suitOf(code) ?? "JK"}`,
    ...(opts.classes ?? []),
  ].join(" ");
  if (opts.button) {
    el.type = "button";
    el.disabled = Boolean(opts.disabled);
    if (opts.selected !== undefined)
      el.setAttribute("aria-pressed", String(Boolean(opts.selected)));
  } else {
    el.setAttribute("role", "img");
  }
  el.setAttribute("aria-label", opts.label ?? (opts.faceDown ? t("card.back") : cardName(code)));
  if (!opts.faceDown && code) el.dataset.card = code;
  for (const [key, value] of Object.entries(opts.data ?? {})) el.dataset[key] = value;
  el.innerHTML = cardSvg(code, opts);
  return el;
}

/** A suit symbol to use in text and labels. */
export function suitIcon(suit) {
  ensureDefs();
  const span = document.createElement("span");
  span.className = `suit-icon suit-${suit}`;
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", t(`suit.${suit}`));
  span.innerHTML = `<svg viewBox="0 0 100 100" aria-hidden="true"><use href="#kr-suit-${suit}" class="suit-ink"/></svg>`;
  return span;
}

/** A card written inline in text: rank and suit symbol in the suit's ink. */
export function cardChip(code) {
  const span = document.createElement("span");
  span.className = `card-chip suit-${suitOf(code) ?? "JK"}`;
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", cardName(code));
  span.append(document.createTextNode(code === "JK" ? "JK" : (rankOf(code) ?? code)));
  if (isCard(code) && code !== "JK") span.append(suitIcon(suitOf(code)));
  return span;
}
