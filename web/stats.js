// The Stats page: `rote stats` drawn — the heatmap, retention, the forecast, a simulated year
// (`rote simulate`), streaks, mastery per deck, skills and leeches. Charts are SVG whose colours are the stylesheet's, laid out
// from the inline start, so they mirror in a right-to-left page.
import { api } from "./api.js";
import { date, h, iso, num, render, t, tMaybe, tn, ui } from "./dom.js";

const masteryLevels = ["starting", "learning", "getting_there", "strong", "mastered"];
export const masteryName = level => tMaybe("mastery." + level) ?? level;

/** x of a box of `width` at `x` from the inline start of a chart `total` wide. */
const place = (x, width, total) => ui.dir === "rtl" ? total - x - width : x;
/** A label's text-anchor for one written as in a left-to-right chart. */
const anchor = name => ui.dir !== "rtl" ? name : { start: "end", end: "start" }[name] ?? name;

/** The first weekday of a week in the page's language (0 Sunday … 6 Saturday). */
function firstWeekday() {
  try {
    const locale = new Intl.Locale(ui.lang);
    const info = locale.getWeekInfo?.() ?? locale.weekInfo;
    if (info?.firstDay) return info.firstDay % 7;
  } catch { /* an engine without week info: Monday */ }
  return 1;
}

/** Reviews per day as a calendar: a column per week, a row per weekday, months above,
 *  weekdays beside, and the five shades explained below. */
function heatmap(stats) {
  const days = stats.heat_levels.length, cell = 12, top = 12, side = 34;
  const today = new Date(); today.setHours(12, 0, 0, 0);
  const dayOf = i => new Date(today.getTime() - (days - 1 - i) * 86_400_000);
  const first = firstWeekday();
  const row = d => (d.getDay() - first + 7) % 7;
  const offset = row(dayOf(0));
  const columns = Math.ceil((days + offset) / 7);
  const width = side + columns * cell;
  const rects = [], labels = [];
  let lastMonth = -1;
  for (let i = 0; i < days; i++) {
    const day = dayOf(i), column = Math.floor((i + offset) / 7);
    rects.push(h("rect", { class: `day level-${stats.heat_levels[i]}`, x: place(side + column * cell, cell - 2, width), y: top + row(day) * cell, width: cell - 2, height: cell - 2, rx: 2 },
      h("title", {}, `${date(day)}: ${t("stats.reviewsCount", { count: num(stats.reviews_per_day[i]) })}`)));
    // A month is named above the column of its first week; the first column's month only
    // when enough of it is shown that its name does not run into the next month's.
    const starts = i === 0 ? day.getDate() <= 20 : row(day) === 0 && day.getDate() <= 7;
    if (day.getMonth() !== lastMonth && starts) {
      lastMonth = day.getMonth();
      labels.push(h("text", { class: "month", x: place(side + column * cell, 0, width), y: 8, "text-anchor": anchor("start") }, date(day, { month: "short" })));
    }
  }
  // Every other weekday is named, as a calendar's margin does, so the names have room.
  for (const r of [0, 2, 4, 6]) {
    const sample = new Date(today); sample.setDate(today.getDate() - ((row(today) - r + 7) % 7));
    labels.push(h("text", { class: "weekday", x: place(side - 4, 0, width), y: top + r * cell + 8, "text-anchor": anchor("end") },
      date(sample, { weekday: "short" })));
  }
  const svg = h("svg", { viewBox: `0 0 ${width} ${top + 7 * cell}`, id: "heatmap", role: "img", direction: "ltr", "aria-label": t("stats.heatmap") }, labels, rects);
  const legend = h("div", { class: "heat-legend", id: "heat-legend" }, h("span", {}, t("stats.less")),
    [0, 1, 2, 3, 4].map(level => h("span", { class: `swatch level-${level}`, "aria-hidden": "true" })), h("span", {}, t("stats.more")));
  return [svg, legend];
}

