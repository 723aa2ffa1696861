// Tiny DOM helpers. Every piece of text goes in through text nodes or
// attributes, never through innerHTML, so user data (player names, records)
// is always shown as text.

const SVG_NS = 'http://www.w3.org/2000/svg';

function fill(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
    else if (k === 'text') el.textContent = v;
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'value' && 'value' in el) el.value = v;
    else if (k === 'checked' || k === 'disabled' || k === 'selected') el[k] = !!v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** HTML element: h('button', {class: 'x', onclick}, 'text', child…). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** SVG element. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

/** Replaces the children of el. */
export function mount(el, ...children) {
  clear(el);
  return fill(el, null, children);
}

/**
 * Replaces the part of a page at `selector` (in `root`) by `next`, leaving
 * the rest (forms being filled in, their focus) as it is: what a page does
 * when an answer for one of its lists arrives. Returns the element that had
 * the focus inside the old part (detached now), for the caller to find its
 * counterpart in `next`; null if none or nothing was replaced.
 */
export function replacePart(root, selector, next) {
  const box = root.querySelector(selector);
  if (!box || !next) return null;
  const focused = box.contains(document.activeElement) ? document.activeElement : null;
  box.replaceWith(next);
  return focused;
}

let toastTimer = null;
/** A short message at the bottom of the screen (also read by screen readers). */
export function toast(text, kind = 'info') {
  let box = document.getElementById('toast');
  if (!box) {
    box = h('div', { id: 'toast', role: 'status', 'aria-live': 'polite' });
    document.body.append(box);
  }
  box.className = `toast show ${kind}`;
  box.textContent = text;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove('show'), 4000);
}

/** A modal confirmation; resolves true or false. */
export function confirmDialog({ title, text, ok, cancel }) {
  return new Promise((resolve) => {
    const dlg = h('dialog', { class: 'dialog', 'aria-labelledby': 'dlg-title' },
      h('h2', { id: 'dlg-title', text: title }),
      text ? h('p', { text }) : null,
      h('div', { class: 'row end' },
        h('button', { class: 'btn', value: 'cancel', onclick: () => dlg.close('cancel'), text: cancel }),
        h('button', { class: 'btn primary', value: 'ok', onclick: () => dlg.close('ok'), text: ok })));
    dlg.addEventListener('close', () => { dlg.remove(); resolve(dlg.returnValue === 'ok'); });
    document.body.append(dlg);
    dlg.showModal();
    dlg.querySelector('.primary').focus();
  });
}

export function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const ta = h('textarea', { style: { position: 'fixed', opacity: '0' } });
  ta.value = text;
  document.body.append(ta);
  ta.select();
  try { document.execCommand('copy'); } finally { ta.remove(); }
  return Promise.resolve();
}
