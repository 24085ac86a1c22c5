// Pilzwanderung's card meanings and the Morels mushroom faces, drawn by us in SVG (no images):
// one silhouette per kind in its own colours, the name, the cooking points and the stick value;
// butter, cider, basket, poison, moon, pan and the night cards get their own faces.
// cards.js calls `mushroomFace(code)` through its `face` hook; the face covers the whole card.
// The points, sticks and roles are the engine's, from the server (GET /api/games).

import { t } from "../i18n.js";
import { rulesTables } from "./common.js";

const TABLES = await rulesTables("pilzwanderung");
export const POINTS = TABLES.points;
export const STICKS = TABLES.sticks;
export const KINDS = Object.keys(POINTS)
  .map(Number)
  .sort((a, b) => a - b);
export const BUTTER_POINTS = TABLES.butter_points;
export const CIDER_POINTS = TABLES.cider_points;
export const NIGHT_MUSHROOMS = TABLES.night_mushrooms;
export const DECAY_SIZE = TABLES.decay_size;

/** How many mushrooms some day and night cards of one kind count for. */
export function mushroomCount(day, night) {
  return day + NIGHT_MUSHROOMS * night;
}

/** "mushroom", "night", "butter", "cider", "basket", "poison", "moon" or "pan". */
export function roleOf(code) {
  return TABLES.roles[code];
}

/** The mushroom kind (2..10) of a day or night card; null for the other cards. */
export function kindOf(code) {
  const role = roleOf(code);
  if (role === "night") return Number(code.slice(1));
  if (role === "mushroom") return Number(code.slice(0, -1));
  return null;
}

/** A card's name in the current language: "Chanterelle", "Night chanterelle", "Butter". */
export function cardTitle(code) {
  const kind = kindOf(code);
  if (code === "XX") return t("pw.role.start_pan");
  if (kind === null) return t(`pw.role.${roleOf(code)}`);
  const name = t(`pw.kind.${kind}`);
  return roleOf(code) === "night" ? `${t("pw.role.night")}: ${name}` : name;
}

/** What a card is and is worth, spoken (aria-label) and shown as a tooltip. */
export function cardLabel(code) {
  const kind = kindOf(code);
  if (kind === null) {
    const role = code === "XX" ? "start_pan" : roleOf(code);
    const help = t(`pw.role.help.${roleOf(code)}`, {}, "");
    return `${t(`pw.role.${role}`)}${code === "XX" ? "" : ` (${code})`}${help ? ` – ${help}` : ""}`;
  }
  const values = {
    name: t(`pw.kind.${kind}`),
    card: code,
    points: POINTS[kind],
    sticks: STICKS[kind],
  };
  return t(roleOf(code) === "night" ? "pw.night_label" : "pw.mushroom_label", values);
}

/* The drawings: a 100 × 140 card; the art lives in the box x 10..90, y 30..104. */

const dome = (cx, y, rx, ry, fill, extra = "") =>
  `<path d="M${cx - rx} ${y}A${rx} ${ry} 0 0 1 ${cx + rx} ${y}Q${cx} ${y + ry * 0.28} ${cx - rx} ${y}Z" fill="${fill}" ${extra}/>`;
const dots = (list, fill, r = 2.4) =>
  list.map(([x, y]) => `<circle cx="${x}" cy="${y}" r="${r}" fill="${fill}"/>`).join("");
const OUTLINE = 'stroke="#3b2a1a" stroke-width="1.4" stroke-linejoin="round"';

