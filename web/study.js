// The Study page: the open session's screen as the server gives it (docs/web.md, "A study
// session"), drawn in the page's language, and one request per action. What is asked and how
// it is graded is the session's (`StudySession`); this page only draws its screens.
import { api } from "./api.js";
import { h, iso, main, num, render, t, tMaybe, tn, ui } from "./dom.js";
import { letterTemplate } from "./letters.js";
import { mediaBlock, playMedia } from "./media.js";
import { state } from "./state.js";

/** Starts a session of `decks` (all when empty); `options` asks for practice or review ahead
 *  (`{practice: {forgotten_today?, due_within_days?}}`, `{review_ahead: days}`; docs/web.md). */
export async function startSession(decks, options = {}) {
  state.screen = await api("/api/session", { decks, ...options });
  location.hash = "#/study";
  if (location.hash === "#/study") drawScreen();
}

export async function showStudy() {
  try { state.screen = await api("/api/session"); } catch (error) {
    if (error.code !== "no_session") throw error;
    render(h("h1", {}, t("study.heading")), h("p", {}, t("study.none")), h("button", { class: "primary", onclick: () => startSession([]) }, t("study.start")));
    return;
  }
  drawScreen();
}

/** Sends one action (`StudyAction`'s JSON) for the screen on show; a stale screen is fetched again. */
async function act(action) {
  if (!state.screen || state.busy) return;
  state.busy = true;
  try { state.screen = await api("/api/session/reply", { action, version: state.screen.version }); }
  catch (error) { if (error.code !== "stale") throw error; state.screen = await api("/api/session"); }
  finally { state.busy = false; }
  drawScreen();
}
const proceed = () => act({ proceed: true });
const command = name => act({ command: name });
const grade = name => act({ grade: name });

/** A button's words and the key that does the same, the key in its own isolate so its
 *  brackets stay with it in a right-to-left page. */
const withKey = (words, key) => [words, " ", h("kbd", { class: "key" }, iso(key))];
const grades = ["again", "hard", "good", "easy"];

/** "in 3 days", "in 10 minutes", in the page's language. */
function relative(when) {
  const seconds = (new Date(when).getTime() - Date.now()) / 1000;
  const format = new Intl.RelativeTimeFormat(ui.lang, { numeric: "auto" });
  if (seconds <= 60) return format.format(0, "minute");
  if (seconds < 3600) return format.format(Math.round(seconds / 60), "minute");
  if (seconds < 86400) return format.format(Math.round(seconds / 3600), "hour");
  return format.format(Math.round(seconds / 86400), "day");
}

/** The text for a count, in the plural form the page's language takes (`key.one`, `key.other`…). */
function noticeText(notice) {
  switch (notice.kind) {
    case "graded": return t("notice.graded", { grade: t("study." + notice.grade) }) + (notice.next ? " · " + t("notice.next", { when: relative(notice.next) }) : "");
    case "step_back": return t("notice.step_back", { level: t("ladder." + notice.level) });
    case "skipped": return [t("notice.skipped"), " ", iso(notice.reason)];
    default: return withName(t("notice." + notice.kind));
  }
}

