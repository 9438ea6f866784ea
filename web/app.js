// Rote's web app: plain JavaScript, no libraries. Every rule lives in the server (the same
// Swift code as the `rote` commands); this file only draws what the JSON API answers and
// sends back what the learner does. Text reaches the page through textContent, never as HTML.
"use strict";

const state = { strings: {}, lang: "en", screen: null, letters: null, letter: null, strokes: [], started: null, readerTokens: [] };

// MARK: Helpers

/** An element with attributes (on* keys become listeners) and children (strings become text). */
function h(tag, attrs, ...children) {
  const svg = ["svg", "rect", "line", "polyline", "circle", "text", "g", "path", "title"].includes(tag);
  const el = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : bidi(String(child)));
  }
  return el;
}

/** The UI text for a key, in the page's language (English when a translation is missing). */
function t(key) { return state.strings[key] ?? key; }

const rtlLetter = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/;
/** Text with each right-to-left run (Arabic, Hebrew) in its own lang="ar" dir="rtl" span, so
 *  a mixed English and Arabic line reads correctly in either page direction. */
function bidi(text) {
  if (!rtlLetter.test(text)) return document.createTextNode(text);
  const fragment = document.createDocumentFragment();
  const runs = text.split(/([\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF][\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF\s\u060C\u061B\u061F.,!?{}0-9\u0660-\u0669]*[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF}]|[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF])/);
  for (const run of runs) {
    if (!run) continue;
    if (rtlLetter.test(run)) {
      const span = document.createElement("span");
      span.lang = "ar"; span.dir = "rtl"; span.textContent = run;
      fragment.append(span);
    } else fragment.append(document.createTextNode(run));
  }
  return fragment;
}

// MARK: Token

// The launch's token arrives in the address's fragment (`#token=…`), which a browser never
// sends to a server, so it reaches no log. It is kept in this tab's sessionStorage (per tab and
// per origin, and an origin includes the port) and sent as a header with every API call. Never
// a cookie: cookies are not scoped by port, so every other web server on 127.0.0.1 would get it.
const tokenKey = "rote.token";
function takeToken() {
  const match = /^#token=([0-9A-Za-z]+)$/.exec(location.hash);
  if (match) {
    sessionStorage.setItem(tokenKey, match[1]);
    // Out of the address bar and the history, so it is not copied or shared with the address.
    history.replaceState(null, "", location.pathname);
  }
  return sessionStorage.getItem(tokenKey);
}
const tokenRefused = error => error.code === "no_token" || error.code === "wrong_token";

async function api(path, body) {
  const headers = { "X-Rote-Token": sessionStorage.getItem(tokenKey) || "" };
  const options = body === undefined ? { headers } : { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, { credentials: "omit", ...options });
  const data = await response.json().catch(() => ({ error: { message: response.statusText } }));
  if (!response.ok) throw Object.assign(new Error(errorText(data.error) || response.statusText), { code: data.error?.code, status: response.status });
  return data;
}

// An error the strings table words (`error.<code>`) is shown in the page's language, with the
// server's detail (another process's pid and command) at {detail}; any other in the server's words.
function errorText(error) {
  const text = error?.code && state.strings?.["error." + error.code];
  return text ? text.replace("{detail}", error.detail ?? "") : error?.message;
}

const main = () => document.getElementById("main");
function render(...children) { main().replaceChildren(...children); }
function showError(error) {
  if (tokenRefused(error)) { showNoToken(); return; }
  render(h("div", { class: "card error", role: "alert" }, h("h1", {}, t("error.title")), error.message));
}
/** Without the launch's token the page can show nothing of the library: it says which address to open. */
function showNoToken() {
  render(h("div", { class: "card error", role: "alert", id: "no-token" }, h("h1", {}, t("token.heading")), h("p", {}, t("token.missing"))));
}

// MARK: Language

async function loadStrings(lang) {
  applyStrings(await api("/api/strings" + (lang ? "?lang=" + encodeURIComponent(lang) : "")));
}

/** The strings without the API, which needs the token: the embedded table itself, in the
 *  language chosen before or the browser's first one it has (English otherwise). */
async function loadShellStrings() {
  const table = await (await fetch("/assets/strings.json", { credentials: "omit" })).json();
  const wanted = [localStorage.getItem("rote.lang"), ...(navigator.languages || [])].filter(Boolean).map(l => l.split("-")[0].toLowerCase());
  const lang = wanted.find(l => table[l]) || "en";
  applyStrings({ lang, dir: ["ar", "fa", "he", "ur"].includes(lang) ? "rtl" : "ltr", strings: { ...table.en, ...table[lang] } });
}

