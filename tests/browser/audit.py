"""Page audits the readability tests share (issue 26): the smallest text on the screen, controls
something else lies on (a hit-test with ``document.elementFromPoint``), Chrome's cumulative layout
shift (a ``PerformanceObserver`` for ``layout-shift``)."""

from __future__ import annotations

#: every visible text (and SVG text at its rendered size) smaller than ``min_px``: [{text, px, where}]
SMALL_TEXT = """(minPx) => {
  const out = [];
  const seen = new Set();
  const visible = (node) => {
    const r = node.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    if (r.bottom <= 0 || r.right <= 0 || r.top >= innerHeight || r.left >= innerWidth) return false;
    for (let e = node; e && e.nodeType === 1; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.visibility === "hidden" || cs.display === "none" || Number(cs.opacity) === 0) return false;
    }
    return true;
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const text = t.textContent.trim();
    const node = t.parentElement;
    if (!text || !node || seen.has(node) || node.closest("dialog:not([open]), script, style, option, title")) continue;
    seen.add(node);
    if (!visible(node)) continue;
    let px = parseFloat(getComputedStyle(node).fontSize);
    if (node instanceof SVGElement) {
      const m = node.getScreenCTM();
      px *= m ? Math.hypot(m.a, m.b) : 1;
    }
    if (px < minPx - 0.05) out.push({ text: text.slice(0, 40), px: Math.round(px * 10) / 10,
      where: node.id || node.className.baseVal || node.className || node.tagName });
  }
  for (const node of document.querySelectorAll("*")) {  // generated text (::after letters)
    for (const pseudo of ["::before", "::after"]) {
      const cs = getComputedStyle(node, pseudo);
      const content = cs.content;
      if (!content || content === "none" || content === "normal" || content === '""' || !visible(node)) continue;
      const px = parseFloat(cs.fontSize);
      if (px < minPx - 0.05) out.push({ text: content.slice(0, 20), px: Math.round(px * 10) / 10,
        where: `${node.className}${pseudo}` });
    }
  }
  return out;
}"""

#: the visible controls whose centre (and four inner corners) something else lies on: [{control, on}]
COVERED = """(selector) => {
  const out = [];
  const name = (e) => e ? (e.id ? `#${e.id}` : `${e.tagName.toLowerCase()}.${String(e.className).trim().split(/\\s+/).join(".")}`) + (e.textContent ? ` "${e.textContent.trim().slice(0, 30)}"` : "") : "nothing";
  for (const c of document.querySelectorAll(selector)) {
    if (c.closest("dialog:not([open])")) continue;
    const r = c.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const cs = getComputedStyle(c);
    if (cs.visibility === "hidden") continue;
    if (r.bottom <= 0 || r.top >= innerHeight || r.right <= 0 || r.left >= innerWidth) continue;  // scrolled away
    const dx = r.width * 0.2, dy = r.height * 0.2;  // (inside the rounded corners)
    const points = [[r.left + r.width / 2, r.top + r.height / 2], [r.left + dx, r.top + dy], [r.right - dx, r.top + dy],
                    [r.left + dx, r.bottom - dy], [r.right - dx, r.bottom - dy]];
    // the parts a scrolling ancestor clips are out of sight, not covered
    const clips = [];
    for (let a = c.parentElement; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).overflow !== "visible") clips.push(a.getBoundingClientRect());
    }
    for (const [x, y] of points) {
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      if (clips.some((k) => x < k.left || x > k.right || y < k.top || y > k.bottom)) continue;
      const hit = document.elementFromPoint(x, y);
      if (hit && hit !== c && !c.contains(hit) && !hit.contains(c)) { out.push({ control: name(c), on: name(hit) }); break; }
    }
  }
  return out;
}"""

CONTROLS = "button, a[href], select, input, textarea, [role=tab]"

#: starts the layout-shift observer (Chrome's own measure; ``hadRecentInput`` shifts do not count)
WATCH_SHIFTS = """() => {
  window.__cls = 0; window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      window.__cls += e.value;
      window.__shifts.push({ value: e.value, sources: (e.sources || []).map((s) => s.node ? (s.node.id || s.node.className || s.node.nodeName) : "?") });
    }
  }).observe({ type: "layout-shift", buffered: true });
}"""

SHIFTS = "() => ({ cls: window.__cls, shifts: window.__shifts })"


def small_text(page, min_px: float) -> list[dict]:
    return page.evaluate(SMALL_TEXT, min_px)


def covered(page, selector: str = CONTROLS) -> list[dict]:
    return page.evaluate(COVERED, selector)


#: every visible text cut off (issue 27: German words are longer): a box whose text overflows it while
#: its overflow is hidden (an ellipsis, a cut word), a text that an ancestor's hidden overflow cuts
#: sideways, or one that runs past the window's left or right edge: [{text, where, why}]. Boxes that
#: scroll (overflow auto/scroll) and the notices' one line (cut by design, its "more" button opens it)
#: are not clipping.
CLIPPED = """() => {
  const out = [];
  const name = (e) => e.id ? `#${e.id}` : `${e.tagName.toLowerCase()}.${String(e.className.baseVal ?? e.className).trim().split(/\\s+/).join(".")}`;
  const shown = (node) => {
    const r = node.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    for (let e = node; e && e.nodeType === 1; e = e.parentElement) {
      const cs = getComputedStyle(e);
      if (cs.visibility === "hidden" || cs.display === "none" || Number(cs.opacity) === 0) return false;
    }
    return !node.closest("dialog:not([open]), script, style, option, title, #notices");
  };
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const text = t.textContent.trim();
    const node = t.parentElement;
    if (!text || !node || seen.has(node)) continue;
    seen.add(node);
    if (!shown(node)) continue;
    const range = document.createRange();
    range.selectNodeContents(t);
    const box = range.getBoundingClientRect();
    const cs = getComputedStyle(node);
    const why = [];
    if (["hidden", "clip"].includes(cs.overflowX) && node.scrollWidth > node.clientWidth + 1) why.push("overflows its box sideways");
    if (["hidden", "clip"].includes(cs.overflowY) && node.scrollHeight > node.clientHeight + 1 && cs.webkitLineClamp === "none") why.push("overflows its box downwards");
    if (cs.webkitLineClamp !== "none" && node.scrollHeight > node.clientHeight + 1) why.push("cut after its lines");
    if (box.right > innerWidth + 0.5 || box.left < -0.5) why.push("runs past the window's edge");
    for (let a = node.parentElement; a && a !== document.body; a = a.parentElement) {
      const as = getComputedStyle(a);
      if (!["hidden", "clip"].includes(as.overflowX)) continue;
      const k = a.getBoundingClientRect();
      if (box.left < k.left - 0.5 || box.right > k.right + 0.5) { why.push(`cut sideways by ${name(a)}`); break; }
    }
    if (why.length) out.push({ text: text.slice(0, 50), where: name(node), why: why.join("; ") });
  }
  if (document.documentElement.scrollWidth > innerWidth + 1) {
    out.push({ text: "(the page)", where: "html", why: `scrolls sideways: ${document.documentElement.scrollWidth} px wide` });
  }
  return out;
}"""


def clipped(page) -> list[dict]:
    return page.evaluate(CLIPPED)
