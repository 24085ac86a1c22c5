// The service worker (served at /sw.js, scope /): shows Web Push notices, opens the table a
// notice names when tapped, and shows the offline page when a page cannot be loaded.

const CACHE = "kartenrunde-offline-1";
const OFFLINE = ["/offline", "/static/css/app.css", "/static/img/icon.svg"];

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

// Only page loads: every other request goes to the network as without a service worker.
self.addEventListener("fetch", (event) => {
  if (event.request.mode !== "navigate") return;
  event.respondWith(
    fetch(event.request).catch(() =>
      caches.match("/offline").then((page) => page ?? Response.error()),
    ),
  );
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