function applyStrings(answer) {
  state.strings = answer.strings; state.lang = answer.lang;
  document.documentElement.lang = answer.lang;
  document.documentElement.dir = answer.dir;
  document.title = t("app.title");
  document.getElementById("language").value = answer.lang;
  for (const el of document.querySelectorAll("[data-text]")) el.textContent = t(el.dataset.text);
}

// MARK: Router

const pages = { today: showToday, study: showStudy, reader: showReader, trace: showTrace, stats: showStats, library: showLibrary, entry: showEntry };

async function route() {
  const [name, ...rest] = location.hash.replace(/^#\/?/, "").split("/");
  const page = pages[name] ? name : "today";
  for (const link of document.querySelectorAll("nav a")) link.classList.toggle("current", link.dataset.page === (page === "entry" ? "library" : page));
  try { await pages[page](decodeURIComponent(rest.join("/"))); } catch (error) { showError(error); }
}

// MARK: Today

async function showToday() {
  const today = await api("/api/today");
  const bar = h("div", {}); bar.style.width = "0%";
  render(
    h("h1", {}, t("today.heading")),
    h("div", { class: "grid" },
      h("div", { class: "card" }, h("div", { class: "big", id: "today-due" }, String(today.due)), t("today.due"),
        today.due_deferred ? h("div", { class: "muted" }, `+${today.due_deferred} ${t("today.deferred")}`) : null),
      h("div", { class: "card" }, h("div", { class: "big", id: "today-new" }, String(today.new)), t("today.new")),
      h("div", { class: "card" }, h("div", { class: "big", id: "today-streak" }, "…"), `${t("today.streak")} (${t("today.days")})`),
      h("div", { class: "card" }, h("div", { id: "today-goal" }, `${t("today.goal")}: … / ${today.daily_goal} ${t("today.reviews")}`), h("div", { class: "progress" }, bar))),
    h("div", { class: "row" },
      today.session_open
        ? h("button", { class: "primary", id: "resume", onclick: () => { location.hash = "#/study"; } }, t("today.resume"))
        : h("button", { class: "primary", id: "start", disabled: today.due + today.new === 0, onclick: () => startSession([]) }, t("today.start")),
      today.due + today.new === 0 ? h("span", { class: "muted" }, t("today.nothing")) : null),
    h("h2", {}, t("library.decks")),
    h("div", { class: "grid" }, today.decks.map(deck =>
      h("div", { class: "card deck", "data-deck": deck.name },
        h("strong", {}, deck.title), h("div", { class: "muted" }, deck.kind),
        h("div", {}, `${deck.due} ${t("today.due")} · ${deck.new} ${t("today.new")}`),
        h("button", { onclick: () => startSession([deck.name]) }, t("today.startDeck"))))));
  // The streak and the goal come from the stats, which read every progress file: drawn when they arrive.
  const stats = await api("/api/stats");
  const streak = document.getElementById("today-streak"), goal = document.getElementById("today-goal");
  if (!streak || !goal) return;
  streak.textContent = String(stats.current_streak);
  goal.textContent = `${t("today.goal")}: ${stats.reviews_today} / ${stats.daily_goal} ${t("today.reviews")}`;
  bar.style.width = Math.round(Math.min(1, stats.daily_goal ? stats.reviews_today / stats.daily_goal : 1) * 100) + "%";
}

async function startSession(decks) {
  try {
    state.screen = await api("/api/session", { decks });
    location.hash = "#/study";
    if (location.hash === "#/study") drawScreen();
  } catch (error) { showError(error); }
}

// MARK: Study

async function showStudy() {
  try { state.screen = await api("/api/session"); } catch (error) {
    if (error.code !== "no_session") throw error;
    render(h("h1", {}, t("study.heading")), h("p", {}, t("study.none")), h("button", { class: "primary", onclick: () => startSession([]) }, t("study.start")));
    return;
  }
  drawScreen();
}

async function reply(body) {
  if (!state.screen || state.busy) return;
  state.busy = true;
  try { state.screen = await api("/api/session/reply", { ...body, version: state.screen.version }); }
  catch (error) { if (error.code !== "stale") throw error; state.screen = await api("/api/session"); }
  finally { state.busy = false; }
  drawScreen();
}
const answer = text => reply({ answer: text });
const command = name => reply({ command: name });

function drawScreen() {
  const screen = state.screen;
  if (!screen) return;
  if (screen.finished) {
    render(h("h1", {}, t("study.finished")), h("div", { class: "card", id: "summary" }, screen.error ? h("p", { class: "error" }, screen.error) : null,
      (screen.summary || "").split("\n").map(line => h("p", {}, line))),
      h("button", { class: "primary", onclick: () => { location.hash = "#/today"; } }, t("study.back")));
    return;
  }
  const prompt = screen.prompt;
  const card = h("div", { class: "card", id: "card" },
    h("div", { class: "muted", id: "progress" }, `${t("study.card")} ${screen.number} ${t("study.of")} ${screen.total} · ${screen.title}`),
    h("div", { class: "lines" }, screen.lines.map(line => h("div", { class: "line " + line.style }, line.text))),
    screen.letter ? h("div", { class: "pad letter-template", id: "letter-template", role: "img", "aria-label": screen.title }, letterTemplate(screen.letter, "trace")) : null);
  if (prompt) card.append(h("div", { class: "muted prompt" }, prompt.text), promptControls(screen, prompt));
  render(h("h1", {}, t("study.heading")), card,
    h("div", { class: "row commands" },
      h("button", { onclick: () => command("undo") }, t("study.undo") + " (u)"),
      h("button", { onclick: () => command("suspend") }, t("study.suspend") + " (s)"),
      h("button", { onclick: () => command("ignore") }, t("study.ignore") + " (i)"),
      h("button", { id: "quit", onclick: () => command("quit") }, t("study.quit"))),
    h("p", { class: "muted" }, t("study.keys")));
  const focus = main().querySelector("input, .order li, .choices button, .grades button, button.primary");
  if (focus) focus.focus();
}

function promptControls(screen, prompt) {
  switch (prompt.kind) {
    case "choice":
      return h("div", { class: "choices" }, screen.choices.map((choice, i) =>
        h("button", { "data-choice": i + 1, onclick: () => answer(String(i + 1)) }, h("kbd", {}, String(i + 1)), choice)),
        screen.choices.length ? null : textAnswer(false));
    case "order": return orderList(screen.choices);
    case "text": return textAnswer(screen.recall);
    case "reveal": return h("button", { class: "primary", id: "go", onclick: () => answer("") }, t("study.go") + " (space)");
    case "grade": {
      const names = ["again", "hard", "good", "easy"];
      return h("div", {},
        prompt.proposed ? h("button", { class: "primary", id: "accept", onclick: () => answer("") }, `${t("study.accept")}: ${t("study." + prompt.proposed)} (Enter)`) : null,
        h("div", { class: "grades" }, names.map((name, i) =>
          h("button", { "data-grade": name, onclick: () => answer(name) }, h("kbd", {}, String(i + 1)), t("study." + name)))));
    }
    case "yes_no":
      return h("div", { class: "row" }, h("button", { onclick: () => answer("y") }, t("study.yes") + " (y)"), h("button", { onclick: () => answer("n") }, t("study.no") + " (n)"));
    default: return textAnswer(false);
  }
}

/** A typed answer; with `recall`, each word is marked against the passage as it is typed. */
function textAnswer(recall) {
  const marks = h("div", { class: "marks", id: "marks", "aria-live": "polite" });
  const input = recall
    ? h("textarea", { id: "answer", dir: "auto", placeholder: t("study.typeHere"), autocomplete: "off", spellcheck: "false" })
    : h("input", { id: "answer", dir: "auto", placeholder: t("study.typeHere"), autocomplete: "off", spellcheck: "false" });
  let timer = null;
  if (recall) input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const result = await api("/api/session/recall", { typed: input.value }).catch(() => null);
      if (result) marks.replaceChildren(...result.words.map(word => h("span", { class: "mark-" + word.mark, "data-mark": word.mark }, word.typed + " ")));
    }, 120);
  });
  input.addEventListener("keydown", event => {
    if (event.key === "Enter" && !(recall && event.shiftKey)) { event.preventDefault(); answer(input.value); }
  });
  return h("div", {}, input, marks, h("div", { class: "row" }, h("button", { class: "primary", id: "submit", onclick: () => answer(input.value) }, t("study.submit"))));
}

