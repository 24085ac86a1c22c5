// @ts-check
// What every page does on load: the chosen colour theme, translate the static text, wire the
// language and theme switches, mark the current navigation link.

import { lang, onLangChange, setLang, translateStatic } from "./i18n.js";
import { applyTheme, toggleTheme } from "./prefs.js";
import { registerServiceWorker } from "./push.js";

/** The language switch's buttons, each with its language (data-lang). */
function languageButtons() {
  return /** @type {NodeListOf<HTMLElement>} */ (
    document.querySelectorAll(".lang-switch [data-lang]")
  );
}

function markLanguage() {
  for (const button of languageButtons()) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === lang()));
  }
}

function markNavigation() {
  const path = location.pathname;
  const links = /** @type {NodeListOf<HTMLAnchorElement>} */ (
    document.querySelectorAll(".site-nav a")
  );
  for (const link of links) {
    const target = new URL(link.href).pathname;
    const current =
      target === "/" ? path === "/" : path.startsWith(target.replace(/\/[^/]+$/, "") || target);
    if (current) link.setAttribute("aria-current", "page");
  }
}

/**
 * Call once per page; `rerender` runs again whenever the language changes.
 * @param {() => void} [rerender]
 */
export function boot(rerender = () => {}) {
  applyTheme();
  registerServiceWorker();
  translateStatic();
  markLanguage();
  markNavigation();
  for (const button of languageButtons()) {
    button.addEventListener("click", () => setLang(button.dataset.lang ?? ""));
  }
  for (const button of document.querySelectorAll(".theme-switch")) {
    button.addEventListener("click", toggleTheme);
  }
  onLangChange(() => {
    translateStatic();
    markLanguage();
    rerender();
  });
}
