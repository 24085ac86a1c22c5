// What the layout tests check on the page (tests/browser/layout.py): returns problems.
(touch) => {
  const coverName = (hit) =>
    hit?.closest('[data-testid]')?.dataset.testid || hit?.closest('[id]')?.id || hit?.tagName;
  const problems = [];
  const vw = innerWidth, vh = innerHeight;
  const round = (r) => `${Math.round(r.left)},${Math.round(r.top)} to ${Math.round(r.right)},${Math.round(r.bottom)}`;
  const outside = (r, box) => r.left < box.left - 1 || r.top < box.top - 1 || r.right > box.right + 1 || r.bottom > box.bottom + 1;
  // The ancestor that cuts off what overflows it (a scrolling board, say), if the element overflows
  // it; none above a fixed element (a dialog's backdrop).
  const clippedBy = (el, r) => {
    for (let child = el, node = el.parentElement; node && node !== document.body; child = node, node = node.parentElement) {
      if (getComputedStyle(child).position === 'fixed') return null;
      const style = getComputedStyle(node);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const box = node.getBoundingClientRect();
      const inner = { left: box.left + node.clientLeft, top: box.top + node.clientTop };
      inner.right = inner.left + node.clientWidth;
      inner.bottom = inner.top + node.clientHeight;
      if (outside(r, inner)) return node;
    }
    return null;
  };
  // The largest rectangle of the box that nothing else covers (cards overlap, a dialog lies on top).
  const uncovered = (el, r) => {
    const step = 2;
    const left = Math.max(0, r.left), top = Math.max(0, r.top);
    const mine = (x, y) => {
      const hit = document.elementFromPoint(x, y);
      return hit && (el.contains(hit) || hit.contains(el));
    };
    // Most controls have a whole 44 px square at a corner or in the middle: sampling only
    // those squares first made the check of a phone's table some ten times faster.
    const square = (x0, y0) => {
      for (let y = y0 + step / 2; y < y0 + 44; y += step)
        for (let x = x0 + step / 2; x < x0 + 44; x += step) if (!mine(x, y)) return false;
      return true;
    };
    const right = Math.min(vw, r.right) - 44, bottom = Math.min(vh, r.bottom) - 44;
    const corners = [[left, top], [right, top], [left, bottom], [right, bottom],
      [(left + right) / 2, (top + bottom) / 2]];
    if (right >= left && bottom >= top && corners.some(([x, y]) => square(x, y)))
      return { width: 44, height: 44 };
    const columns = Math.floor((Math.min(vw, r.right) - left) / step);
    const rows = Math.floor((Math.min(vh, r.bottom) - top) / step);
    const heights = new Array(columns).fill(0);
    let best = { width: 0, height: 0 };
    for (let row = 0; row < rows; row++) {
      for (let col = 0; col < columns; col++) {
        // Through a rounded corner to what holds it is not covered: only what lies on top is.
        heights[col] = mine(left + (col + 0.5) * step, top + (row + 0.5) * step) ? heights[col] + 1 : 0;
      }
      // The largest rectangle under this row's histogram of uncovered runs.
      const stack = [];
      for (let col = 0; col <= columns; col++) {
        const h = col < columns ? heights[col] : 0;
        while (stack.length && heights[stack.at(-1)] >= h) {
          const tall = heights[stack.pop()];
          const wide = stack.length ? col - stack.at(-1) - 1 : col;
          const side = Math.min(wide, tall) * step, bestSide = Math.min(best.width, best.height);
          if (side > bestSide || (side === bestSide && wide * tall * step * step > best.width * best.height))
            best = { width: wide * step, height: tall * step };
        }
        stack.push(col);
      }
      if (Math.min(best.width, best.height) >= 44) break;  // enough to touch
    }
    return best;
  };
  // While a modal dialog is open, what the step needs is in it (the table lies behind it).
  const modal = document.querySelector('[aria-modal="true"]');
  const needed = modal ? [...modal.querySelectorAll('[data-needed]')]
    : [...document.querySelectorAll('[data-needed]'), document.getElementById('banner')];
  for (const el of needed) {
    const r = el.getBoundingClientRect();
    const name = el.dataset.testid || el.dataset.needed || el.id || el.className;
    if (!r.width || !r.height) { problems.push(`${name} is not shown`); continue; }
    if (outside(r, { left: 0, top: 0, right: vw, bottom: vh })) {
      problems.push(`${name} is outside the viewport: ${round(r)} in ${vw}x${vh}`);
      continue;
    }
    const clip = clippedBy(el, r);
    if (clip) {
      problems.push(`${name} is cut off by ${coverName(clip)}: ${round(r)}`);
      continue;
    }
    const x = r.left + Math.min(8, r.width / 3), y = r.top + Math.min(10, r.height / 3);
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(el === hit || el.contains(hit) || hit.contains(el)))
      problems.push(`${name} is covered by ${coverName(hit)}`);
  }
  if (touch) {
    // What a finger can hit of each control the step needs: the largest rectangle of its box
    // where the control itself is on top (hand cards overlap), sampled every 2 px.
    const targets = needed.flatMap((el) =>
      el.matches('button:not(:disabled), a[href]') ? [el] : [...el.querySelectorAll('button:not(:disabled), a[href]')]);
    for (const el of targets) {
      const name = el.dataset.testid || el.dataset.needed || el.textContent.trim();
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      const clip = clippedBy(el, r);
      if (clip) { problems.push(`${name} is cut off by ${coverName(clip)}: ${round(r)}`); continue; }
      const { width, height } = uncovered(el, r);
      if (width < 43 || height < 43)
        problems.push(`${name}: ${width}x${height} px of it can be touched (at least 44x44)`);
    }
    const controls = document.querySelectorAll(
      '#board button:not(:disabled), .table-head button, .table-head a.btn, .turn-line button:not([hidden]), '
      + '.end-panel button, .end-panel a.btn');
    for (const el of controls) {
      const r = el.getBoundingClientRect();
      if (r.width && r.height && (r.height < 43.5 || r.width < 43.5))
        problems.push(`${el.dataset.testid || el.id || el.textContent.trim()} is ${Math.round(r.width)}x${Math.round(r.height)} px`);
    }
    // The header and the seats shrink to one line each; a phone on its side has one line for both.
    const head = document.querySelector('.table-head').getBoundingClientRect();
    const most = vh < 500 ? 60 : 100;
    if (head.height > most) problems.push(`the header is ${Math.round(head.height)} px high (at most ${most})`);
    const seatTops = new Set([...document.querySelectorAll('.seat')].map((s) => Math.round(s.getBoundingClientRect().top)));
    if (seatTops.size > 1) problems.push(`the seats take ${seatTops.size} lines`);
  }
  if (document.documentElement.scrollWidth > vw) problems.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  return problems;
}