const ART = {
  2: `<g ${OUTLINE}>
      <path d="M50 100C48 86 40 72 30 62" stroke="#efe3c2" stroke-width="6" fill="none"/>
      <path d="M50 100C50 84 52 64 52 52" stroke="#efe3c2" stroke-width="6" fill="none"/>
      <path d="M50 100C54 88 62 76 72 66" stroke="#efe3c2" stroke-width="6" fill="none"/>
      ${dome(29, 64, 17, 13, "#d6962e")}${dome(52, 53, 19, 15, "#e0a43a")}${dome(73, 68, 15, 11, "#cc8a26")}</g>
      ${dots(
        [
          [27, 57],
          [50, 45],
          [56, 47],
          [72, 62],
        ],
        "#7a4a12",
        1.6,
      )}`,
  3: `<path d="M34 36C14 46 16 88 44 96C72 102 90 80 84 58C80 40 56 26 34 36Z" fill="#6b3a26" ${OUTLINE}/>
      <path d="M40 50C30 60 34 80 50 84C64 86 72 74 68 62C64 52 52 46 40 50Z" fill="#8a4e33"/>
      <path d="M44 60C42 68 48 76 56 74" stroke="#4a2416" stroke-width="2.4" fill="none" stroke-linecap="round"/>`,
  4: `<path d="M46 84L46 100L54 100L54 84Z" fill="#f4efe4" ${OUTLINE}/>
      <path d="M34 86L34 46C34 22 66 22 66 46L66 86C58 82 42 82 34 86Z" fill="#f1ece0" ${OUTLINE}/>
      <path d="M34 86C42 82 58 82 66 86L66 80C58 77 42 77 34 80Z" fill="#2b2b2b"/>
      <path d="M41 40l4 6M52 34l3 6M60 44l-3 6M40 58l5 5M54 56l4 6M46 70l4 5M60 68l-3 6" stroke="#9a8f7c" stroke-width="2" stroke-linecap="round"/>`,
  5: `<path d="M44 62L42 100L58 100L56 62Z" fill="#e9dbbd" ${OUTLINE}/>
      ${dome(50, 66, 38, 26, "#7a4b2c", OUTLINE)}
      <path d="M30 56l6 2M44 48l5 1M58 50l6-1M66 58l5 2M38 62l5 0M52 58l4 0" stroke="#f1e6d2" stroke-width="2.2" stroke-linecap="round"/>`,
  6: `<g ${OUTLINE}>
      <path d="M44 80L40 100L60 100L56 80Z" fill="#d9ccb4"/>
      <ellipse cx="30" cy="80" rx="18" ry="9" transform="rotate(-20 30 80)" fill="#8f7657"/>
      <ellipse cx="70" cy="80" rx="18" ry="9" transform="rotate(20 70 80)" fill="#8f7657"/>
      <ellipse cx="34" cy="62" rx="17" ry="8" transform="rotate(-30 34 62)" fill="#a08665"/>
      <ellipse cx="66" cy="62" rx="17" ry="8" transform="rotate(30 66 62)" fill="#a08665"/>
      <ellipse cx="42" cy="46" rx="14" ry="7" transform="rotate(-45 42 46)" fill="#b29a78"/>
      <ellipse cx="58" cy="46" rx="14" ry="7" transform="rotate(45 58 46)" fill="#b29a78"/>
      <ellipse cx="50" cy="70" rx="16" ry="8" fill="#98805f"/></g>`,
  7: `<path d="M45 54L43 100L57 100L55 54Z" fill="#f2ede2" ${OUTLINE}/>
      ${dots(
        [
          [47, 62],
          [53, 68],
          [47, 76],
          [54, 82],
          [48, 90],
          [53, 95],
          [51, 58],
        ],
        "#2e2a26",
        1.6,
      )}
      ${dome(50, 58, 30, 24, "#9b6a3e", OUTLINE)}`,
  8: `<path d="M38 60C28 76 30 98 50 100C70 98 72 76 62 60Z" fill="#eadbb4" ${OUTLINE}/>
      <path d="M40 72l20 6M38 84l24 4M44 94l14 2" stroke="#cdb88a" stroke-width="1.6"/>
      ${dome(50, 62, 34, 28, "#6a3a1c", OUTLINE)}
      <path d="M28 50C34 42 42 39 50 38" stroke="#8e5a34" stroke-width="3" fill="none" stroke-linecap="round"/>`,
  9: `<path d="M14 40C28 56 42 58 45 64L43 100L57 100L55 64C58 58 72 56 86 40C72 30 28 30 14 40Z" fill="#f2a900" ${OUTLINE}/>
      <path d="M14 40C28 48 72 48 86 40" stroke="#c27e00" stroke-width="1.6" fill="none"/>
      <path d="M32 48L46 66M50 50L50 66M68 48L54 66" stroke="#c27e00" stroke-width="1.6"/>`,
  10: `<path d="M39 78L41 100L59 100L61 78Z" fill="#efe4cc" ${OUTLINE}/>
      <path d="M50 30C30 40 30 72 34 80L66 80C70 72 70 40 50 30Z" fill="#b8894a" ${OUTLINE}/>
      ${[
        [44, 46],
        [56, 46],
        [40, 58],
        [50, 56],
        [60, 58],
        [42, 70],
        [52, 68],
        [61, 71],
      ]
        .map(([x, y]) => `<ellipse cx="${x}" cy="${y}" rx="3.6" ry="4.6" fill="#6e4b22"/>`)
        .join("")}`,
};