function drawScreen() {
  /** @type {import("./api.js").Screen} */
  const screen = state.screen;
  if (!screen) return;
  if (screen.kind === "summary") return drawSummary(screen);
  const bar = screen.planned ? h("div", { id: "progress", class: "session-progress" },
    // A native bar: its length is the value, with no inline style (the page's CSP allows none).
    h("progress", { max: String(screen.planned), value: String(screen.answered) }),
    h("span", { class: "muted small" }, t("study.progressDone", { answered: num(screen.answered), planned: num(screen.planned) }),
      screen.visit ? [" · ", t("study.visit." + screen.visit)] : null)) : null;
  const notices = screen.notices.length ? h("div", { id: "notices", class: "notices", "aria-live": "polite" },
    screen.notices.map(notice => h("p", { class: "muted small notice", "data-notice": notice.kind }, noticeText(notice)))) : null;
  const card = h("div", { class: "card", id: "card", "data-kind": screen.kind }, bar, notices, screen.media ? mediaBlock(screen.media) : null, ...content(screen));
  const practice = screen.practice ? h("p", { id: "practice-note", class: "notice" }, t("study.practiceNote")) : null;
  render(h("h1", {}, t(screen.practice ? "study.practiceHeading" : "study.heading")), practice, card,
    h("div", { class: "row commands" },
      h("button", { onclick: () => command("undo") }, withKey(t("study.undo"), "u")),
      h("button", { onclick: () => command("suspend") }, withKey(t("study.suspend"), "s")),
      h("button", { onclick: () => command("ignore") }, withKey(t("study.ignore"), "i")),
      h("button", { id: "quit", onclick: () => command("quit") }, t("study.quit"))),
    h("p", { class: "muted keys-help" }, t("study.keys")));
  // The screen's one way on takes the focus, never a choice: Enter or space on a focused
  // choice would answer for the learner.
  const focus = main().querySelector("#card input, #card textarea, .order li, #accept, #go");
  if (focus) focus.focus({ preventScroll: true });
}

/** The screen's own part, by its kind. */
function content(screen) {
  switch (screen.kind) {
    case "card": return [wordCard(screen.card), goButton()];
    case "question": return question(screen.question);
    case "feedback": return feedback(screen.feedback);
    case "grade_choice": return gradeChoice(screen.grade_choice);
    case "passage": return passage(screen.passage);
    case "reflection": return reflection(screen.reflection);
    case "consent": return consent(screen.consent);
    case "letter": return [h("p", { class: "instruction" }, t("letter.write", { name: "" }), h("span", { class: "letter-name" }, iso(screen.letter.character || screen.letter.name))),
      h("button", { class: "primary", id: "go", onclick: proceed }, withKey(t("letter.reveal"), t("key.space")))];
    case "leech": return screen.leech.suspended
      ? [h("p", { class: "wrong", id: "leech-suspended" }, tn("leech.suspended", screen.leech.lapses)),
        h("button", { class: "primary", id: "go", onclick: proceed }, withKey(t("study.go"), t("key.space")))]
      : [h("p", { class: "wrong" }, tn("leech.text", screen.leech.lapses)),
      h("div", { class: "row" }, h("button", { class: "primary", id: "go", onclick: proceed }, withKey(t("study.go"), t("key.space"))),
        h("button", { id: "leech-suspend", onclick: () => command("suspend") }, withKey(t("study.suspend"), "s")))];
    default: return [];
  }
}

const goButton = () => h("button", { class: "primary", id: "go", onclick: proceed }, withKey(t("study.go"), t("key.space")));

/** A sentence with its `{marked}` word emphasised. */
function marked(sentence) {
  const match = /\{([^}]*)\}/.exec(sentence);
  if (!match) return [sentence];
  return [sentence.slice(0, match.index), h("strong", {}, match[1]), sentence.slice(match.index + match[0].length).replaceAll(/[{}]/g, "")];
}

/** A new word's card: the word, its translation, meanings, forms and examples. */
function wordCard(card) {
  const forms = [...new Set(card.forms.map(form => form.value))];
  return h("div", { class: "word-card", id: "word-card" },
    h("p", { class: "word-head" }, h("span", { class: "headword", lang: "en", dir: "ltr" }, card.word),
      card.ipa ? [" ", h("span", { class: "muted", dir: "ltr" }, card.ipa)] : null, " ", h("span", { class: "muted small", lang: "en" }, iso(card.pos))),
    h("p", { class: "translation" }, iso(card.translation),
      card.alternatives.length ? h("span", { class: "muted" }, " (", t("card.also"), " ", iso(card.alternatives.join("، ")), ")") : null),
    card.definitions.map(definition => h("p", { class: "definition", lang: definition.language, dir: "auto" }, definition.text)),
    forms.length > 1 ? h("p", { class: "muted small" }, t("card.forms"), " ", iso(forms.join(" · "), { lang: "en" })) : null,
    card.usage_notes ? h("p", { class: "small note" }, h("strong", {}, t("card.note")), " ", iso(card.usage_notes)) : null,
    card.examples.length ? h("ul", { class: "examples" }, card.examples.map(example => h("li", {},
      h("div", { lang: "en", dir: "ltr" }, marked(example.en)),
      h("div", { class: "muted", dir: "auto" }, marked(example.translated))))) : null,
    card.more_examples.length ? h("p", { class: "muted small" }, tn("card.more", card.more_examples.length)) : null);
}