/** Steps to put in order: dragged with a mouse, pen or finger, or moved with ↑ ↓ keys and buttons. */
function orderList(steps) {
  const list = h("ol", { class: "order", id: "order" });
  const move = (li, delta) => {
    const items = [...list.children]; const index = items.indexOf(li); const target = index + delta;
    if (target < 0 || target >= items.length) return;
    if (delta < 0) list.insertBefore(li, items[target]); else list.insertBefore(li, items[target].nextSibling);
    li.focus();
  };
  steps.forEach((step, i) => {
    const li = h("li", { tabindex: "0", "data-step": i + 1 }, h("span", {}, step),
      h("button", { "aria-label": t("study.moveUp"), onclick: event => { event.stopPropagation(); move(li, -1); } }, "↑"),
      h("button", { "aria-label": t("study.moveDown"), onclick: event => { event.stopPropagation(); move(li, 1); } }, "↓"));
    li.addEventListener("keydown", event => {
      if (event.key === "ArrowUp") { event.preventDefault(); event.stopPropagation(); move(li, -1); }
      if (event.key === "ArrowDown") { event.preventDefault(); event.stopPropagation(); move(li, 1); }
    });
    li.addEventListener("pointerdown", event => {
      if (event.target.closest("button")) return;
      event.preventDefault();
      li.classList.add("dragging");
      // Followed on the document: a finger's events go to whatever is under it (touch
      // pointers are captured by the element first touched), not always to the dragged step.
      const pointer = event.pointerId;
      const onMove = e => {
        if (e.pointerId !== pointer) return;
        const over = [...list.children].find(other => other !== li && e.clientY > other.getBoundingClientRect().top && e.clientY < other.getBoundingClientRect().bottom);
        if (!over) return;
        const below = [...list.children].indexOf(over) > [...list.children].indexOf(li);
        list.insertBefore(li, below ? over.nextSibling : over);
      };
      const onUp = e => {
        if (e.pointerId !== pointer) return;
        li.classList.remove("dragging");
        for (const [type, handler] of [["pointermove", onMove], ["pointerup", onUp], ["pointercancel", onUp]]) document.removeEventListener(type, handler);
      };
      for (const [type, handler] of [["pointermove", onMove], ["pointerup", onUp], ["pointercancel", onUp]]) document.addEventListener(type, handler);
    });
    list.append(li);
  });
  return h("div", {}, h("p", { class: "muted" }, t("study.orderHelp")), list,
    h("button", { class: "primary", id: "submit", onclick: () => answer([...list.children].map(li => li.dataset.step).join(" ")) }, t("study.submit")));
}

