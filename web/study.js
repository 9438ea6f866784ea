// The Study page: the open session's screen as the server gives it (docs/web.md), and the
// learner's reply. The session itself — what is asked, how it is graded — is the server's.
import { api } from "./api.js";
import { h, iso, main, num, render, t } from "./dom.js";
import { letterTemplate } from "./letters.js";
import { state } from "./state.js";

export async function startSession(decks) {
  state.screen = await api("/api/session", { decks });
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

/** A button's words and the key that does the same, the key in its own isolate so its
 *  brackets stay with it in a right-to-left page. */
const withKey = (words, key) => [words, " ", h("kbd", { class: "key" }, iso(key))];

function drawScreen() {
  const screen = state.screen;
  if (!screen) return;
  if (screen.finished) {
    render(h("h1", {}, t("study.finished")), h("div", { class: "card", id: "summary" }, screen.error ? h("p", { class: "error" }, iso(screen.error)) : null,
      (screen.summary || "").split("\n").map(line => h("p", { dir: "auto" }, line))),
      h("button", { class: "primary", onclick: () => { location.hash = "#/today"; } }, t("study.back")));
    return;
  }
  const prompt = screen.prompt;
  const card = h("div", { class: "card", id: "card" },
    // The card's place in the session; the screen's title (the deck's id and the entry's
    // state) is the terminal's, not the learner's, and stays off the page.
    h("div", { class: "muted", id: "progress" }, screen.total ? t("study.progress", { number: num(screen.number), total: num(screen.total) }) : null),
    h("div", { class: "lines" }, screen.lines.map(line => h("div", { class: "line " + line.style, dir: "auto" }, line.text))),
    screen.letter ? h("div", { class: "pad letter-template", id: "letter-template", role: "img", "aria-label": screen.title }, letterTemplate(screen.letter, "trace")) : null);
  // A prompt is the terminal's ("space or Enter to go on", "(y/n)"): where the controls say
  // what to do, they alone show; a typed answer keeps its instruction ("the 2 missing words").
  if (prompt && prompt.kind === "text") card.append(h("div", { class: "muted prompt", dir: "auto" }, prompt.text));
  if (prompt) card.append(promptControls(screen, prompt));
  render(h("h1", {}, t("study.heading")), card,
    h("div", { class: "row commands" },
      h("button", { onclick: () => command("undo") }, withKey(t("study.undo"), "u")),
      h("button", { onclick: () => command("suspend") }, withKey(t("study.suspend"), "s")),
      h("button", { onclick: () => command("ignore") }, withKey(t("study.ignore"), "i")),
      h("button", { id: "quit", onclick: () => command("quit") }, t("study.quit"))),
    h("p", { class: "muted keys-help" }, t("study.keys")));
  const focus = main().querySelector("input, .order li, .choices button, .grades button, button.primary");
  if (focus) focus.focus({ preventScroll: true });
}

function promptControls(screen, prompt) {
  switch (prompt.kind) {
    case "choice":
      return h("div", { class: "choices" }, screen.choices.map((choice, i) =>
        h("button", { "data-choice": i + 1, onclick: () => answer(String(i + 1)) }, h("kbd", {}, String(i + 1)), iso(choice))),
        screen.choices.length ? null : textAnswer(false));
    case "order": return orderList(screen.choices);
    case "text": return textAnswer(screen.recall);
    case "reveal": return h("button", { class: "primary", id: "go", onclick: () => answer("") }, withKey(t("study.go"), t("key.space")));
    case "grade": {
      const names = ["again", "hard", "good", "easy"];
      return h("div", {},
        prompt.proposed ? h("button", { class: "primary", id: "accept", onclick: () => answer("") }, withKey(`${t("study.accept")}: ${t("study." + prompt.proposed)}`, t("key.enter"))) : null,
        h("div", { class: "grades" }, names.map((name, i) =>
          h("button", { "data-grade": name, onclick: () => answer(name) }, h("kbd", {}, String(i + 1)), t("study." + name)))));
    }
    case "yes_no":
      return h("div", { class: "row" }, h("button", { onclick: () => answer("y") }, withKey(t("study.yes"), "y")), h("button", { onclick: () => answer("n") }, withKey(t("study.no"), "n")));
    default: return textAnswer(false);
  }
}

/** A typed answer; with `recall`, each word is marked against the passage as it is typed. */
function textAnswer(recall) {
  const marks = h("div", { class: "marks", id: "marks", "aria-live": "polite", dir: "auto" });
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
    const li = h("li", { tabindex: "0", "data-step": i + 1 }, h("span", { dir: "auto" }, step),
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
