// Rote's web app: native ES modules, no libraries and no build step. Every rule lives in the
// server (the same Swift code as the `rote` commands); the pages only draw what the JSON API
// answers and send back what the learner does. Text reaches the page through textContent.
import { hasToken, loadShellStrings, loadStrings, takeToken } from "./api.js";
import { showError, showNoToken, t, tokenRefused, ui } from "./dom.js";
import { showLibrary, showEntry } from "./library.js";
import { showReader } from "./reader.js";
import { showStats } from "./stats.js";
import { showStudy } from "./study.js";
import { showToday } from "./today.js";
import { showTrace } from "./trace.js";

/** @param {import("./api.js").Strings} answer */
function applyStrings(answer) {
  ui.strings = answer.strings; ui.lang = answer.lang; ui.dir = answer.dir;
  document.documentElement.lang = answer.lang;
  document.documentElement.dir = answer.dir;
  document.title = t("app.title");
  /** @type {HTMLSelectElement} */ (document.getElementById("language")).value = answer.lang;
  for (const el of document.querySelectorAll("[data-text]")) el.textContent = t(el.dataset.text);
  for (const el of document.querySelectorAll("[data-label]")) el.setAttribute("aria-label", t(el.dataset.label));
}

const pages = { today: showToday, study: showStudy, reader: showReader, trace: showTrace, stats: showStats, library: showLibrary, entry: showEntry };

async function route() {
  const [name, ...rest] = location.hash.replace(/^#\/?/, "").split("/");
  const page = pages[name] ? name : "today";
  for (const link of document.querySelectorAll("nav a")) {
    const current = link.dataset.page === (page === "entry" ? "library" : page);
    link.classList.toggle("current", current);
    if (current) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
  try { await pages[page](decodeURIComponent(rest.join("/"))); } catch (error) { showError(error); }
}

window.addEventListener("hashchange", async () => {
  // The printed address opened again in this tab, after a restart of `rote serve` on the same
  // port: only its fragment differs, so the page is not loaded again and takes the new token here.
  if (location.hash.startsWith("#token=")) {
    takeToken();
    try { applyStrings(await loadStrings(localStorage.getItem("rote.lang"))); } catch (error) { showError(error); return; }
  }
  route();
});

// A module runs once the document is parsed, so the header is there already.
document.getElementById("language").addEventListener("change", async event => {
  const lang = /** @type {HTMLSelectElement} */ (event.target).value;
  localStorage.setItem("rote.lang", lang);
  if (!hasToken()) { applyStrings(await loadShellStrings()); showNoToken(); return; }
  applyStrings(await loadStrings(lang)); route();
});
if (!takeToken()) { applyStrings(await loadShellStrings()); showNoToken(); }
else {
  try { applyStrings(await loadStrings(localStorage.getItem("rote.lang"))); route(); } catch (error) {
    if (tokenRefused(error)) applyStrings(await loadShellStrings());
    showError(error);
  }
}
