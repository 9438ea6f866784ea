// A letter's strokes drawn in the 100×100 box of the deck's templates, shared by the tracing
// page and a letter on a study card.
import { h } from "./dom.js";

/** How sharp a turn between template points is kept a corner rather than rounded (radians):
 *  a bowl's points turn by 30–50° each, a k's or an N's corners by 90° and more. */
const cornerTurn = 1.2;

/** A smooth path through a template stroke's points: a Catmull-Rom spline as cubic Béziers,
 *  so a bowl given as eight points reads as a round bowl, not an octagon, while corners stay
 *  corners. A closed stroke (ending where it starts) is smooth at its join too. */
export function smoothPath(points) {
  if (points.length < 3) return "M" + points.map(p => p[0] + " " + p[1]).join(" L");
  const n = points.length;
  const closed = Math.hypot(points[0][0] - points[n - 1][0], points[0][1] - points[n - 1][1]) < 1;
  const turn = (a, b, c) => {
    const u = Math.atan2(b[1] - a[1], b[0] - a[0]), v = Math.atan2(c[1] - b[1], c[0] - b[0]);
    return Math.abs(Math.atan2(Math.sin(v - u), Math.cos(v - u)));
  };
  const tangent = i => {
    const before = i > 0 ? points[i - 1] : closed ? points[n - 2] : null;
    const after = i < n - 1 ? points[i + 1] : closed ? points[1] : null;
    if (before && after) {
      if (turn(before, points[i], after) > cornerTurn) return [0, 0];
      return [(after[0] - before[0]) / 2, (after[1] - before[1]) / 2];
    }
    const [a, b] = after ? [points[i], after] : [before, points[i]];
    return [(b[0] - a[0]) / 2, (b[1] - a[1]) / 2];
  };
  const tangents = points.map((_, i) => tangent(i));
  const round = x => Math.round(x * 100) / 100;
  let d = `M${points[0][0]} ${points[0][1]}`;
  for (let i = 0; i < n - 1; i++) {
    const [p, q] = [points[i], points[i + 1]];
    d += ` C${round(p[0] + tangents[i][0] / 3)} ${round(p[1] + tangents[i][1] / 3)} ${round(q[0] - tangents[i + 1][0] / 3)} ${round(q[1] - tangents[i + 1][1] / 3)} ${q[0]} ${q[1]}`;
  }
  return d;
}

/** A letter's strokes on the handwriting lines: numbered, with each start marked, in trace
 *  mode; faint in ghost mode; blank in memory mode. `drawn` (the learner's strokes) goes on
 *  top, so the two can be compared. */
export function letterTemplate(strokes, mode, drawn = []) {
  const guides = [10, 40, 80].map(y => h("line", { class: "guide", x1: 0, x2: 100, y1: y, y2: y }));
  const template = strokes.map((stroke, i) => h("g", { class: "stroke mode-" + mode },
    h("path", { class: "template", d: smoothPath(stroke) }),
    mode !== "memory" ? h("circle", { class: "start", cx: stroke[0][0], cy: stroke[0][1], r: 2.5 }) : null,
    mode === "trace" ? h("text", { x: stroke[0][0] + 3, y: stroke[0][1] - 3 }, String(i + 1)) : null));
  return h("svg", { viewBox: "0 0 100 100", "aria-hidden": "true" }, guides, template, drawn);
}

/** The learner's strokes as lines in the same box. */
export const drawnStrokes = (strokes, scored) => strokes.map(stroke =>
  h("polyline", { class: "drawn" + (scored ? " scored" : ""), points: stroke.map(p => p[0] + "," + p[1]).join(" ") }));
