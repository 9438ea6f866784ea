// The Today page: what is due and new, per deck, and the buttons that start a session.
import { api } from "./api.js";
import { h, iso, num, render, showError, t, tMaybe } from "./dom.js";
import { startSession } from "./study.js";

/** A deck kind (vocabulary, passages, letters, skills) in the learner's words. */
export const kindName = kind => tMaybe("kind." + kind) ?? t("kind.other");

const start = (decks, options) => startSession(decks, options).catch(showError);

/** Practice (answers that leave the schedule alone) and review ahead (real, early reviews), of
 *  all decks or one: `rote study --practice` and `--review-ahead N`. */
function customStudy(decks) {
  const deck = h("select", { id: "custom-deck", "aria-label": t("custom.deck") },
    h("option", { value: "" }, t("custom.allDecks")), decks.map(d => h("option", { value: d.name }, d.title)));
  const which = h("select", { id: "practice-choice", "aria-label": t("custom.practiceWhich") },
    ["all", "forgotten", "week"].map(c => h("option", { value: c }, t("custom.practice." + c))));
  const days = h("input", { id: "ahead-days", type: "number", min: "1", max: "365", value: "7", inputmode: "numeric", "aria-label": t("custom.aheadDays") });
  const chosen = () => deck.value ? [deck.value] : [];
  const practise = () => start(chosen(), { practice: which.value === "forgotten" ? { forgotten_today: true } : which.value === "week" ? { due_within_days: 7 } : {} });
  const ahead = () => {
    const n = Math.round(Number(days.value));
    if (!(n >= 1)) { days.setCustomValidity(t("custom.aheadInvalid")); days.reportValidity(); return; }
    days.setCustomValidity("");
    start(chosen(), { review_ahead: n });
  };
  return h("div", { class: "card", id: "custom-study" },
    h("h2", {}, t("custom.heading")),
    h("div", { class: "row" }, h("label", { for: "custom-deck" }, t("custom.deck")), deck),
    h("p", { class: "muted" }, t("custom.practiceHelp")),
    h("div", { class: "row" }, which, h("button", { id: "practice-start", onclick: practise }, t("custom.practiceStart"))),
    h("p", { class: "muted" }, t("custom.aheadHelp")),
    h("div", { class: "row" }, h("label", { for: "ahead-days" }, t("custom.aheadDays")), days,
      h("button", { id: "ahead-start", onclick: ahead }, t("custom.aheadStart"))));
}

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
        h("button", { onclick: () => start([deck.name]) }, t("today.startDeck"))))),
    today.session_open ? null : customStudy(today.decks));
  // The streak and the goal come from the stats, which read every progress file: drawn when they arrive.
  /** @type {import("./api.js").Stats} */
  const stats = await api("/api/stats");
  const streak = document.getElementById("today-streak"), goal = document.getElementById("today-goal");
  if (!streak || !goal) return;
  streak.textContent = num(stats.current_streak);
  goal.textContent = t("today.goalProgress", { done: num(stats.reviews_today), goal: num(stats.daily_goal) });
  bar.style.inlineSize = Math.round(Math.min(1, stats.daily_goal ? stats.reviews_today / stats.daily_goal : 1) * 100) + "%";
}
