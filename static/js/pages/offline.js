// The page the service worker shows without a connection (static/sw.js caches it).

import { boot } from "../page.js";

boot();
document.getElementById("offline-retry").addEventListener("click", () => location.reload());
document.body.dataset.ready = "true";