function question(q) {
  const parts = [];
  if (q.kind === "order") {
    parts.push(h("p", { class: "instruction" }, q.prompt ? iso(q.prompt) : t("question.order")));
    parts.push(orderList(q.choices));
    return parts;
  }
  if (q.kind !== "choice") parts.push(h("p", { class: "muted instruction" }, t("question." + q.kind)));
  parts.push(h("p", { class: "prompt-text", id: "prompt-text" }, iso(q.prompt || "")));
  if (q.typed) {
    if (q.hint) parts.push(h("p", { class: "muted small" }, t("question.hint"), " ", iso(q.hint)));
    parts.push(textAnswer({ recall: false, onSubmit: text => act({ type: text }) }));
    return parts;
  }
  parts.push(h("div", { class: "choices" }, q.choices.map((choice, i) =>
    h("button", { "data-choice": i + 1, onclick: () => act({ choose: i }) }, h("kbd", {}, num(i + 1)), iso(choice)))));
  return parts;
}

function feedback(f) {
  const verdict = f.similarity !== undefined && f.similarity !== null
    ? [t("feedback.similarity", { percent: num(f.similarity, { style: "percent" }) }), f.hints ? " " + tn("feedback.hints", f.hints) : ""]
    : f.nearly ? [t("feedback.nearly"), " ", iso(f.expected)]
    : f.correct ? [t("feedback.correct")]
    : [t("feedback.wrong")];
  const parts = [h("p", { id: "feedback", class: "verdict " + (f.correct ? "correct" : "wrong"), "data-correct": String(f.correct) }, f.correct ? "✓ " : "✗ ", verdict)];
  if (f.expected && !f.nearly) parts.push(h("div", { class: "expected" }, h("span", { class: "muted" }, t("feedback.expected")), " ", iso(f.expected, { class: "expected-text" })));
  if (f.explanation) parts.push(h("p", { class: "muted explanation" }, iso(f.explanation)));
  if (f.proposed) parts.push(gradeControls(f.proposed));
  else parts.push(goButton());
  return parts;
}

/** The grade buttons; with a proposed grade, the button that accepts it first. */
function gradeControls(proposed) {
  return h("div", { class: "grade-choice" },
    proposed ? h("button", { class: "primary", id: "accept", onclick: proceed }, withKey(`${t("study.accept")}: ${t("study." + proposed)}`, t("key.enter"))) : null,
    h("div", { class: "grades" }, grades.map((name, i) =>
      h("button", { "data-grade": name, onclick: () => grade(name) }, h("kbd", {}, num(i + 1)), t("study." + name)))));
}

function gradeChoice(choice) {
  const parts = [];
  if (choice.letter) {
    parts.push(h("p", { class: "instruction" }, t("grade.letter")));
    parts.push(h("div", { class: "pad letter-template", id: "letter-template", role: "img", "aria-label": choice.letter.character || choice.letter.name }, letterTemplate(choice.letter.strokes, "trace")));
    if (choice.letter.tips.length) parts.push(h("ul", { class: "tips small" }, choice.letter.tips.map(tip => h("li", {}, tMaybe("letterTip." + tip.id) ?? tip.text))));
  } else {
    parts.push(h("p", { class: "instruction" }, t("grade.choose")));
  }
  parts.push(gradeControls(choice.proposed));
  return parts;
}

