// You: your name, notifications on this device, another device's sign-in link (QR code),
// your devices, signing them out.

import { t } from "../i18n.js";
import { boot } from "../page.js";
import { pushSetting } from "../push.js";
import { qrSvg } from "../qr.js";
import {
  ago,
  api,
  copyText,
  errorText,
  fill,
  h,
  storedName,
  storeName,
  toast,
  when,
} from "../ui.js";

const list = document.getElementById("devices");
let devices = [];
let link = "";

/** A device: the player's name for it (else its browser and system), since when it is
 * signed in, when it was last seen; to name it or sign it out. */
function deviceItem(device) {
  const seen = device.this_device
    ? t("me.this_device")
    : t("me.seen", { when: ago(device.last_seen_at) });
  const out = h("button", { type: "button", class: "btn btn-small" }, t("me.sign_out"));
  out.addEventListener("click", () => signOut(device));
  const rename = h("button", { type: "button", class: "btn btn-small" }, t("me.name_device"));
  rename.addEventListener("click", () => nameDevice(device));
  return h(
    "li",
    { class: "device", "data-testid": "device" },
    h(
      "span",
      { class: "device-label" },
      device.name ?? device.label,
      device.name ? h("span", { class: "muted device-kind" }, ` · ${device.label}`) : null,
    ),
    h(
      "span",
      { class: "muted" },
      `${t("me.signed_in", { when: when(device.signed_in_at) })} · ${seen}`,
    ),
    rename,
    out,
  );
}

/** @param {{id: number, name: string | null, label: string}} device */
async function nameDevice(device) {
  const name = prompt(t("me.name_device_prompt"), device.name ?? device.label)?.trim();
  if (!name) return;
  try {
    await api(`/api/me/devices/${device.id}/name`, { method: "PUT", body: { name } });
  } catch (error) {
    toast(errorText(error.code, error.message));
  }
  await load();
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

/** Asks first, saying what is lost: on the only device, every seat, game and record for
 * good (a link from "Show link" keeps them on another device first). */
async function signOut(device) {
  const label = device.name ?? device.label;
  const question =
    devices.length === 1
      ? t("me.sign_out_last")
      : device.this_device
        ? t("me.sign_out_this")
        : t("me.sign_out_other", { device: label });
  if (!confirm(question)) return;
  try {
    await api(`/api/me/devices/${device.id}`, { method: "DELETE" });
  } catch (error) {
    toast(errorText(error.code, error.message));
    return;
  }
  toast(
    device.this_device ? t("me.signed_out_this") : t("me.signed_out", { device: label }),
    "info",
  );
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