/** A round number at or above `value` (1, 2 or 5 × a power of ten) for the top of an axis. */
export function niceCeiling(value) {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map(m => m * power).find(step => step >= value);
}

/** Due reviews per day, today first, with a y-axis of counts. */
function forecast(stats) {
  const days = stats.forecast.length, bar = 10, side = 26, height = 90, top = 8, bottom = 16;
  const width = side + days * bar;
  const most = niceCeiling(Math.max(...stats.forecast, 1));
  const y = count => top + height - count / most * height;
  const ticks = most >= 2 ? [0, most / 2, most] : [0, most];
  const axis = ticks.map(tick => h("g", { class: "tick" },
    h("line", { class: "grid-line", x1: place(side, 0, width), x2: place(width, 0, width), y1: y(tick), y2: y(tick) }),
    h("text", { class: "count", x: place(side - 4, 0, width), y: y(tick) + 3.5, "text-anchor": anchor("end") }, num(tick))));
  const bars = stats.forecast.map((count, i) => h("rect", { class: "bar" + (i === 0 ? " today" : ""), x: place(side + i * bar + 1, bar - 2, width), y: y(count), width: bar - 2, height: Math.max(0.5, top + height - y(count)) },
    h("title", {}, `${i === 0 ? t("stats.today") : t("stats.inDays", { days: num(i) })}: ${num(count)}`)));
  // The first and last labels are held at the chart's ends, so neither runs past its edge.
  const last = days - 1;
  const dayLabels = [0, 7, 14, 21, last].filter((d, i, all) => d <= last && all.indexOf(d) === i).map(d => {
    const [x, end] = d === 0 ? [side, "start"] : d === last ? [width, "end"] : [side + d * bar + bar / 2, "middle"];
    return h("text", { class: "day-label", x: place(x, 0, width), y: top + height + bottom - 3, "text-anchor": anchor(end) },
      d === 0 ? t("stats.today") : "+" + num(d));
  });
  return h("svg", { viewBox: `0 0 ${width} ${top + height + bottom}`, id: "forecast", role: "img", direction: "ltr", "aria-label": t("stats.forecast") }, axis, bars, dayLabels);
}

/** Each deck's entries by mastery level: a bar split by level and the counts beside it. */
function mastery(stats) {
  if (!stats.mastery.length) return h("p", { class: "muted" }, t("stats.noMastery"));
  return h("div", { id: "mastery" }, stats.mastery.map(deck => {
    const total = deck.levels.reduce((sum, level) => sum + level.count, 0) || 1;
    return h("div", { class: "mastery-deck" }, h("strong", {}, iso(deck.title)),
      h("div", { class: "mastery-bar", "aria-hidden": "true" }, deck.levels.filter(l => l.count).map(level => {
        const part = h("span", { class: "m-" + level.level }); part.style.inlineSize = (level.count / total * 100) + "%"; return part;
      })),
      h("ul", { class: "chips" }, deck.levels.map(level => h("li", {}, h("span", { class: "dot m-" + level.level, "aria-hidden": "true" }), masteryName(level.level), " ", h("strong", {}, num(level.count))))));
  }));
}

/** Each deck's retention, leech rule and FSRS parameters, with where each came from. */
function schedules(stats) {
  return h("ul", { class: "plain", id: "schedules" }, stats.schedules.map(deck => {
    const retention = deck.fsrs
      ? [t("stats.scheduleRetention", { retention: num(deck.desired_retention, { style: "percent" }) }), " (", t("stats.source." + deck.retention_source), ")"]
      : [t("stats.scheduleSm2")];
    const leech = deck.leech_threshold === 0 ? t("stats.scheduleNoLeeches")
      : tn(deck.leech_action === "suspend" ? "stats.scheduleLeechSuspend" : "stats.scheduleLeechTag", deck.leech_threshold);
    return h("li", { "data-deck": deck.deck }, h("strong", {}, iso(deck.title)), " · ", ...retention, " · ", leech,
      " (", t("stats.source." + deck.leech_source), ")", deck.fsrs ? [" · ", t("stats.parameters." + deck.parameters)] : []);
  }));
}

