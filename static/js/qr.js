// @ts-check
// A QR code of a link as SVG markup, drawn in the browser (vendored qrcode-generator, MIT):
// the link never goes to a third-party service.

import qrcode from "../vendor/qrcode-generator/qrcode.mjs";

/** @param {string} text */
export function qrSvg(text) {
  const code = qrcode(0, "M");
  code.addData(text);
  code.make();
  return code.createSvgTag({ cellSize: 4, margin: 8, scalable: true });
}
