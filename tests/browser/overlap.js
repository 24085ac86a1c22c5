// The parts of the game's layout that are drawn over one another (tests/browser/layout.py):
// each part's box is the box around all it draws (its cards, labels and badges); two parts
// whose boxes meet are one drawn over the other.
() => {
  const drawn = (part) => [part, ...part.querySelectorAll('*')]
    .filter((el) => el.checkVisibility({ visibilityProperty: true }))  // not in a closed <details>
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.width && r.height)
    .reduce((box, r) => ({
      name: box.name,
      left: Math.min(box.left, r.left), top: Math.min(box.top, r.top),
      right: Math.max(box.right, r.right), bottom: Math.max(box.bottom, r.bottom),
    }), { name: part.className, left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity });
  // A box that only groups (display: contents) lays its children out as parts of their own.
  const partsOf = (el) => [...el.children]
    .flatMap((child) => getComputedStyle(child).display === 'contents' ? partsOf(child) : [child]);
  const parts = partsOf(document.querySelector('#board > *')).map(drawn).filter((box) => box.right > box.left);
  const across = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const down = (a, b) => Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return parts.flatMap((a, i) => parts.slice(i + 1)
    .filter((b) => across(a, b) > 1 && down(a, b) > 1)
    .map((b) => `${a.name} overlaps ${b.name} by ${Math.round(down(a, b))} px`));
}
