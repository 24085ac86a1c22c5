// Text with less than 4.5:1 contrast against what lies under it (tests/browser/test_contrast.py):
// returns problems. A gradient under the text (the felt) is checked at each of its colours.
() => {
  const parse = (text) => {
    const m = text.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const parts = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return { r: parts[0], g: parts[1], b: parts[2], a: parts.length > 3 ? parts[3] : 1 };
  };
  const over = (top, under) => ({
    r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a), a: 1,
  });
  const lum = ({ r, g, b }) => {
    const c = [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  // The images of a background, the topmost first (commas inside colours do not split).
  const images = (image) => {
    const parts = [''];
    let depth = 0;
    for (const c of image) {
      depth += c === '(' ? 1 : c === ')' ? -1 : 0;
      if (c === ',' && depth === 0) parts.push('');
      else parts[parts.length - 1] += c;
    }
    return parts.map((part) => (part.match(/rgba?\([^)]+\)/g) ?? []).map(parse));
  };
  // The colours of stacked gradients: each stop of the lowest, alone or under any stop of an
  // image above it (the felt's edges are shaded by gradients that cover only a strip).
  const stacked = (image) => {
    const [lowest, ...above] = images(image).reverse();
    let colours = lowest.map((stop) => over(stop, { r: 255, g: 255, b: 255, a: 1 }));
    for (const stops of above) colours = colours.flatMap((c) => [c, ...stops.map((stop) => over(stop, c))]);
    return colours;
  };
  // The backgrounds under an element, as the possible colours (a gradient gives each of its stops).
  const backgrounds = (el) => {
    const layers = [];
    for (let node = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      const image = style.backgroundImage;
      if (image && image !== 'none') {
        return stacked(image).map((colour) => layers.reduceRight((acc, layer) => over(layer, acc), colour));
      }
      const colour = parse(style.backgroundColor);
      if (colour && colour.a > 0) {
        layers.push(colour);
        if (colour.a >= 1) break;
      }
    }
    const page = parse(getComputedStyle(document.documentElement).backgroundColor) ?? { r: 255, g: 255, b: 255, a: 1 };
    return [layers.reduceRight((acc, layer) => over(layer, acc), page)];
  };
  const problems = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('svg, .visually-hidden, [hidden]')) continue;
    if (el.closest(':disabled, [inert]')) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const box = el.getBoundingClientRect();
    if (box.width < 2 || box.height < 2 || !el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
    const style = getComputedStyle(el);
    let opacity = 1;
    for (let node = el; node; node = node.parentElement) opacity *= Number(getComputedStyle(node).opacity);
    if (opacity < 0.05) continue;
    const text = parse(style.color);
    for (const under of backgrounds(el)) {
      const shown = over({ ...text, a: text.a * opacity }, under);
      const value = ratio(shown, under);
      if (value < 4.5) {
        const name = el.dataset.testid || el.id || `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
        problems.push(`${name} "${el.textContent.trim().slice(0, 30)}": ${value.toFixed(2)}:1`);
        break;
      }
    }
  }
  return [...new Set(problems)];
}
