// Runs before the first paint so a page never flashes in the wrong language.
document.documentElement.lang = (() => {
  try {
    const saved = localStorage.getItem("kr_lang");
    if (saved === "de" || saved === "en") return saved;
  } catch {
    // storage may be off; the browser's language decides
  }
  return (navigator.language || "en").toLowerCase().startsWith("de") ? "de" : "en";
})();
