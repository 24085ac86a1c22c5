// You: your name, notifications on this device, another device's sign-in link (QR code),
// your devices, signing them out.

import { t } from "../i18n.js";
import { boot } from "../page.js";
import { pushSetting } from "../push.js";
import { qrSvg } from "../qr.js";
import { ago, api, copyText, errorText, fill, h, storedName, storeName, toast } from "../ui.js";

const list = document.getElementById("devices");
let devices = [];
let link = "";

function deviceItem(device) {
  const seen = device.this_device
    ? t("me.this_device")
    : t("me.seen", { when: ago(device.last_seen_at) });
  const out = h("button", { type: "button", class: "btn btn-small" }, t("me.sign_out"));
  out.addEventListener("click", () => signOut(device));
  return h(
    "li",
    { class: "device" },
    h("span", { class: "device-label" }, device.label),
    h("span", { class: "muted" }, seen),
    out,
  );
}

function render() {
  fill(list, ...devices.map(deviceItem));
}

async function load() {
  const me = await api("/api/me/devices");
  devices = me.devices;
  const field = document.getElementById("me-name");
  if (!field.value) field.value = me.name ?? storedName() ?? "";
  render();
}

document.getElementById("name-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const name = document.getElementById("me-name").value.trim();
  try {
    await api("/api/me/name", { method: "PUT", body: { name } });
    storeName(name);
    toast(t("me.renamed"), "info");
  } catch (error) {
    toast(errorText(error.code, error.message));
  }
});

async function signOut(device) {
  try {
    await api(`/api/me/devices/${device.id}`, { method: "DELETE" });
  } catch (error) {
    toast(errorText(error.code, error.message));
  }
  await load();
}

async function makeLink() {
  const next = new URLSearchParams(location.search).get("next");
  const made = await api("/api/me/links", { method: "POST", body: next ? { next } : {} });
  link = new URL(made.url, location.href).href;
  const qr = document.getElementById("link-qr");
  qr.innerHTML = qrSvg(link);
  qr.firstElementChild?.setAttribute("aria-label", t("me.qr"));
  document.getElementById("link-url").textContent = link;
  document.getElementById("link-box").hidden = false;
  await load();
}

document
  .getElementById("make-link")
  .addEventListener("click", () =>
    makeLink().catch((error) => toast(errorText(error.code, error.message))),
  );
document.getElementById("link-copy").addEventListener("click", async () => {
  if (await copyText(link)) toast(t("me.copied"), "info");
});
document.getElementById("sign-out-all").addEventListener("click", async () => {
  if (!confirm(t("me.sign_out_all_confirm"))) return;
  await api("/api/me/sign-out-all", { method: "POST" });
  await load();
});

const showPushSetting = () => fill(document.getElementById("push-setting"), pushSetting());
showPushSetting();
boot(() => {
  render();
  showPushSetting(); // in the new language
});
load()
  .catch((error) => toast(errorText(error.code, error.message)))
  .finally(() => {
    document.body.dataset.ready = "true";
  });
