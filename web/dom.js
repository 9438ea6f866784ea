// DOM helpers every page uses: elements built with textContent only (never HTML from data),
// the page's words from the strings table, and runs of one direction kept apart in the other.

/** The strings table of the page's language (English filling any gap) and that language. */
export const ui = { strings: /** @type {Record<string, string>} */ ({}), lang: "en", dir: "ltr" };

/** The UI text for a key, in the page's language; `{name}` placeholders are filled from `values`. */
export function t(key, values) {
  let text = ui.strings[key] ?? key;
  for (const [name, value] of Object.entries(values || {})) text = text.replaceAll("{" + name + "}", String(value));
  return text;
}

/** The UI text for a key when the table has one, else nil: for values the server sends (a
 *  deck kind, a mastery level), which the page words itself when it knows them. */
export const tMaybe = key => ui.strings[key];

/** The text for a count: the key's plural form in the UI's language (`.one`, `.few`, …),
 *  else its `.other`, with `{count}` in the UI's digits. */
export function tn(key, count, values = {}) {
  const form = new Intl.PluralRules(ui.lang).select(count);
  const chosen = tMaybe(`${key}.${form}`) !== undefined ? `${key}.${form}` : `${key}.other`;
  return t(chosen, { count: num(count), ...values });
}

/** A number in the page's language (Arabic-Indic digits in Arabic). */
export const num = (value, options) => new Intl.NumberFormat(ui.lang, options).format(value);

/** A date (a `Date` or ISO text) in the page's language: day and month, and the year when asked. */
export function date(value, options = { day: "numeric", month: "short", year: "numeric" }) {
  return new Intl.DateTimeFormat(ui.lang, options).format(typeof value === "string" ? new Date(value) : value);
}

const svgTags = new Set(["svg", "rect", "line", "polyline", "circle", "text", "g", "path", "title"]);

/** An element with attributes (on* keys become listeners) and children (strings become text). */
export function h(tag, attrs, ...children) {
  const el = svgTags.has(tag) ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  // SVG text takes no HTML spans: its runs are left to the bidi algorithm.
  const text = svgTags.has(tag) ? value => document.createTextNode(value) : bidi;
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : text(String(child)));
  }
  // dir="auto" looks past isolated runs, and every right-to-left run is one (`bidi`): an
  // Arabic sentence would be laid out left to right. Its direction is its first strong
  // letter's; data-dir="auto" still marks it as the library's text, in either direction.
  if (attrs && attrs.dir === "auto" && strongLetter.test(el.textContent)) {
    el.setAttribute("dir", direction(el.textContent));
    el.dataset.dir = "auto";
  }
  return el;
}

const strongLetter = /[A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;

/** rtl when the text's first strong letter is right-to-left (Arabic, Hebrew), else ltr. */
export function direction(text) {
  const first = strongLetter.exec(text);
  return first && rtlLetter.test(first[0]) ? "rtl" : "ltr";
}

/** Text of the library (a deck's title, a gloss, an id, a commit message), which may be in
 *  either direction: isolated, so its punctuation and numbers stay with it inside a page of
 *  the other direction. */
export const iso = (text, attrs = {}) => h("bdi", { dir: "auto", ...attrs }, text);

const rtlLetter = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;
const rtlRun = /([\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF][\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\s\u060C\u061B\u061F.,!?{}0-9\u0660-\u0669]*[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF}]|[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF])/;

/** Text with each right-to-left run (Arabic, Hebrew) in its own lang="ar" dir="rtl" span, so
 *  a mixed English and Arabic line reads correctly in either page direction. */
export function bidi(text) {
  if (!rtlLetter.test(text)) return document.createTextNode(text);
  const fragment = document.createDocumentFragment();
  for (const run of text.split(rtlRun)) {
    if (!run) continue;
    if (rtlLetter.test(run)) {
      const span = document.createElement("span");
      span.lang = "ar"; span.dir = "rtl"; span.textContent = run;
      fragment.append(span);
    } else fragment.append(document.createTextNode(run));
  }
  return fragment;
}

export const main = () => /** @type {HTMLElement} */ (document.getElementById("main"));
export function render(...children) { main().replaceChildren(...children); }

/** A failed call: the page's words for it, and the server's own words below, muted, for
 *  whoever reports the problem. */
export function errorCard(error) {
  return h("div", { class: "card error", role: "alert" }, h("h1", {}, t("error.title")), h("p", {}, error.message),
    error.detail && error.detail !== error.message ? h("p", { class: "muted small" }, iso(error.detail)) : null);
}

export const tokenRefused = error => error.code === "no_token" || error.code === "wrong_token";

/** A call's failure in place of the page; without the token, which address to open. */
export function showError(error) {
  if (tokenRefused(error)) showNoToken();
  else render(errorCard(error));
}

/** Without the launch's token the page can show nothing of the library: it says which address to open. */
export function showNoToken() {
  render(h("div", { class: "card error", role: "alert", id: "no-token" }, h("h1", {}, t("token.heading")), h("p", {}, t("token.missing"))));
}
