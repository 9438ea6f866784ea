// The Library page (decks, entries with search) and an entry's page: its progress as
// `rote show` gives it, its reviews, the commits that touched it and its file.
import { api } from "./api.js";
import { date, h, iso, num, render, t, tMaybe } from "./dom.js";
import { mediaBlock } from "./media.js";
import { masteryName } from "./stats.js";
import { state } from "./state.js";
import { kindName } from "./today.js";

const pageSize = 50;

export async function showLibrary() {
  /** @type {import("./api.js").Deck[]} */
  const decks = await api("/api/decks");
  const deck = h("select", { id: "deck-filter", "aria-label": t("library.deck") }, h("option", { value: "" }, t("library.all")), decks.map(d => h("option", { value: d.name }, d.title)));
  deck.value = state.deckFilter || "";
  const search = h("input", { type: "search", id: "search", placeholder: t("library.search"), "aria-label": t("library.search"), dir: "auto", value: state.search || "" });
  const list = h("div", { class: "entries", id: "entries" });
  let offset = 0;
  const load = async (more) => {
    offset = more ? offset + pageSize : 0;
    state.deckFilter = deck.value; state.search = search.value;
    /** @type {import("./api.js").EntryPage} */
    const found = await api(`/api/entries?deck=${encodeURIComponent(deck.value)}&q=${encodeURIComponent(search.value)}&offset=${offset}&limit=${pageSize}`);
    const rows = found.entries.map(entry => h("tr", {}, h("td", {}, h("a", { href: "#/entry/" + entry.id }, iso(entry.gloss))), h("td", { class: "muted" }, t("status." + entry.status))));
    if (!more) list.replaceChildren(h("p", { class: "muted" }, t("library.count", { count: num(found.total) })), h("table", {}, h("tbody", {}, rows)));
    else list.querySelector("tbody").append(...rows);
    list.querySelector("#more")?.remove();
    if (offset + pageSize < found.total) list.append(h("button", { id: "more", onclick: () => load(true) }, t("library.more")));
  };
  let timer = null;
  search.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => load(false), 150); });
  deck.addEventListener("change", () => load(false));
  render(h("h1", {}, t("library.heading")),
    h("div", { class: "grid" }, decks.map(d => h("div", { class: "card" }, h("strong", {}, iso(d.title)), h("div", { class: "muted" }, kindName(d.kind)), h("p", { dir: "auto" }, d.description)))),
    h("div", { class: "row filters" }, deck, search), list);
  await load(false);
}

/** A figure of the entry's progress: its value over its name. */
const fact = (key, value, id) => h("div", { class: "fact", id }, h("strong", {}, value), h("span", { class: "muted" }, t(key)));

export async function showEntry(id) {
  /** @type {import("./api.js").Entry} */
  const entry = await api("/api/entry?id=" + encodeURIComponent(id));
  const facts = [
    fact("library.status", t("status." + entry.status), "entry-status"),
    entry.due ? fact("library.due", date(entry.due), "entry-due") : null,
    entry.stability !== undefined && entry.stability !== null ? fact("library.stability", t("library.days", { days: num(entry.stability, { maximumFractionDigits: 1 }) }), "entry-stability") : null,
    entry.confidence !== undefined && entry.confidence !== null ? fact("library.confidence", num(entry.confidence) + " / " + num(100), "entry-confidence") : null,
    entry.mastery ? fact("library.mastery", masteryName(entry.mastery), "entry-mastery") : null,
    entry.ladder ? fact("library.ladder", tMaybe("ladder." + entry.ladder) ?? entry.ladder, "entry-ladder") : null,
    entry.lapses ? fact("library.lapses", num(entry.lapses), "entry-lapses") : null,
  ];
  const seconds = ms => t("library.seconds", { seconds: num(ms / 1000, { maximumFractionDigits: 1 }) });
  const when = text => date(text, { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
  render(h("h1", {}, iso(entry.gloss)), h("p", { class: "muted" }, iso(entry.deck_title), " · ", kindName(entry.kind)),
    h("div", { class: "card facts", id: "progress-facts" }, facts),
    entry.audio || entry.image ? h("div", { class: "card", id: "entry-media" }, mediaBlock({ audio: entry.audio, image: entry.image, autoplay: false })) : null,
    h("div", { class: "card" }, h("h2", {}, t("library.reviews")), entry.reviews.length
      ? h("table", { id: "reviews" }, h("tbody", {}, entry.reviews.map(r => h("tr", {}, h("td", {}, when(r.at)), h("td", {}, tMaybe("study." + r.grade) ?? r.grade), h("td", {}, r.ms ? seconds(r.ms) : ""), h("td", { class: "muted" }, r.device ? iso(r.device) : "")))))
      : h("p", { class: "muted" }, t("library.noReviews"))),
    h("div", { class: "card" }, h("h2", {}, t("library.commits")), h("table", { id: "commits" }, h("tbody", {}, entry.commits.map(c => h("tr", {}, h("td", {}, date(c.date)), h("td", {}, iso(c.summary))))))),
    h("div", { class: "card" }, h("h2", {}, t("library.file")), h("pre", { class: "file", dir: "ltr" }, entry.file)));
}
