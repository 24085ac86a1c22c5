// Every control a finger may tap, at least 44x44 px where it can be touched (WCAG 2.5.5):
// buttons, links that are controls (not words inside running text), form fields (a box or a
// radio counts with its label, which takes the tap too), summaries. Returns the ones smaller.
(within) => {
  const root = within ? document.querySelector(within) : document;
  const shown = (el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden'
    && !el.closest('[hidden], .visually-hidden');
  const inText = (el) => el.tagName === 'A' && el.closest('p, .lead, .field-help, td, .rules');
  const offScreen = (r) => r.right <= 0 || r.bottom <= 0 || r.left >= innerWidth || r.top >= innerHeight;
  // What takes the tap: a box or a radio with its label; a control that reaches further
  // through an absolutely placed pseudo-element (a seat's name, a display's head), that.
  const reach = (el) => {
    for (const pseudo of ['::before', '::after']) {
      const style = getComputedStyle(el, pseudo);
      if (style.position !== 'absolute' || style.content === 'none') continue;
      const holder = getComputedStyle(el).position === 'static' ? el.offsetParent : el;
      const box = holder.getBoundingClientRect();
      const at = (side) => parseFloat(style[side]) || 0;
      return DOMRect.fromRect({
        x: box.left + holder.clientLeft + at('left'),
        y: box.top + holder.clientTop + at('top'),
        width: holder.clientWidth - at('left') - at('right'),
        height: holder.clientHeight - at('top') - at('bottom'),
      });
    }
    return null;
  };
  const target = (el) => {
    if (el.matches('input[type=checkbox], input[type=radio]')) {
      const label = el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`));
      return label || el;
    }
    return el;
  };
  const small = [];
  const seen = new Set();
  for (const el of root.querySelectorAll('a[href], button:not(:disabled), input:not([type=hidden]):not(:disabled), select, summary')) {
    if (!shown(el) || inText(el)) continue;
    const box = target(el);
    if (seen.has(box)) continue;
    seen.add(box);
    const r = reach(el) ?? box.getBoundingClientRect();
    if (offScreen(r)) continue;  // the skip link, until a key brings it in
    if (r.width < 43.5 || r.height < 43.5) {
      const name = (el.getAttribute('aria-label') || el.textContent || el.name || el.id || el.className).trim().slice(0, 40);
      small.push(`${name} (${el.tagName.toLowerCase()}${el.className ? '.' + String(el.className).split(' ')[0] : ''}) ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return small;
}
