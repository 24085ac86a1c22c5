// Runs before the first paint so a page never flashes in the wrong language or colours.
document.documentElement.lang = (() => {
  try {
    const saved = localStorage.getItem("kr_lang");
    if (saved === "de" || saved === "en") return saved;
  } catch {
    // storage may be off; the browser's language decides
  }
  return (navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en";
})();

// The colour theme chosen in the header or the table settings (prefs.js), also before the
// first paint.
try {
  const theme = JSON.parse(localStorage.getItem("kr_prefs") ?? "{}").theme;
  if (theme === "light" || theme === "dark") document.documentElement.dataset.theme = theme;
} catch {
  // no stored choice: the system's setting decides
}