const SPECIAL = {
  butter: `<ellipse cx="50" cy="86" rx="36" ry="9" fill="#d9d5cc" ${OUTLINE}/>
      <path d="M24 80L32 58L76 58L80 80Z" fill="#f5cf3c" ${OUTLINE}/>
      <path d="M32 58L40 48L82 48L76 58Z" fill="#fbe489" ${OUTLINE}/><path d="M76 58L82 48L86 70L80 80Z" fill="#dfb324" ${OUTLINE}/>`,
  cider: `<path d="M42 30L58 30L58 46C70 52 70 60 70 66L70 100L30 100L30 66C30 60 30 52 42 46Z" fill="#5e8c2a" ${OUTLINE}/>
      <rect x="33" y="68" width="34" height="20" rx="3" fill="#f3e9c8" ${OUTLINE}/>
      <circle cx="50" cy="78" r="6" fill="#c8362b"/><path d="M50 72l2-4" stroke="#3b6e1a" stroke-width="2"/>
      <rect x="42" y="26" width="16" height="6" fill="#8b5a2b"/>`,
  basket: `<path d="M26 62C26 30 74 30 74 62" stroke="#8b5a2b" stroke-width="6" fill="none"/>
      <path d="M16 60L84 60L74 98L26 98Z" fill="#b07a3c" ${OUTLINE}/>
      <path d="M20 72L80 72M23 84L77 84M36 60L38 98M50 60L50 98M64 60L62 98" stroke="#7d5124" stroke-width="2"/>`,
  poison: `<path d="M44 62L42 100L58 100L56 62Z" fill="#f7f3ea" ${OUTLINE}/>
      <path d="M40 76L60 76L62 82L38 82Z" fill="#f7f3ea" ${OUTLINE}/>
      ${dome(50, 66, 38, 32, "#d62828", OUTLINE)}
      ${dots(
        [
          [34, 56],
          [48, 44],
          [62, 50],
          [70, 60],
          [44, 58],
          [56, 60],
          [28, 63],
        ],
        "#ffffff",
        3.2,
      )}`,
  moon: `<circle cx="50" cy="66" r="34" fill="#1f2a4a"/>
      <path d="M58 38A30 30 0 1 0 78 84A24 24 0 0 1 58 38Z" fill="#f3e39b"/>
      ${dots(
        [
          [30, 46],
          [40, 40],
          [74, 50],
        ],
        "#f3e39b",
        1.8,
      )}`,
  pan: `<rect x="66" y="60" width="30" height="8" rx="4" transform="rotate(-18 66 64)" fill="#5a3a1a" ${OUTLINE}/>
      <circle cx="44" cy="70" r="30" fill="#2b2b2b" ${OUTLINE}/><circle cx="44" cy="70" r="23" fill="#4a4a4a"/>
      <path d="M30 60A18 18 0 0 1 46 52" stroke="#777" stroke-width="3" fill="none" stroke-linecap="round"/>`,
};