document.addEventListener("keydown", event => {
  const screen = state.screen;
  if (!location.hash.startsWith("#/study") || !screen || screen.finished || !screen.prompt) return;
  if (event.target.matches("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
  const kind = screen.prompt.kind;
  const digit = Number(event.key);
  if (kind === "choice" && digit >= 1 && digit <= screen.choices.length) answer(String(digit));
  else if (kind === "grade" && digit >= 1 && digit <= 4) answer(["again", "hard", "good", "easy"][digit - 1]);
  else if (kind === "grade" && event.key === "Enter" && screen.prompt.proposed) answer("");
  else if (kind === "reveal" && (event.key === " " || event.key === "Enter")) answer("");
  else if (kind === "yes_no" && (event.key === "y" || event.key === "n")) answer(event.key);
  else if (event.key === "u") command("undo");
  else if (event.key === "s") command("suspend");
  else if (event.key === "i") command("ignore");
  else return;
  event.preventDefault();
});

// MARK: Reader

async function showReader() {
  const text = h("textarea", { id: "reader-input", dir: "auto", "aria-label": t("reader.paste"), placeholder: t("reader.paste") });
  text.value = state.readerText || "";
  const file = h("input", { type: "file", accept: ".txt,text/plain", id: "reader-file" });
  file.addEventListener("change", async () => { if (file.files[0]) { text.value = await file.files[0].text(); read(); } });
  const rank = h("input", { type: "number", min: "0", step: "100", id: "rank-filter", value: state.rankFilter || "" });
  rank.addEventListener("input", () => { state.rankFilter = rank.value; drawTokens(); });
  const read = async () => { state.readerText = text.value; state.readerTokens = await api("/api/reader", { text: text.value }); drawTokens(); };
  render(h("h1", {}, t("reader.heading")),
    h("div", { class: "card" }, text, h("div", { class: "row" }, h("button", { class: "primary", id: "read", onclick: read }, t("reader.read")),
      h("label", { class: "button" }, t("reader.open"), " ", file),
      h("label", {}, t("reader.rankFilter") + " ", rank))),
    h("div", { class: "legend muted" }, ["new", "learning", "known", "ignored", "none"].map(s => h("span", { class: "word s-" + s }, t("status." + s)))),
    h("div", { class: "reader-layout" }, h("div", { class: "card reader-text", id: "reader-text", dir: "auto" }), h("aside", { class: "card", id: "word-panel", "aria-live": "polite" })));
  if (state.readerText) await read();
}

function drawTokens() {
  const target = document.getElementById("reader-text");
  if (!target) return;
  const limit = Number(state.rankFilter) || 0;
  target.replaceChildren(...state.readerTokens.map(token => {
    if (!token.is_word) return bidi(token.text);
    const classes = ["word", "s-" + token.status];
    if (limit && token.rank && token.rank > limit) classes.push("rare");
    return h("span", { class: classes.join(" "), tabindex: "0", role: "button", "data-status": token.status, "data-word": token.text, title: t("status." + token.status) + (token.rank ? ` · ${t("reader.rank")} ${token.rank}` : ""),
      onclick: event => showWord(token, event.currentTarget), onkeydown: event => { if (event.key === "Enter") showWord(token, event.currentTarget); } }, token.text);
  }));
}

async function showWord(token, element) {
  for (const el of document.querySelectorAll(".word.selected")) el.classList.remove("selected");
  element.classList.add("selected");
  const panel = document.getElementById("word-panel");
  const found = await api("/api/lookup?word=" + encodeURIComponent(token.text));
  // Every action is one commit; the text is marked again from the files afterwards.
  const then = async call => {
    await call;
    state.readerTokens = await api("/api/reader", { text: state.readerText }); drawTokens(); panel.replaceChildren();
  };
  const setStatus = (entry, status) => then(api("/api/entries/status", { entry, status }));
  const triage = (entry, action) => then(api("/api/entries/triage", { entry, action }));
  if (!found.length) {
    panel.replaceChildren(h("h2", {}, token.text), h("p", {}, t("reader.notInDeck")),
      h("div", { class: "row" }, h("button", { id: "ignore-word", onclick: () => then(api("/api/words/ignore", { word: token.text })) }, t("reader.ignoreEverywhere"))));
    return;
  }
  panel.replaceChildren(...found.map(word => h("div", { class: "word-detail" },
    h("h2", {}, word.lemma, " ", h("span", { class: "muted" }, word.pos)),
    h("p", {}, h("span", { lang: "ar", dir: "rtl" }, word.translation)),
    word.meaning ? h("p", {}, word.meaning) : null,
    h("p", { class: "muted" }, `${t("status." + word.status)}${word.rank ? ` · ${t("reader.rank")} ${word.rank}` : ""}${word.cefr ? " · " + word.cefr : ""}`),
    word.forms.length ? h("p", {}, h("strong", {}, t("reader.forms") + ": "), word.forms.map(f => f[1]).join(", ")) : null,
    word.examples.length ? h("div", {}, h("strong", {}, t("reader.examples")), word.examples.slice(0, 3).map(e => h("p", {}, e.en.replace(/[{}]/g, ""), h("br"), h("span", { lang: "ar", dir: "rtl" }, e.translated.replace(/[{}]/g, ""))))) : null,
    h("div", { class: "row" },
      word.status === "ignored" || word.status === "suspended"
        ? h("button", { onclick: () => setStatus(word.entry, "active") }, t("reader.activate"))
        : [word.status === "new" ? h("button", { id: "add-word", class: "primary", onclick: () => triage(word.entry, "add") }, t("reader.add")) : null,
           word.status === "new" ? h("button", { id: "known-word", onclick: () => triage(word.entry, "known") }, t("reader.known")) : null,
           h("button", { id: "ignore-word", onclick: () => setStatus(word.entry, "ignored") }, t("reader.ignore")), h("button", { onclick: () => setStatus(word.entry, "suspended") }, t("reader.suspend"))],
      h("a", { href: "#/entry/" + word.entry }, t("library.history"))))));
}

// MARK: Tracing

async function showTrace(requested) {
  state.letters = await api("/api/letters");
  // The profile's choice (`rote letters settings`) first, else this browser's.
  const leftHanded = state.letters.left_handed === true;
  const letters = state.letters.letters;
  state.letter = letters.find(l => l.id === requested || l.character === requested) || state.letter && letters.find(l => l.id === state.letter.id) || letters.find(l => l.unlocked);
  state.mode = state.mode || "trace";
  const mode = h("select", { id: "trace-mode" }, ["trace", "ghost", "memory"].map(m => h("option", { value: m }, t("trace.mode." + m))));
  mode.value = state.mode;
  mode.addEventListener("change", () => { state.mode = mode.value; drawPad(); });
  const hand = h("input", { type: "checkbox", id: "left-handed" });
  hand.checked = leftHanded;
  // The learner's setting, in their profile (`rote letters settings --left-handed`): one commit.
  hand.addEventListener("change", async () => {
    layout.classList.toggle("left-handed", hand.checked);
    const saved = await api("/api/letters/settings", { left_handed: hand.checked });
    state.letters.left_handed = saved.left_handed;
  });
  const layout = h("div", { class: "trace-layout" + (leftHanded ? " left-handed" : "") },
    h("div", { class: "trace-controls" },
      h("div", { class: "letters" }, letters.map(letter => h("button", {
        class: (letter.unlocked ? "" : "locked ") + (letter === state.letter ? "chosen" : ""), disabled: !letter.unlocked, "data-letter": letter.id,
        title: letter.unlocked ? `${letter.name} · ${t("trace.best")} ${letter.best ?? "—"} · ${letter.passes_done}/${state.letters.passes} ${t("trace.passes")}` : t("trace.locked"),
        onclick: () => { location.hash = "#/trace/" + letter.id; } }, letter.character))),
      h("p", {}, h("label", {}, t("trace.mode") + " ", mode)),
      h("p", {}, h("label", {}, hand, " " + t("trace.leftHanded"))),
      h("div", { class: "row" }, h("button", { id: "trace-clear", onclick: () => { state.strokes = []; state.started = null; drawPad(); } }, t("trace.clear")),
        h("button", { class: "primary", id: "trace-done", onclick: submitTrace }, t("trace.done"))),
      h("div", { id: "trace-result", "aria-live": "polite" })),
    h("div", {}, h("div", { class: "pad", id: "pad", "aria-label": t("trace.drawHere"), role: "img" })));
  render(h("h1", {}, t("trace.heading") + (state.letter ? " — " + state.letter.character : "")), layout);
  state.strokes = []; state.started = null;
  drawPad();
  attachPad(document.getElementById("pad"));
}

function drawPad() {
  const pad = document.getElementById("pad");
  if (!pad || !state.letter) return;
  const drawn = state.strokes.map(stroke => h("polyline", { class: "drawn", points: stroke.map(p => p[0] + "," + p[1]).join(" "), fill: "none", stroke: "#1d2430", "stroke-width": 2.2, "stroke-linecap": "round", "stroke-linejoin": "round" }));
  pad.replaceChildren(letterTemplate(state.letter.strokes, state.mode, drawn));
}

/** A letter's strokes in the 100×100 box on the handwriting lines: numbered, with each start
 * marked, in trace mode; faint in ghost mode; blank in memory mode. */
function letterTemplate(strokes, mode, drawn = []) {
  const guides = [10, 40, 80].map(y => h("line", { x1: 0, x2: 100, y1: y, y2: y, stroke: "#e4e1da", "stroke-width": 0.5 }));
  const opacity = { trace: 1, ghost: 0.18, memory: 0 }[mode];
  const template = strokes.map((stroke, i) => h("g", { opacity },
    h("polyline", { points: stroke.map(p => p[0] + "," + p[1]).join(" "), fill: "none", stroke: "#9fb8b0", "stroke-width": 6, "stroke-linecap": "round", "stroke-linejoin": "round" }),
    mode !== "memory" ? h("circle", { cx: stroke[0][0], cy: stroke[0][1], r: 2.5, fill: "#1e7b3a" }) : null,
    mode === "trace" ? h("text", { x: stroke[0][0] + 3, y: stroke[0][1] - 3 }, String(i + 1)) : null));
  return h("svg", { viewBox: "0 0 100 100", "aria-hidden": "true" }, guides, template, drawn);
}

/** Pointer events (mouse, pen, touch) become strokes of [x, y, t] in the 100×100 box. */
function attachPad(pad) {
  let current = null;
  const point = event => {
    const box = pad.getBoundingClientRect();
    if (!state.started) state.started = new Date();
    return [Math.round((event.clientX - box.left) / box.width * 1000) / 10, Math.round((event.clientY - box.top) / box.height * 1000) / 10, Date.now() - state.started.getTime()];
  };
  pad.addEventListener("pointerdown", event => { event.preventDefault(); pad.setPointerCapture(event.pointerId); current = [point(event)]; state.strokes.push(current); drawPad(); });
  pad.addEventListener("pointermove", event => {
    if (!current) return;
    for (const e of event.getCoalescedEvents ? event.getCoalescedEvents() : [event]) current.push(point(e));
    drawPad();
  });
  const end = () => { current = null; };
  pad.addEventListener("pointerup", end); pad.addEventListener("pointercancel", end);
}

async function submitTrace() {
  if (!state.letter || !state.strokes.length) return;
  const result = document.getElementById("trace-result");
  const now = new Date();
  try {
    const score = await api("/api/letters/attempts", {
      letter: state.letter.id, mode: state.mode, drawing: state.strokes,
      started_at: (state.started || now).toISOString().replace(/\.\d+Z$/, "Z"), completed_at: now.toISOString().replace(/\.\d+Z$/, "Z") });
    // Haptics (`rote letters settings --haptics`): one short pulse for a pass, three for a miss.
    if (state.letters.haptics && navigator.vibrate) navigator.vibrate(score.score >= state.letters.pass_score ? 40 : [40, 60, 40, 60, 40]);
    result.replaceChildren(h("div", { class: "card" },
      h("div", { class: "big", id: "trace-score" }, String(score.score)),
      h("div", { class: "scores" }, [["trace.start", score.start], ["trace.direction", score.direction], ["trace.strokeOrder", score.stroke_order], ["trace.shape", score.shape]]
        .map(([key, value]) => h("div", {}, h("strong", {}, String(value)), h("br"), t(key)))),
      h("ul", { id: "trace-tips" }, score.tips.map(tip => h("li", { "data-tip": tip }, t("tip." + tip)))),
      score.unlocked.length ? h("p", {}, t("trace.unlocked") + ": " + score.unlocked.join(", ")) : null,
      h("p", { class: "muted", id: "trace-file" }, `${t("trace.saved")} ${score.file}`)));
    state.strokes = []; state.started = null; drawPad();
  } catch (error) { result.replaceChildren(h("p", { class: "error" }, error.message)); }
}

// MARK: Stats

async function showStats() {
  const stats = await api("/api/stats");
  const shades = ["#ebe8e1", "#c6e0d6", "#8cc2ad", "#4f9a80", "#2f6f5e"];
  const days = stats.heat_levels.length, columns = Math.ceil(days / 7);
  const heatmap = h("svg", { viewBox: `0 0 ${columns * 12} ${7 * 12}`, id: "heatmap", role: "img", "aria-label": t("stats.heatmap") },
    stats.heat_levels.map((level, i) => h("rect", { x: Math.floor(i / 7) * 12, y: (i % 7) * 12, width: 10, height: 10, rx: 2, fill: shades[level] },
      h("title", {}, `${stats.reviews_per_day[i]} ${t("today.reviews")}`))));
  const most = Math.max(1, ...stats.forecast);
  const forecast = h("svg", { viewBox: `0 0 ${stats.forecast.length * 10} 70`, id: "forecast", role: "img", "aria-label": t("stats.forecast") },
    stats.forecast.map((count, i) => h("rect", { x: i * 10 + 1, y: 60 - count / most * 55, width: 8, height: Math.max(0.5, count / most * 55), fill: i === 0 ? "#b86e00" : "#2f6f5e" },
      h("title", {}, `+${i}: ${count}`))),
    h("text", { x: 0, y: 69 }, "0"), h("text", { x: stats.forecast.length * 10 - 12, y: 69 }, String(stats.forecast.length - 1)));
  const retention = stats.retention_achieved === null || stats.retention_achieved === undefined
    ? h("p", {}, t("stats.noRetention"))
    : h("p", {}, h("span", { class: "big" }, Math.round(stats.retention_achieved * 100) + "%"), ` (${stats.retention_reviews} ${t("today.reviews")}) · ${t("stats.desired")} ${Math.round(stats.retention_desired * 100)}%`);
  render(h("h1", {}, t("stats.heading")),
    h("div", { class: "grid" },
      h("div", { class: "card" }, h("div", { class: "big" }, String(stats.due_today)), t("stats.dueToday")),
      h("div", { class: "card" }, h("div", { class: "big" }, String(stats.current_streak)), t("stats.streak")),
      h("div", { class: "card" }, h("div", { class: "big" }, String(stats.longest_streak)), t("stats.longest"))),
    h("div", { class: "card" }, h("h2", {}, t("stats.heatmap")), heatmap),
    h("div", { class: "card" }, h("h2", {}, t("stats.retention")), retention),
    h("div", { class: "card" }, h("h2", {}, t("stats.forecast")), forecast),
    h("div", { class: "card" }, h("h2", {}, t("stats.mastery")), h("table", {}, stats.mastery.map(deck =>
      h("tr", {}, h("th", {}, deck.deck), deck.levels.map(level => h("td", {}, `${level.level.replace("_", " ")} ${level.count}`)))))));
}

// MARK: Library

async function showLibrary() {
  const decks = await api("/api/decks");
  const deck = h("select", { id: "deck-filter" }, h("option", { value: "" }, t("library.all")), decks.map(d => h("option", { value: d.name }, d.title)));
  deck.value = state.deckFilter || "";
  const search = h("input", { type: "search", id: "search", placeholder: t("library.search"), value: state.search || "" });
  const list = h("div", { class: "entries", id: "entries" });
  let offset = 0;
  const load = async (more) => {
    offset = more ? offset + 50 : 0;
    state.deckFilter = deck.value; state.search = search.value;
    const found = await api(`/api/entries?deck=${encodeURIComponent(deck.value)}&q=${encodeURIComponent(search.value)}&offset=${offset}&limit=50`);
    const rows = found.entries.map(entry => h("tr", {}, h("td", {}, h("a", { href: "#/entry/" + entry.id }, entry.id)), h("td", {}, entry.gloss), h("td", { class: "muted" }, t("status." + entry.status))));
    if (!more) list.replaceChildren(h("p", { class: "muted" }, `${found.total} ${t("library.entries")}`), h("table", {}, h("tbody", {}, rows)));
    else list.querySelector("tbody").append(...rows);
    list.querySelector("#more")?.remove();
    if (offset + 50 < found.total) list.append(h("button", { id: "more", onclick: () => load(true) }, t("library.more")));
  };
  let timer = null;
  search.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => load(false), 150); });
  deck.addEventListener("change", () => load(false));
  render(h("h1", {}, t("library.heading")),
    h("div", { class: "grid" }, decks.map(d => h("div", { class: "card" }, h("strong", {}, d.title), h("div", { class: "muted" }, `${d.name} · ${d.kind}`), h("p", {}, d.description)))),
    h("div", { class: "row" }, deck, search), list);
  await load(false);
}