function passage(rung) {
  const reference = rung.reference;
  switch (rung.step) {
    case "read":
    case "read_again":
      return [h("p", { class: "instruction" }, t("passage." + rung.step, { reference })), h("p", { class: "passage-text", dir: "auto" }, rung.text),
        h("button", { class: "primary", id: "go", onclick: proceed }, withKey(t("passage.readDone"), t("key.space")))];
    case "cloze":
      return [h("p", { class: "instruction" }, t("passage." + rung.level, { reference })), h("p", { class: "passage-text", dir: "auto" }, rung.text),
        h("p", { class: "muted small" }, tn("passage.blanks", rung.blanks)),
        textAnswer({ recall: false, onSubmit: text => act({ type: text }) })];
    case "recite": {
      const hint = rung.at_end ? t("passage.atEnd") : rung.hint_words.length ? [t("passage.nextWord"), " ", iso(rung.hint_words[rung.hint_words.length - 1])] : null;
      return [h("p", { class: "instruction" }, t("passage.recite", { reference })),
        hint ? h("p", { class: "muted hint", id: "hint-word" }, hint) : null,
        textAnswer({ recall: true, initial: rung.typed, onSubmit: text => act({ type: text }), onHint: text => act({ hint: text }) })];
    }
    case "recall":
      return [h("p", { class: "instruction" }, t("passage.recall", { reference })), textAnswer({ recall: true, onSubmit: text => act({ type: text }) })];
    default: return [];
  }
}

function reflection(r) {
  return [h("p", { class: "instruction" }, t("reflection.ask", { reference: r.reference })), h("p", { class: "passage-text", dir: "auto" }, r.text),
    r.saved ? null : h("p", { class: "muted small" }, t("reflection.notKept")),
    textAnswer({ recall: false, multiline: true, onSubmit: text => act({ type: text }) }),
    h("button", { id: "skip", onclick: () => act({ type: "" }) }, t("reflection.skip"))];
}

/** Text naming the app, its name kept apart as a name in either direction. */
const withName = text => text.split("Rote").flatMap((part, i) => i ? [h("bdi", { lang: "en" }, "Rote"), part] : [part]);

function consent(c) {
  return [h("p", { class: "consent-text" }, withName(t("consent." + c.topic))), h("p", { class: "instruction" }, t("consent." + c.topic + ".ask")),
    h("div", { class: "row" }, h("button", { id: "yes", onclick: () => act({ consent: true }) }, withKey(t("study.yes"), "y")),
      h("button", { id: "no", onclick: () => act({ consent: false }) }, withKey(t("study.no"), "n")))];
}

function drawSummary(screen) {
  const s = screen.summary;
  const lines = [];
  if (screen.nothing_to_study) {
    lines.push(t("summary.nothingToStudy"));
    if (screen.reviewed_today) lines.push(tn("summary.reviewedToday", screen.reviewed_today));
  } else if (!s.saved) {
    lines.push(t("summary.nothingSaved"));
  } else {
    lines.push(tn("summary.saved", s.reviews));
    lines.push(grades.map(name => `${t("study." + name)} ${num(s[name])}`).join(" · "));
    lines.push(tn("summary.new", s.new));
    if (s.passages_practised) lines.push(tn("summary.passages", s.passages_practised));
    lines.push(t("summary.answers", { correct: num(s.correct_answers), answers: num(s.answers) }));
    lines.push(t("summary.time", { minutes: num(Math.floor(s.seconds / 60)), seconds: num(s.seconds % 60) }));
    if (s.next_due) lines.push(t("summary.nextDue", { when: relative(s.next_due) }));
    if (s.status_changes) lines.push(tn("summary.statusChanges", s.status_changes));
  }
  if (s.passages_left_out) lines.push(withName(t("notice.passages_left_out")));
  // Takes the saved session back (`rote undo`): one new commit, its entries due as before.
  const undo = s.saved && s.session ? h("button", { id: "undo-session", onclick: async () => {
    undo.disabled = true;
    const result = await api("/api/session/undo", { session: s.session }).catch(() => null);
    undo.replaceWith(h("p", { id: "session-undone" }, result ? tn("summary.undone", result.reviews) : t("summary.undoRefused")));
  } }, t("summary.undo")) : null;
  render(h("h1", {}, t("study.finished")),
    h("div", { class: "card", id: "summary" }, screen.notices.map(notice => h("p", { class: "muted small notice" }, noticeText(notice))), lines.map(line => h("p", {}, line))),
    h("div", { class: "row" }, h("button", { class: "primary", onclick: () => { location.hash = "#/today"; } }, t("study.back")), undo));
}

