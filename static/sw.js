// The service worker (served at /sw.js, scope /): shows Web Push notices, opens the table a
// notice names when tapped, and shows the offline page when a page cannot be loaded.

const CACHE = "kartenrunde-offline-1";
// The offline page and what it loads (its scripts translate it and apply the theme).
const OFFLINE = [
  "/offline",
  "/static/css/app.css",
  "/static/img/icon.svg",
  "/static/js/lang-boot.js",
  "/static/js/pages/offline.js",
  "/static/js/page.js",
  "/static/js/i18n.js",
  "/static/js/prefs.js",
  "/static/js/push.js",
  "/static/js/ui.js",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(OFFLINE))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

// Always the network first, as without a service worker; when it fails, a page load gets
// the offline page and the offline page's own files come from the cache.
self.addEventListener("fetch", (event) => {
  const { request } = event;
  const path = new URL(request.url).pathname;
  if (request.mode === "navigate") {
    event.respondWith(
      fetch(request).catch(() => caches.match("/offline").then((page) => page ?? Response.error())),
    );
  } else if (request.method === "GET" && OFFLINE.includes(path)) {
    event.respondWith(
      fetch(request).catch(() => caches.match(path).then((file) => file ?? Response.error())),
    );
  }
});

self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    notice = { title: event.data?.text() ?? "Kartenrunde" };
  }
  event.waitUntil(
    self.registration.showNotification(notice.title || "Kartenrunde", {
      body: notice.body || "",
      tag: notice.tag,
      renotify: Boolean(notice.tag),
      icon: "/static/img/icon-192.png",
      badge: "/static/img/icon-192.png",
      data: { url: notice.url || "/" },
    }),
  );
});

// A tap focuses a tab that already shows the table, or opens it.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url);
      if (open) return open.focus();
      return self.clients.openWindow(url);
    }),
  );
});
