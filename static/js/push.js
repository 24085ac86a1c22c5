// @ts-check
// The installable web app's service worker (every page registers it) and Web Push: this
// device's subscription, stored on the server for this browser's player.

import { lang, t } from "./i18n.js";
import { api, h, toast } from "./ui.js";

/** Registers /sw.js for the whole site; a browser without service workers goes on without. */
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // plain http on another host than localhost: no service worker, the pages still work
  });
}

export function pushSupported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** @param {string} base64url */
function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const padded = base64 + "=".repeat((4 - (base64.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

async function subscription() {
  const registration = await navigator.serviceWorker.ready;
  return registration.pushManager.getSubscription();
}

/** Whether this device gets push notices now. */
export async function pushOn() {
  if (!pushSupported() || Notification.permission !== "granted") return false;
  return (await subscription()) !== null;
}

/** Asks for permission, subscribes at the browser's push service, stores it on the server. */
export async function turnPushOn() {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return false;
  const { public_key } = /** @type {{public_key: string}} */ (await api("/api/push/key"));
  const registration = await navigator.serviceWorker.ready;
  const made = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(public_key),
  });
  const { endpoint, keys } = made.toJSON();
  await api("/api/push/subscriptions", {
    method: "POST",
    body: { endpoint, keys: { p256dh: keys?.p256dh, auth: keys?.auth }, lang: lang() },
  });
  return true;
}

export async function turnPushOff() {
  const found = await subscription();
  if (!found) return;
  await api("/api/push/subscriptions/remove", {
    method: "POST",
    body: { endpoint: found.endpoint },
  }).catch(() => {});
  await found.unsubscribe();
}

/** The opt-in for this device: a checkbox with its help (the table's settings, You). */
export function pushSetting() {
  const supported = pushSupported();
  const denied = supported && Notification.permission === "denied";
  const input = h("input", {
    type: "checkbox",
    id: "pref-push",
    disabled: !supported || denied,
    onchange: () => choosePush(input),
  });
  if (supported) pushOn().then((on) => (input.checked = on));
  return h(
    "div",
    { class: "field" },
    h("label", { class: "check", for: "pref-push" }, input, h("span", {}, t("push.label"))),
    h(
      "span",
      { class: "field-help" },
      !supported ? t("push.unsupported") : denied ? t("push.denied") : t("push.help"),
    ),
  );
}

/** @param {HTMLInputElement} input */
async function choosePush(input) {
  input.disabled = true;
  try {
    if (!input.checked) await turnPushOff();
    else if (!(await turnPushOn())) {
      input.checked = false;
      toast(t("push.denied"), "info");
    }
  } catch (error) {
    input.checked = false;
    toast(t("push.failed", { message: error instanceof Error ? error.message : String(error) }));
  } finally {
    input.disabled = false;
    input.dataset.done = String(input.checked);
  }
}
