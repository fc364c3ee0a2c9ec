// Arbiter web: small shared pieces of interface: dialogs that ask before acting,
// a polite live region for announcements, the connection indicator, and html``
// escaping for templates.

import { t, esc, applyI18n } from './i18n.js';

export { esc };

// Tagged template that escapes every interpolated value except raw() ones.
export function html(strings, ...vals) {
  let out = strings[0];
  vals.forEach((v, i) => {
    if (Array.isArray(v)) out += v.map((x) => (x && x.__raw !== undefined ? x.__raw : esc(x))).join('');
    else out += v && v.__raw !== undefined ? v.__raw : esc(v);
    out += strings[i + 1];
  });
  return { __raw: out };
}
export const raw = (s) => ({ __raw: s });
export function render(el, tpl) { el.innerHTML = tpl.__raw; applyI18n(el); return el; }

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

// A modal <dialog>.  fields: [{name, label, type, value, options}] for a form;
// resolves with the form values (or true) on OK, null on cancel.
export function ask({ title, message = '', fields = [], ok = t('common.ok'), cancel = t('common.cancel'), danger = false }) {
  return new Promise((resolve) => {
    const dlg = document.createElement('dialog');
    dlg.className = 'ask';
    const inputs = fields.map((f) => {
      const id = `f-${f.name}`;
      if (f.type === 'select') {
        return `<label for="${id}">${esc(f.label)}</label><select id="${id}" name="${esc(f.name)}">${
          f.options.map(([v, l]) => `<option value="${esc(v)}"${String(v) === String(f.value ?? '') ? ' selected' : ''}>${esc(l)}</option>`).join('')}</select>`;
      }
      return `<label for="${id}">${esc(f.label)}</label><input id="${id}" name="${esc(f.name)}" type="${f.type || 'text'}" value="${esc(f.value ?? '')}"${f.required ? ' required' : ''}${f.step ? ` step="${f.step}"` : ''}>`;
    }).join('');
    dlg.innerHTML = `<form method="dialog"><h2>${esc(title)}</h2>${message ? `<p>${esc(message)}</p>` : ''}
      <div class="fields">${inputs}</div>
      <div class="buttons"><button value="cancel" type="button" class="cancel">${esc(cancel)}</button>
      <button value="ok" class="${danger ? 'danger' : 'primary'}">${esc(ok)}</button></div></form>`;
    document.body.append(dlg);
    const form = dlg.querySelector('form');
    const done = (v) => { dlg.close(); dlg.remove(); resolve(v); };
    dlg.querySelector('.cancel').addEventListener('click', () => done(null));
    dlg.addEventListener('cancel', (e) => { e.preventDefault(); done(null); });
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      if (!fields.length) return done(true);
      done(Object.fromEntries(new FormData(form).entries()));
    });
    dlg.showModal();
    (dlg.querySelector('input,select') || dlg.querySelector('button.primary,button.danger')).focus();
  });
}

// Announce a sentence to screen readers and show it briefly on screen.
export function toast(message, kind = 'info') {
  let box = document.getElementById('toasts');
  if (!box) {
    box = document.createElement('div');
    box.id = 'toasts';
    box.setAttribute('role', 'status');
    box.setAttribute('aria-live', 'polite');
    document.body.append(box);
  }
  const el = document.createElement('div');
  el.className = `toast ${kind}`;
  el.textContent = message;
  box.append(el);
  setTimeout(() => el.remove(), kind === 'error' ? 8000 : 4000);
}

// The error of a failed request in the reader's language when we know the code.
// detail: add the server's own words (English) after the translated text.
export function errorText(e, detail = true) {
  if (e && e.code) {
    const key = `error.${e.code}`;
    const known = t(key);
    if (known !== key) return detail && e.message && e.code !== 'network' ? `${known} (${e.message})` : known;
  }
  return (e && e.message) || String(e);
}

// The connection indicator: 'live' or 'offline'.
export function connectionBadge() {
  // Hidden until a live stream reports; pages without one show nothing.
  const el = document.createElement('span');
  el.className = 'conn hidden';
  el.setAttribute('role', 'status');
  return {
    el,
    set(state) {
      el.className = `conn ${state}`;
      el.dataset.i18n = `conn.${state}`;
      el.textContent = t(`conn.${state}`);
    },
  };
}

export function download(name, text, type = 'text/plain') {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

export function resultText(r) {
  return ({ '1/2-1/2': '½–½', '1/2-0': '½–0', '0-1/2': '0–½', '1-1/2': '1–½', '1/2-1': '½–1',
    '+/-': '+ – −', '-/+': '− – +', '-/-': '− – −', '+/+': '+ – +' })[r] || (r || '*').replace('-', '–');
}
