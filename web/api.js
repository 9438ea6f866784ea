// The JSON API of `rote serve` (docs/web.md): one place that knows the token, the headers and
// the shape of each answer. Pages call `api()` and never `fetch()` themselves.
import { ui } from "./dom.js";

/** @typedef {{name: string, title: string, kind: string, due: number, new: number}} TodayDeck */
/** @typedef {{user: string, due: number, new: number, due_deferred: number, due_later_today: number, due_today: number,
 *  reviewed_today: number, decks: TodayDeck[], daily_goal: number, session_open: boolean}} Today */
/** @typedef {"again"|"hard"|"good"|"easy"} Grade */
/** @typedef {{kind: string, grade?: Grade, next?: string, reason?: string, level?: string, entry?: string}} Notice */
/** @typedef {{audio?: string, image?: string, autoplay: boolean, speak?: string, language?: string}} Media */
/** A study session's screen (docs/web.md, "A study session"): the payload is under the key `kind` names.
 *  @typedef {{version: number, answered: number, planned: number, number: number, deck?: string,
 *  visit?: "new"|"review"|"again", notices: Notice[], media?: Media,
 *  kind: "card"|"question"|"feedback"|"grade_choice"|"passage"|"reflection"|"consent"|"letter"|"leech"|"summary",
 *  nothing_to_study?: boolean, reviewed_today?: number, practice?: boolean, [payload: string]: any}} Screen */
/** One action on a screen: `{proceed: true}`, `{choose: n}`, `{type: text}`, `{order: [n]}`, `{hint: text}`,
 *  `{consent: bool}`, `{grade: Grade}` or `{command: "undo"|"suspend"|"ignore"|"quit"}`.
 *  @typedef {Record<string, any>} Action */
/** @typedef {{text: string, is_word: boolean, status?: string, rank?: number, entry?: string}} ReaderToken */
/** @typedef {{entry: string, lemma: string, pos: string, translation: string, meaning?: string, rank?: number, cefr?: string,
 *  forms: string[][], examples: {en: string, translated: string}[], status: string}} WordAnswer */
/** @typedef {{name: string, title: string, kind: string, description: string}} Deck */
/** @typedef {{total: number, entries: {id: string, gloss: string, status: string}[]}} EntryPage */
/** @typedef {{at: string, grade: string, ms?: number, device?: string}} Review */
/** @typedef {{id: string, date: string, summary: string, touched: string[]}} Commit */
/** @typedef {{id: string, deck: string, deck_title: string, kind: string, gloss: string, status: string, file: string,
 *  due?: string, stability?: number, difficulty?: number, confidence?: number, mastery?: string, lapses?: number,
 *  ladder?: string, audio?: string, image?: string, reviews: Review[], commits: Commit[]}} Entry */
/** @typedef {{skill: string, title: string, deck: string, attempts: number, correct: number, accuracy?: number,
 *  last_practised?: string, confidence: number, mastery: string, questions: number}} SkillRow */
/** @typedef {{due_today: number, forecast: number[], reviews_per_day: number[], heat_levels: number[],
 *  current_streak: number, longest_streak: number, daily_goal: number, reviews_today: number, practice_today: number, practice_reviews: number, retention_reviews: number,
 *  retention_achieved?: number, retention_desired: number, mastery: {deck: string, title: string, levels: {level: string, count: number}[]}[],
 *  skills: SkillRow[], leeches: {id: string, gloss: string, lapses: number}[],
 *  schedules: {deck: string, title: string, fsrs: boolean, desired_retention: number, retention_source: string,
 *    maximum_interval: number, leech_threshold: number, leech_action: "tag"|"suspend", leech_source: string,
 *    parameters: "deck"|"learner"|"default"}[]}} Stats */
/** @typedef {{id: string, character: string, name: string, glyph: string, strokes: number[][][], tips: string[],
 *  unlocked: boolean, best?: number, attempts: number, passes_done: number}} Letter */
