// The Today page: what is due and new, per deck, and the buttons that start a session.
import { api } from "./api.js";
import { h, iso, num, render, showError, t, tMaybe } from "./dom.js";
import { startSession } from "./study.js";

/** A deck kind (vocabulary, passages, letters, skills) in the learner's words. */
export const kindName = kind => tMaybe("kind." + kind) ?? t("kind.other");

const start = decks => startSession(decks).catch(showError);

export async function showToday() {
  /** @type {import("./api.js").Today} */
  const today = await api("/api/today");
  const bar = h("div", { class: "bar-fill" }); bar.style.inlineSize = "0%";
  render(
    h("h1", {}, t("today.heading")),
    h("div", { class: "grid stats-grid" },
      h("div", { class: "card" }, h("div", { class: "big", id: "today-due" }, num(today.due)), t("today.due"),
        today.due_deferred ? h("div", { class: "muted" }, t("today.deferredCount", { count: num(today.due_deferred) })) : null,
        today.due_later_today ? h("div", { class: "muted", id: "today-later" }, t("today.laterCount", { count: num(today.due_later_today) })) : null),
      h("div", { class: "card" }, h("div", { class: "big", id: "today-new" }, num(today.new)), t("today.new")),
      h("div", { class: "card" }, h("div", { class: "big", id: "today-streak" }, "…"), t("today.streakDays")),
      h("div", { class: "card" }, h("div", { id: "today-goal" }, t("today.goalProgress", { done: "…", goal: num(today.daily_goal) })), h("div", { class: "progress" }, bar))),
    h("div", { class: "row" },
      today.session_open
        ? h("button", { class: "primary", id: "resume", onclick: () => { location.hash = "#/study"; } }, t("today.resume"))
        : h("button", { class: "primary", id: "start", disabled: today.due + today.new === 0, onclick: () => start([]) }, t("today.start")),
      today.due + today.new === 0 ? h("span", { class: "muted" }, t("today.nothing")) : null),
    h("h2", {}, t("library.decks")),
    h("div", { class: "grid" }, today.decks.map(deck =>
      h("div", { class: "card deck", "data-deck": deck.name },
        h("strong", {}, iso(deck.title)), h("div", { class: "muted" }, kindName(deck.kind)),
        h("div", {}, t("today.deckCounts", { due: num(deck.due), new: num(deck.new) })),
        h("button", { onclick: () => start([deck.name]) }, t("today.startDeck"))))));
  // The streak and the goal come from the stats, which read every progress file: drawn when they arrive.
  /** @type {import("./api.js").Stats} */
  const stats = await api("/api/stats");
  const streak = document.getElementById("today-streak"), goal = document.getElementById("today-goal");
  if (!streak || !goal) return;
  streak.textContent = num(stats.current_streak);
  goal.textContent = t("today.goalProgress", { done: num(stats.reviews_today), goal: num(stats.daily_goal) });
  bar.style.inlineSize = Math.round(Math.min(1, stats.daily_goal ? stats.reviews_today / stats.daily_goal : 1) * 100) + "%";
}