async function showEntry(id) {
  const entry = await api("/api/entry?id=" + encodeURIComponent(id));
  render(h("h1", {}, entry.gloss), h("p", { class: "muted" }, `${entry.id} · ${entry.kind} · ${t("status." + entry.status)}` + (entry.due ? ` · ${t("library.due")} ${entry.due.slice(0, 10)}` : "") + (entry.ladder ? ` · ${entry.ladder}` : "")),
    h("div", { class: "card" }, h("h2", {}, t("library.reviews")), entry.reviews.length
      ? h("table", { id: "reviews" }, entry.reviews.map(r => h("tr", {}, h("td", {}, r.at.replace("T", " ").replace("Z", "")), h("td", {}, r.grade), h("td", {}, r.ms ? r.ms + " ms" : ""), h("td", { class: "muted" }, r.device || ""))))
      : h("p", { class: "muted" }, t("library.noReviews"))),
    h("div", { class: "card" }, h("h2", {}, t("library.commits")), h("table", { id: "commits" }, entry.commits.map(c => h("tr", {}, h("td", {}, h("code", {}, c.id.slice(0, 10))), h("td", {}, c.date.slice(0, 10)), h("td", {}, c.touched.join("+")), h("td", {}, c.summary))))),
    h("div", { class: "card" }, h("h2", {}, t("library.file")), h("pre", { class: "file", dir: "auto" }, entry.file)));
}

// MARK: Start

window.addEventListener("hashchange", async () => {
  // The printed address opened again in this tab, after a restart of `rote serve` on the same
  // port: only its fragment differs, so the page is not loaded again and takes the new token here.
  if (location.hash.startsWith("#token=")) {
    takeToken();
    try { await loadStrings(localStorage.getItem("rote.lang")); } catch (error) { showError(error); return; }
  }
  route();
});
window.addEventListener("DOMContentLoaded", async () => {
  document.getElementById("language").addEventListener("change", async event => {
    localStorage.setItem("rote.lang", event.target.value);
    if (!sessionStorage.getItem(tokenKey)) { await loadShellStrings(); showNoToken(); return; }
    await loadStrings(event.target.value); route();
  });
  if (!takeToken()) { await loadShellStrings(); showNoToken(); return; }
  try { await loadStrings(localStorage.getItem("rote.lang")); } catch (error) {
    if (tokenRefused(error)) await loadShellStrings();
    showError(error); return;
  }
  route();
});
