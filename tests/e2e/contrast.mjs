// Contrast in the page, shared by the browser tests: WCAG 2 luminance
// ratios of texts against their composed backgrounds, and of any colour
// against a CSS variable's colour. Passed to page.evaluate as it is.

/**
 * In the page: the texts whose contrast is below `min`, as
 * [{text, where, fg, bg, ratio}]. The background is the element's own or its
 * ancestors' (semi-transparent layers composed down to an opaque one), the
 * text colour composed over it; opacity on the way dims the text. Given
 * marks ([{name, selector, prop, over}]) instead of `min` it measures those: the
 * first element matching `selector`, its colour `prop` (fill or stroke, with
 * its opacity) composed over the colour of CSS variable `over`, as
 * [{name, fg, bg, ratio}] (null ratio when nothing matches).
 */
export function lowContrast(what) {
  const min = typeof what === 'number' ? what : Infinity;
  const marks = Array.isArray(what) ? what : null;
  const parse = (c) => {
    let m = /^rgba?\(([^)]+)\)$/.exec(c);
    if (m) {
      const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
      return [p[0], p[1], p[2], p[3] ?? 1];
    }
    m = /^color\(srgb ([^)]+)\)$/.exec(c);
    if (m) {
      const p = m[1].split(/[\s/]+/).filter(Boolean).map(Number);
      return [p[0] * 255, p[1] * 255, p[2] * 255, p[3] ?? 1];
    }
    return null;
  };
  const over = (top, below) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + below[i] * (1 - a)).concat(1);
  };
  const lum = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const x = v / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const canvas = getComputedStyle(document.documentElement).colorScheme.includes('dark') ? [0, 0, 0, 1] : [255, 255, 255, 1];
  const background = (el) => {
    const layers = [];
    let opacity = 1;
    for (let n = el; n; n = n.parentElement) {
      const cs = getComputedStyle(n);
      opacity *= Number(cs.opacity);
      const bg = parse(cs.backgroundColor);
      if (bg && bg[3] > 0) {
        layers.push(bg);
        if (bg[3] >= 1) break;
      }
    }
    let c = canvas;
    for (const l of layers.reverse()) c = over(l, c);
    return { bg: c, opacity };
  };
  const visible = (el) => {
    if (el.closest('svg, option, .visually-hidden, [hidden], [aria-hidden="true"]')) return false;
    if (el.closest(':disabled')) return false; // inactive controls are exempt (WCAG 1.4.3)
    const cs = getComputedStyle(el);
    if (cs.visibility !== 'visible' || cs.display === 'none') return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const hex = (c) => `#${c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
  if (marks) {
    const probe = document.createElement('div');
    document.body.append(probe);
    const out = marks.map(({ name, selector, prop, over: bgVar }) => {
      const el = document.querySelector(selector);
      probe.style.color = `var(${bgVar})`;
      const bg = over(parse(getComputedStyle(probe).color), canvas);
      if (!el) return { name, fg: null, bg: hex(bg), ratio: null };
      const cs = getComputedStyle(el);
      const raw = parse(cs[prop]);
      const alpha = Number(prop === 'fill' ? cs.fillOpacity : cs.strokeOpacity) * Number(cs.opacity);
      const fg = over([raw[0], raw[1], raw[2], raw[3] * alpha], bg);
      return { name, fg: hex(fg), bg: hex(bg), ratio: Math.round(ratio(fg, bg) * 100) / 100 };
    });
    probe.remove();
    return out;
  }
  const bad = [];
  const seen = new Set();
  const all = document.querySelectorAll('body *');
  for (const el of all) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const field = el.matches('input[type=text], input[type=number], textarea, select') && el.value;
    if (!own && !field) continue;
    if (!visible(el)) continue;
    const { bg, opacity } = background(el);
    const fgRaw = parse(getComputedStyle(el).color);
    if (!fgRaw) continue;
    const fg = over([fgRaw[0], fgRaw[1], fgRaw[2], fgRaw[3] * opacity], bg);
    const r = ratio(fg, bg);
    if (r < min) {
      const text = (field ? el.value : el.textContent).trim().slice(0, 40);
      const where = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
      const key = `${where}|${text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      bad.push({ text, where, fg: hex(fg), bg: hex(bg), ratio: Math.round(r * 100) / 100 });
    }
  }
  return bad;
}
