// The Tracing page: a letter of the letters deck drawn with a mouse, pen or finger, scored by
// the server (`LetterTracing`) and recorded as `rote letters record` records it.
import { api } from "./api.js";
import { h, iso, num, render, t, tMaybe } from "./dom.js";
import { drawnStrokes, letterTemplate } from "./letters.js";
import { state } from "./state.js";

export async function showTrace(requested) {
  state.letters = await api("/api/letters");
  // The profile's choice (`rote letters settings`).
  const leftHanded = state.letters.left_handed === true;
  const letters = state.letters.letters;
  state.letter = letters.find(l => l.id === requested || l.character === requested) || state.letter && letters.find(l => l.id === state.letter.id) || letters.find(l => l.unlocked);
  const mode = h("select", { id: "trace-mode" }, ["trace", "ghost", "memory"].map(m => h("option", { value: m }, t("trace.mode." + m))));
  mode.value = state.mode;
  mode.addEventListener("change", () => { state.mode = mode.value; clear(); });
  const hand = h("input", { type: "checkbox", id: "left-handed" });
  hand.checked = leftHanded;
  // The learner's setting, in their profile (`rote letters settings --left-handed`): one commit.
  hand.addEventListener("change", async () => {
    layout.classList.toggle("left-handed", hand.checked);
    const saved = await api("/api/letters/settings", { left_handed: hand.checked });
    state.letters.left_handed = saved.left_handed;
  });
  // On a phone the pad comes first (CSS order), so the letter is drawn without scrolling
  // past the whole alphabet; the letters follow it.
  const layout = h("div", { class: "trace-layout" + (leftHanded ? " left-handed" : "") },
    h("div", { class: "trace-controls" },
      h("div", { class: "letters" }, letters.map(letter => h("button", {
        class: (letter.unlocked ? "" : "locked ") + (letter === state.letter ? "chosen" : ""), disabled: !letter.unlocked, "data-letter": letter.id,
        "aria-label": letter.unlocked ? t("trace.letterTitle", { letter: letter.character, best: letter.best === undefined || letter.best === null ? "—" : num(letter.best), done: num(letter.passes_done), passes: num(state.letters.passes) }) : t("trace.locked"),
        onclick: () => { location.hash = "#/trace/" + letter.id; } }, iso(letter.character)))),
      h("div", { class: "row" }, h("label", { class: "field" }, t("trace.mode"), " ", mode),
        h("label", { class: "check" }, hand, t("trace.leftHanded")))),
    h("div", { class: "trace-pad" },
      h("div", { class: "pad", id: "pad", "aria-label": t("trace.drawHere"), role: "img" }),
      h("div", { class: "row" }, h("button", { id: "trace-clear", onclick: clear }, t("trace.clear")),
        h("button", { class: "primary", id: "trace-done", onclick: submitTrace }, t("trace.done"))),
      h("div", { id: "trace-result", "aria-live": "polite" }),
      h("div", { id: "letter-tips" })));
  render(h("h1", {}, t("trace.heading"), state.letter ? [" — ", iso(state.letter.character)] : null), layout);
  clear();
  attachPad(document.getElementById("pad"));
}

function clear() {
  state.strokes = []; state.started = null; state.scored = false;
  document.getElementById("trace-result")?.replaceChildren();
  drawTips();
  drawPad();
}

/** The letter's own tips (the deck's `tips:`), as sentences; not in memory mode, which asks
 *  the learner to write it unaided. A tip the table has no sentence for is left out rather
 *  than shown as its id. */
function drawTips() {
  const target = document.getElementById("letter-tips");
  if (!target || !state.letter) return;
  const tips = state.mode === "memory" ? [] : state.letter.tips.filter(tip => tMaybe("letterTip." + tip));
  target.replaceChildren(...(tips.length ? [h("h2", {}, t("trace.tips")), h("ul", {}, tips.map(tip => h("li", { "data-tip": tip }, t("letterTip." + tip))))] : []));
}

function drawPad() {
  const pad = document.getElementById("pad");
  if (!pad || !state.letter) return;
  // Once scored, the template shows even in ghost and memory mode, under the learner's
  // drawing, so the two can be compared.
  const mode = state.scored && state.mode !== "trace" ? "ghost" : state.mode;
  pad.classList.toggle("scored", state.scored);
  pad.replaceChildren(letterTemplate(state.letter.strokes, mode, drawnStrokes(state.strokes, state.scored)));
}

/** Pointer events (mouse, pen, touch) become strokes of [x, y, t] in the 100×100 box. */
function attachPad(pad) {
  let current = null;
  const point = event => {
    const box = pad.getBoundingClientRect();
    if (!state.started) state.started = new Date();
    return [Math.round((event.clientX - box.left) / box.width * 1000) / 10, Math.round((event.clientY - box.top) / box.height * 1000) / 10, Date.now() - state.started.getTime()];
  };
  pad.addEventListener("pointerdown", event => {
    event.preventDefault();
    // The scored drawing stays until the learner starts the next one.
    if (state.scored) clear();
    pad.setPointerCapture(event.pointerId); current = [point(event)]; state.strokes.push(current); drawPad();
  });
  pad.addEventListener("pointermove", event => {
    if (!current) return;
    for (const e of event.getCoalescedEvents ? event.getCoalescedEvents() : [event]) current.push(point(e));
    drawPad();
  });
  const end = () => { current = null; };
  pad.addEventListener("pointerup", end); pad.addEventListener("pointercancel", end);
}

async function submitTrace() {
  if (!state.letter || !state.strokes.length || state.scored) return;
  const result = document.getElementById("trace-result");
  const now = new Date();
  const seconds = date => date.toISOString().replace(/\.\d+Z$/, "Z");
  try {
    /** @type {import("./api.js").TraceScore} */
    const score = await api("/api/letters/attempts", {
      letter: state.letter.id, mode: state.mode, drawing: state.strokes, started_at: seconds(state.started || now), completed_at: seconds(now) });
    // Haptics (`rote letters settings --haptics`): one short pulse for a pass, three for a miss.
    if (state.letters.haptics && navigator.vibrate) navigator.vibrate(score.score >= state.letters.pass_score ? 40 : [40, 60, 40, 60, 40]);
    const unlocked = score.unlocked.map(id => state.letters.letters.find(l => l.id === id)?.character).filter(Boolean);
    result.replaceChildren(h("div", { class: "card" },
      h("div", { class: "big", id: "trace-score" }, String(score.score)), t("trace.score"),
      h("div", { class: "scores" }, [["trace.start", score.start], ["trace.direction", score.direction], ["trace.strokeOrder", score.stroke_order], ["trace.shape", score.shape]]
        .map(([key, value]) => h("div", {}, h("strong", {}, num(value)), h("br"), t(key)))),
      h("ul", { id: "trace-tips" }, score.tips.map(tip => h("li", { "data-tip": tip }, t("tip." + tip)))),
      unlocked.length ? h("p", {}, t("trace.unlocked"), " ", iso(unlocked.join(" "))) : null,
      h("p", { class: "muted", id: "trace-file" }, t("trace.saved"), " ", iso(score.file, { class: "path" })),
      h("p", { class: "muted" }, t("trace.compare"))));
    state.scored = true; drawPad();
  } catch (error) { result.replaceChildren(h("p", { class: "error" }, error.message)); }
}
