// What the layout tests check on the page (tests/browser/layout.py): returns problems.
(touch) => {
  const coverName = (hit) =>
    hit?.closest('[data-testid]')?.dataset.testid || hit?.closest('[id]')?.id || hit?.tagName;
  const problems = [];
  const vw = innerWidth, vh = innerHeight;
  const needed = [...document.querySelectorAll('[data-needed]'), document.getElementById('banner')];
  for (const el of needed) {
    const r = el.getBoundingClientRect();
    const name = el.dataset.testid || el.dataset.needed || el.id || el.className;
    if (!r.width || !r.height) { problems.push(`${name} is not shown`); continue; }
    if (r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1) {
      problems.push(`${name} is outside the viewport: ${Math.round(r.left)},${Math.round(r.top)} to `
        + `${Math.round(r.right)},${Math.round(r.bottom)} in ${vw}x${vh}`);
      continue;
    }
    const x = r.left + Math.min(8, r.width / 3), y = r.top + Math.min(10, r.height / 3);
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(el === hit || el.contains(hit) || hit.contains(el)))
      problems.push(`${name} is covered by ${coverName(hit)}`);
  }
  if (touch) {
    const controls = document.querySelectorAll(
      '#board button:not(:disabled), .table-head button, .table-head a.btn, .turn-line button:not([hidden])');
    for (const el of controls) {
      const r = el.getBoundingClientRect();
      if (r.width && r.height && (r.height < 43.5 || r.width < 43.5))
        problems.push(`${el.dataset.testid || el.id || el.textContent.trim()} is ${Math.round(r.width)}x${Math.round(r.height)} px`);
    }
  }
  if (document.documentElement.scrollWidth > vw) problems.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  return problems;
}