/** A typed answer; with `recall`, each word is marked against the passage as it is typed,
 *  and with `onHint` a button asks for the next word. */
function textAnswer({ recall, multiline = false, initial = "", onSubmit, onHint }) {
  const marks = h("div", { class: "marks", id: "marks", "aria-live": "polite", dir: "auto" });
  const attrs = { id: "answer", dir: "auto", placeholder: t("study.typeHere"), autocomplete: "off", spellcheck: "false" };
  const input = recall || multiline ? h("textarea", attrs) : h("input", attrs);
  input.value = initial;
  let timer = null;
  const mark = async () => {
    const result = await api("/api/session/recall", { typed: input.value }).catch(() => null);
    if (result) marks.replaceChildren(...result.words.map(word => h("span", { class: "mark-" + word.mark, "data-mark": word.mark }, word.typed + " ")));
  };
  if (recall) {
    input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(mark, 120); });
    if (initial) setTimeout(mark, 0);
  }
  input.addEventListener("keydown", event => {
    if (event.key === "Enter" && !((recall || multiline) && event.shiftKey)) { event.preventDefault(); onSubmit(input.value); }
  });
  return h("div", {}, input, recall ? marks : null, h("div", { class: "row" },
    h("button", { class: "primary", id: "submit", onclick: () => onSubmit(input.value) }, t("study.submit")),
    onHint ? h("button", { id: "hint", onclick: () => onHint(input.value) }, t("passage.hint")) : null));
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
    const li = h("li", { tabindex: "0", "data-step": i }, h("span", { dir: "auto" }, step),
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
    h("button", { class: "primary", id: "submit", onclick: () => act({ order: [...list.children].map(li => Number(li.dataset.step)) }) }, t("study.submit")));
}

/** The keys `rote study` takes, for the screen on show. */
function keyAction(screen, key) {
  const digit = Number(key);
  const go = key === " " || key === "Enter";
  switch (screen.kind) {
    case "card": case "letter": return go ? { proceed: true } : null;
    case "question": return !screen.question.typed && screen.question.kind !== "order" && digit >= 1 && digit <= screen.question.choices.length ? { choose: digit - 1 } : null;
    case "feedback":
      if (screen.feedback.proposed && digit >= 1 && digit <= 4) return { grade: grades[digit - 1] };
      return go ? { proceed: true } : null;
    case "grade_choice":
      if (digit >= 1 && digit <= 4) return { grade: grades[digit - 1] };
      return key === "Enter" && screen.grade_choice.proposed ? { proceed: true } : null;
    case "passage": return go && (screen.passage.step === "read" || screen.passage.step === "read_again") ? { proceed: true } : null;
    case "consent": return key === "y" ? { consent: true } : key === "n" ? { consent: false } : null;
    case "leech": return go ? { proceed: true } : null;
    default: return null;
  }
}

document.addEventListener("keydown", event => {
  const screen = state.screen;
  if (!location.hash.startsWith("#/study") || !screen || screen.kind === "summary") return;
  if (event.target.matches("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
  // A focused button takes Enter and space itself.
  if ((event.key === "Enter" || event.key === " ") && event.target.matches("button")) return;
  const action = keyAction(screen, event.key);
  if (action) act(action);
  else if (event.key === "p" && screen.media) playMedia(screen.media);
  else if (event.key === "u") command("undo");
  else if (event.key === "s") command("suspend");
  else if (event.key === "i") command("ignore");
  else return;
  event.preventDefault();
});
