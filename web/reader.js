// The Reader page: a text with every word marked by the learner's status, and what can be
// done with a word (docs/web.md). The marking is `rote read`'s, from the server.
import { api } from "./api.js";
import { bidi, h, iso, num, render, showError, t } from "./dom.js";
import { state } from "./state.js";

export async function showReader() {
  const text = h("textarea", { id: "reader-input", dir: "auto", "aria-label": t("reader.paste"), placeholder: t("reader.paste") });
  text.value = state.readerText || "";
  // The file input itself is hidden: its label is the button, in the page's words (a file
  // input's own "Choose File" is the browser's, in the browser's language, and too wide for a phone).
  const file = h("input", { type: "file", accept: ".txt,text/plain", id: "reader-file", class: "visually-hidden" });
  file.addEventListener("change", async () => { if (file.files[0]) { text.value = await file.files[0].text(); read(); } });
  const rank = h("input", { type: "number", min: "0", step: "100", id: "rank-filter", inputmode: "numeric", value: state.rankFilter || "" });
  rank.addEventListener("input", () => { state.rankFilter = rank.value; drawTokens(); });
  const read = async () => {
    state.readerText = text.value;
    try { state.readerTokens = await api("/api/reader", { text: text.value }); } catch (error) { showError(error); return; }
    drawTokens();
  };
  render(h("h1", {}, t("reader.heading")),
    h("div", { class: "card" }, text, h("div", { class: "row" }, h("button", { class: "primary", id: "read", onclick: read }, t("reader.read")),
      h("label", { class: "button" }, t("reader.open"), file),
      h("label", { class: "rank" }, t("reader.rankFilter"), " ", rank))),
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
    return h("span", { class: classes.join(" "), tabindex: "0", role: "button", "data-status": token.status, "data-word": token.text, title: t("status." + token.status) + (token.rank ? ` · ${t("reader.rank")} ${num(token.rank)}` : ""),
      onclick: event => showWord(token, event.currentTarget), onkeydown: event => { if (event.key === "Enter") showWord(token, event.currentTarget); } }, token.text);
  }));
}

async function showWord(token, element) {
  for (const el of document.querySelectorAll(".word.selected")) el.classList.remove("selected");
  element.classList.add("selected");
  const panel = document.getElementById("word-panel");
  /** @type {import("./api.js").WordAnswer[]} */
  const found = await api("/api/lookup?word=" + encodeURIComponent(token.text));
  // Every action is one commit; the text is marked again from the files afterwards.
  const then = async call => {
    try { await call; } catch (error) { panel.replaceChildren(h("p", { class: "error" }, error.message)); return; }
    state.readerTokens = await api("/api/reader", { text: state.readerText }); drawTokens(); panel.replaceChildren();
  };
  const setStatus = (entry, status) => then(api("/api/entries/status", { entry, status }));
  const triage = (entry, action) => then(api("/api/entries/triage", { entry, action }));
  if (!found.length) {
    panel.replaceChildren(h("h2", {}, iso(token.text)), h("p", {}, t("reader.notInDeck")),
      h("div", { class: "row" }, h("button", { id: "ignore-word", onclick: () => then(api("/api/words/ignore", { word: token.text })) }, t("reader.ignoreEverywhere"))));
    panel.scrollIntoView({ block: "nearest" });
    return;
  }
  panel.replaceChildren(...found.map(word => h("div", { class: "word-detail" },
    h("h2", {}, iso(word.lemma), " ", h("span", { class: "muted" }, iso(word.pos))),
    h("p", {}, h("span", { lang: "ar", dir: "rtl" }, word.translation)),
    word.meaning ? h("p", { dir: "auto" }, word.meaning) : null,
    h("p", { class: "muted" }, t("status." + word.status), word.rank ? ` · ${t("reader.rank")} ${num(word.rank)}` : "", word.cefr ? [" · ", iso(word.cefr)] : null),
    word.forms.length ? h("p", {}, h("strong", {}, t("reader.forms")), " ", iso(word.forms.map(f => f[1]).join(", "))) : null,
    word.examples.length ? h("div", {}, h("strong", {}, t("reader.examples")), word.examples.slice(0, 3).map(e =>
      h("p", {}, h("span", { dir: "auto", lang: "en" }, e.en.replace(/[{}]/g, "")), h("br"), h("span", { lang: "ar", dir: "rtl" }, e.translated.replace(/[{}]/g, ""))))) : null,
    h("div", { class: "row" },
      word.status === "ignored" || word.status === "suspended"
        ? h("button", { onclick: () => setStatus(word.entry, "active") }, t("reader.activate"))
        : [word.status === "new" ? h("button", { id: "add-word", class: "primary", onclick: () => triage(word.entry, "add") }, t("reader.add")) : null,
           word.status === "new" ? h("button", { id: "known-word", onclick: () => triage(word.entry, "known") }, t("reader.known")) : null,
           h("button", { id: "ignore-word", onclick: () => setStatus(word.entry, "ignored") }, t("reader.ignore")), h("button", { onclick: () => setStatus(word.entry, "suspended") }, t("reader.suspend"))],
      h("a", { class: "button", href: "#/entry/" + word.entry }, t("library.history"))))));
  panel.scrollIntoView({ block: "nearest" });
}