function skills(stats) {
  if (!stats.skills.length) return h("p", { class: "muted", id: "skills-none" }, t("stats.noSkills"));
  return h("ul", { class: "plain", id: "skills" }, stats.skills.map(skill => h("li", { class: "skill", "data-skill": skill.skill },
    h("strong", {}, iso(skill.title)),
    h("div", { class: "muted" }, skill.attempts
      ? t("stats.skillLine", { attempts: num(skill.attempts), right: num(Math.round((skill.accuracy ?? 0) * 100)), mastery: masteryName(skill.mastery), confidence: num(skill.confidence) })
      : t("stats.skillNew", { questions: num(skill.questions) }),
      skill.last_practised ? [" · ", t("stats.lastPractised", { date: date(skill.last_practised) })] : null))));
}

function leeches(stats) {
  if (!stats.leeches.length) return h("p", { class: "muted", id: "leeches-none" }, t("stats.noLeeches"));
  return h("ul", { class: "plain", id: "leeches" }, stats.leeches.map(leech => h("li", {},
    h("a", { class: "button link", href: "#/entry/" + leech.id }, iso(leech.gloss)), " ", h("span", { class: "muted" }, t("stats.lapses", { count: num(leech.lapses) })))));
}

/** Weeks of a simulated year: mean minutes and reviews a day, memorised on the last day. */
function weeks(simulation) {
  const out = [];
  for (let start = 0; start < simulation.length; start += 7) {
    const days = simulation.slice(start, start + 7);
    const mean = key => days.reduce((sum, day) => sum + day[key], 0) / days.length;
    out.push({ week: start / 7 + 1, minutes: mean("minutes"), reviews: mean("reviews"), memorized: days[days.length - 1].memorized });
  }
  return out;
}

/** One chart of a simulated year, a bar (or, for `line`, a point) per week, with a y-axis. */
function weekChart(id, label, values, tooltip, line) {
  const bar = 6, side = 34, height = 80, top = 8, bottom = 16;
  const width = side + values.length * bar;
  const most = niceCeiling(Math.max(...values, 1));
  const y = value => top + height - value / most * height;
  const axis = [0, most / 2, most].map(tick => h("g", { class: "tick" },
    h("line", { class: "grid-line", x1: place(side, 0, width), x2: place(width, 0, width), y1: y(tick), y2: y(tick) }),
    h("text", { class: "count", x: place(side - 4, 0, width), y: y(tick) + 3.5, "text-anchor": anchor("end") }, num(tick))));
  const marks = line
    ? [h("polyline", { class: "sim-line", fill: "none", points: values.map((v, i) => `${place(side + i * bar + bar / 2, 0, width)},${y(v)}`).join(" ") }),
      ...values.map((v, i) => h("rect", { class: "sim-hit", x: place(side + i * bar, bar, width), y: top, width: bar, height, fill: "transparent" }, h("title", {}, tooltip(i))))]
    : values.map((v, i) => h("rect", { class: "bar", x: place(side + i * bar + 0.5, bar - 1, width), y: y(v), width: bar - 1, height: Math.max(0.5, top + height - y(v)) }, h("title", {}, tooltip(i))));
  const last = values.length;
  const weekLabels = [1, 13, 26, 39, last].filter((w, i, all) => w <= last && all.indexOf(w) === i).map(w => {
    const [x, end] = w === 1 ? [side, "start"] : w === last ? [width, "end"] : [side + (w - 1) * bar + bar / 2, "middle"];
    return h("text", { class: "day-label", x: place(x, 0, width), y: top + height + bottom - 3, "text-anchor": anchor(end) }, t("stats.week", { week: num(w) }));
  });
  return h("svg", { viewBox: `0 0 ${width} ${top + height + bottom}`, id, role: "img", direction: "ltr", "aria-label": label }, axis, marks, weekLabels);
}