const TINT = {
  2: "#fbf0d8",
  3: "#f3e2da",
  4: "#eeeeea",
  5: "#f2e6dc",
  6: "#eee8dc",
  7: "#f1ead8",
  8: "#f4e5d2",
  9: "#fff3c8",
  10: "#f1e7d3",
  butter: "#fff8d6",
  cider: "#e8f2d8",
  basket: "#f4e8d6",
  poison: "#fde3e0",
  moon: "#dfe6f5",
  pan: "#e6e6e6",
  night: "#26335a",
};

function escapeText(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function nameBand(text, night) {
  const fit =
    text.length > 9
      ? ` textLength="${Math.min(84, text.length * 7.4)}" lengthAdjust="spacingAndGlyphs"`
      : "";
  return `<text x="50" y="22" text-anchor="middle" class="pw-face-name" font-size="15" font-weight="700" font-family="DejaVu Sans, system-ui, sans-serif" fill="${night ? "#f3e39b" : "#2b1d0e"}"${fit}>${escapeText(text)}</text>`;
}

function values(kind, night) {
  const ink = night ? "#f3e39b" : "#2b1d0e";
  return `<g class="pw-face-values">
      <circle cx="22" cy="120" r="13" fill="#2b2b2b" stroke="${night ? "#f3e39b" : "none"}" stroke-width="1.5"/><rect x="32" y="117" width="9" height="5" rx="2" fill="#2b2b2b"/>
      <text x="22" y="127" text-anchor="middle" fill="#fff" class="pw-face-num" font-size="20" font-weight="800" font-family="DejaVu Sans, system-ui, sans-serif">${POINTS[kind]}</text>
      <path d="M62 130L72 108" stroke="#8b5a2b" stroke-width="4.5" stroke-linecap="round"/>
      <text x="80" y="127" text-anchor="middle" fill="${ink}" class="pw-face-num" font-size="20" font-weight="800" font-family="DejaVu Sans, system-ui, sans-serif">${STICKS[kind]}</text></g>`;
}

/** The whole face of a card under card_faces "mushrooms" (for cards.js's `face` hook). */
export function mushroomFace(code) {
  const role = roleOf(code);
  const kind = kindOf(code);
  const night = role === "night";
  const bg = TINT[night ? "night" : (kind ?? role)];
  const title = kind ? t(`pw.kind.${kind}`) : t(`pw.role.${code === "XX" ? "start_pan" : role}`);
  const art = kind ? ART[kind] : SPECIAL[role];
  const extra = night
    ? `<path d="M82 34A9 9 0 1 0 90 46A7 7 0 0 1 82 34Z" fill="#f3e39b"/><text x="8" y="44" class="pw-face-x2" font-size="15" font-weight="800" font-family="DejaVu Sans, system-ui, sans-serif" fill="#f3e39b">×2</text>`
    : "";
  const footer = kind
    ? values(kind, night)
    : `<text x="50" y="126" text-anchor="middle" class="pw-face-role" font-size="22" font-weight="800" font-family="DejaVu Sans, system-ui, sans-serif" fill="#2b1d0e">${escapeText(role === "butter" ? "+3" : role === "cider" ? "+5" : role === "basket" ? "+2" : role === "poison" ? "≤4" : role === "moon" ? "+☾" : "")}</text>`;
  return `<g class="pw-face pw-face-${night ? "night" : role}">
    <rect x="1" y="1" width="98" height="138" rx="9" fill="${bg}" stroke="#b7ae98"/>
    <rect x="4.5" y="4.5" width="91" height="131" rx="6.5" fill="none" stroke="${night ? "#f3e39b" : "#8a7a5c"}" stroke-opacity="0.5"/>
    ${nameBand(title, night)}${extra}
    <g transform="${night ? "translate(12 22) scale(0.76)" : "translate(0 2)"}">${art}</g>
    ${footer}</g>`;
}