/** @typedef {{deck: string, pass_score: number, passes: number, pass_mode: string, left_handed?: boolean,
 *  haptics?: boolean, letters: Letter[]}} Letters */
/** @typedef {{letter: string, score: number, start: number, direction: number, stroke_order: number, shape: number,
 *  tips: string[], file: string, best?: number, attempts: number, passes_done: number, unlocked: string[], review?: string}} TraceScore */
/** @typedef {{lang: string, dir: "ltr"|"rtl", strings: Record<string, string>, available?: string[]}} Strings */

// The launch's token arrives in the address's fragment (`#token=…`), which a browser never
// sends to a server, so it reaches no log. It is kept in this tab's sessionStorage (per tab and
// per origin, and an origin includes the port) and sent as a header with every API call. Never
// a cookie: cookies are not scoped by port, so every other web server on 127.0.0.1 would get it.
export const tokenKey = "rote.token";

export function takeToken() {
  const match = /^#token=([0-9A-Za-z]+)$/.exec(location.hash);
  if (match) {
    sessionStorage.setItem(tokenKey, match[1]);
    // Out of the address bar and the history, so it is not copied or shared with the address.
    history.replaceState(null, "", location.pathname);
  }
  return sessionStorage.getItem(tokenKey);
}

export const hasToken = () => Boolean(sessionStorage.getItem(tokenKey));

/** GET `path`, or POST `body` as JSON; a 4xx or 5xx throws an Error with the answer's code. */
export async function api(path, body) {
  const headers = { "X-Rote-Token": sessionStorage.getItem(tokenKey) || "" };
  const options = body === undefined ? { headers } : { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, { credentials: "omit", ...options });
  const data = await response.json().catch(() => ({ error: { message: response.statusText } }));
  if (!response.ok) throw Object.assign(new Error(errorText(data.error) || response.statusText), { code: data.error?.code, status: response.status, detail: data.error?.message });
  return data;
}

const mediaURLs = new Map();

/** A `blob:` address for `/media/<path>`, fetched with the token (an `<img src>` or `<audio
 *  src>` cannot send it); nil when the library has no such file. */
export async function mediaURL(path) {
  if (!mediaURLs.has(path)) {
    mediaURLs.set(path, fetch("/media/" + path.split("/").map(encodeURIComponent).join("/"), { credentials: "omit", headers: { "X-Rote-Token": sessionStorage.getItem(tokenKey) || "" } })
      .then(response => response.ok ? response.blob().then(blob => URL.createObjectURL(blob)) : null).catch(() => null));
  }
  return mediaURLs.get(path);
}

// An error the strings table words (`error.<code>`) is shown in the page's language, with the
// server's detail (another process's pid and command) at {detail}; any other in the page's
// general words, since the server's message is written for a developer and in English.
function errorText(error) {
  const text = error?.code && ui.strings["error." + error.code];
  if (text) return text.replace("{detail}", error.detail ?? "");
  return ui.strings["error.other"] ?? error?.message;
}

/** The page's words in `lang` (or the browser's choice), through the API. */
export const loadStrings = lang => api("/api/strings" + (lang ? "?lang=" + encodeURIComponent(lang) : ""));

/** The strings without the API, which needs the token: the embedded table itself, in the
 *  language chosen before or the browser's first one it has (English otherwise).
 *  @returns {Promise<Strings>} */
export async function loadShellStrings() {
  const table = await (await fetch("/assets/strings.json", { credentials: "omit" })).json();
  const wanted = [localStorage.getItem("rote.lang"), ...(navigator.languages || [])].filter(Boolean).map(l => l.split("-")[0].toLowerCase());
  const lang = wanted.find(l => table[l]) || "en";
  return { lang, dir: ["ar", "fa", "he", "ur"].includes(lang) ? "rtl" : "ltr", strings: { ...table.en, ...table[lang] } };
}