/** `rote simulate` drawn: minutes a day and entries memorised, week by week, for a year. */
async function simulation(card) {
  let answer;
  try {
    answer = await api("/api/simulate");
  } catch {
    card.append(h("p", { class: "muted", id: "simulation-none" }, t("stats.simulationFailed")));
    return;
  }
  const byWeek = weeks(answer.simulation);
  const tooltip = i => t("stats.simulationWeek", { week: num(byWeek[i].week), minutes: num(Math.round(byWeek[i].minutes)), reviews: num(Math.round(byWeek[i].reviews)), memorized: num(Math.round(byWeek[i].memorized)) });
  const end = answer.simulation[answer.simulation.length - 1];
  const minutes = answer.simulation.reduce((sum, day) => sum + day.minutes, 0) / answer.simulation.length;
  card.append(
    h("p", { id: "simulation-summary" }, t("stats.simulationSummary", { memorized: num(Math.round(end.memorized)), days: num(answer.days), minutes: num(Math.round(minutes)) })),
    h("h3", {}, t("stats.minutesPerDay")), weekChart("simulation-minutes", t("stats.minutesPerDay"), byWeek.map(w => w.minutes), tooltip, false),
    h("h3", {}, t("stats.memorised")), weekChart("simulation-memorised", t("stats.memorised"), byWeek.map(w => w.memorized), tooltip, true),
    h("p", { class: "muted" }, t("stats.simulationHelp", { new: num(answer.new_per_day), reviews: num(answer.reviews_per_day), retention: num(answer.desired_retention, { style: "percent" }), size: num(answer.deck_size) })));
}

export async function showStats() {
  /** @type {import("./api.js").Stats} */
  const stats = await api("/api/stats");
  const retention = stats.retention_achieved === null || stats.retention_achieved === undefined
    ? h("p", {}, t("stats.noRetention"))
    : h("p", {}, h("span", { class: "big" }, num(stats.retention_achieved, { style: "percent" })), " ",
      t("stats.retentionOf", { reviews: num(stats.retention_reviews), desired: num(stats.retention_desired, { style: "percent" }) }));
  const simulationCard = h("div", { class: "card", id: "simulation" }, h("h2", {}, t("stats.simulation")));
  render(h("h1", {}, t("stats.heading")),
    h("div", { class: "grid stats-grid" },
      h("div", { class: "card" }, h("div", { class: "big", id: "stats-due" }, num(stats.due_today)), t("stats.dueToday")),
      h("div", { class: "card" }, h("div", { class: "big" }, num(stats.current_streak)), t("stats.streak")),
      h("div", { class: "card" }, h("div", { class: "big" }, num(stats.longest_streak)), t("stats.longest"))),
    h("div", { class: "card" }, h("h2", {}, t("stats.heatmap")), heatmap(stats)),
    h("div", { class: "card" }, h("h2", {}, t("stats.retention")), retention,
      stats.practice_reviews ? h("p", { class: "muted", id: "stats-practice" }, t("stats.practice", { today: num(stats.practice_today), total: num(stats.practice_reviews) })) : null),
    h("div", { class: "card" }, h("h2", {}, t("stats.forecast")), forecast(stats)),
    simulationCard,
    h("div", { class: "card" }, h("h2", {}, t("stats.mastery")), mastery(stats)),
    h("div", { class: "card" }, h("h2", {}, t("stats.skills")), skills(stats)),
    h("div", { class: "card" }, h("h2", {}, t("stats.leeches")), h("p", { class: "muted" }, t("stats.leechesHelp")), leeches(stats)),
    h("div", { class: "card" }, h("h2", {}, t("stats.scheduling")), h("p", { class: "muted" }, t("stats.schedulingHelp")), schedules(stats)));
  // The simulation takes longer than the rest; the page is usable before it is drawn.
  await simulation(simulationCard);
}
