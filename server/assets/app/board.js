// The board: a Xiangqi board drawn in SVG (nine files, ten ranks, the river 楚河 漢界, the
// palace diagonals, file numbers as each side announces them: 一…九 from red's right, 1…9
// from black's right, 第7條), with one button per point laid on the intersections. Arrow keys
// move between points (one tab stop for the whole board); every point is labelled in words;
// the last move, a general in check, a selection and differences are marked by a sign and a
// shape as well as a colour. The text commands of the screen-reader mode are nvui.js's.

import { el, expand, FILES, PIECES, pieceAt, pieceName, t } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
const RED_NUMBERS = "一二三四五六七八九";
/** Units of the drawing: points 10 apart, half a point's margin at the sides, more above
 * and below for the file numbers. */
const STEP = 10;
const SIDE_MARGIN = 6;
const END_MARGIN = 12;
const WIDTH = 8 * STEP + 2 * SIDE_MARGIN;
const HEIGHT = 9 * STEP + 2 * END_MARGIN;

/** An SVG element with attributes and text. */
function svg(tag, attrs = {}, text = "") {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

/** The drawing position (units) of column `c` (0 = left) and row `r` (0 = top). */
const at = (c, r) => [SIDE_MARGIN + c * STEP, END_MARGIN + r * STEP];

/** The board's lines: ranks, files broken by the river, the two palaces' diagonals. */
function lines() {
  const out = [];
  const line = (c1, r1, c2, r2, cls = "") => {
    const [x1, y1] = at(c1, r1);
    const [x2, y2] = at(c2, r2);
    out.push(svg("line", { x1, y1, x2, y2, class: cls }));
  };
  for (let r = 0; r < 10; r++) line(0, r, 8, r);
  for (let c = 0; c < 9; c++) {
    if (c === 0 || c === 8) line(c, 0, c, 9, "edge");
    else { line(c, 0, c, 4); line(c, 5, c, 9); }
  }
  for (const top of [0, 7]) { line(3, top, 5, top + 2); line(5, top, 3, top + 2); }
  out.push(svg("rect", { x: SIDE_MARGIN, y: END_MARGIN, width: 8 * STEP, height: 9 * STEP, class: "frame" }));
  return out;
}

/** The river's words and the file numbers of both sides, for the files `cols` left to right
 * (ICCS file indices) with `near` the side at the bottom. */
function labels(cols, near) {
  const number = (side, f) => (side === "red" ? RED_NUMBERS[8 - f] : String(f + 1));
  const far = near === "red" ? "black" : "red";
  const out = [];
  const y = at(0, 4.5)[1];
  out.push(svg("text", { x: at(2, 0)[0], y, class: "river" }, "楚 河"));
  out.push(svg("text", { x: at(6, 0)[0], y, class: "river" }, "漢 界"));
  cols.forEach((f, c) => {
    const x = at(c, 0)[0];
    out.push(svg("text", { x, y: 3.5, class: `num ${far}` }, number(far, f)));
    out.push(svg("text", { x, y: HEIGHT - 3, class: `num ${near}` }, number(near, f)));
  });
  return out;
}

/**
 * A board in `node`. Options: `label` (caption), `flip` (black at the bottom), `onMove(iccs)`
 * when the viewer picks a piece then a point (omit for a read-only board), `help` the id of
 * its instructions.
 */
export class Board {
  constructor(node, { label, flip = false, onMove = null, help = null } = {}) {
    this.node = node;
    this.help = help;
    this.label = label;
    this.flip = flip;
    this.onMove = onMove;
    this.from = null;
    this.focus = "e0";
    this.grid = expand("");
  }

  /** Draws `placement`; `last` is the last move (ICCS), `diff` points to mark, `check` the
   * side whose general is in check. The points are built once (again only when the board
   * turns round) and then updated in place, so a tap or click that an arriving event redraws
   * under the finger is not lost, and the focus stays where it is. */
  render(placement, { last = "", diff = [], check = null } = {}) {
    // A selection whose piece is gone from its point (the position changed under it) is no
    // selection: the next tap starts afresh.
    const grid = expand(placement);
    if (this.from && pieceAt(grid, this.from) !== pieceAt(this.grid, this.from)) this.from = null;
    this.grid = grid;
    this.placement = placement;
    if (!this.buttons || this.builtFlip !== this.flip) this.build();
    this.caption.textContent = this.label;
    const lastPts = last ? [last.slice(0, 2), last.slice(2, 4)] : [];
    const general = check === "red" ? "K" : check === "black" ? "k" : "";
    for (const [p, b] of this.buttons) {
      const ch = pieceAt(this.grid, p);
      const checked = Boolean(general) && ch === general;
      const marks = [];
      if (lastPts.includes(p)) marks.push(p === lastPts[1] ? t("上一着落點", "last move to") : t("上一着起點", "last move from"));
      if (checked) marks.push(t("被將軍", "in check"));
      if (diff.includes(p)) marks.push(t("與對局不同", "differs from the game"));
      if (this.from === p) marks.push(t("已選", "selected"));
      b.className = ["pt", ch ? (ch === ch.toUpperCase() ? "red" : "black") : "empty",
        p === lastPts[0] ? "last-from" : "", p === lastPts[1] ? "last" : "", checked ? "check" : "",
        diff.includes(p) ? "diff" : "", this.from === p ? "sel" : ""].join(" ");
      b.tabIndex = p === this.focus ? 0 : -1;
      // The piece first, then where (a screen reader says the grid's row and column
      // before it); an empty point is its name alone, not one 「空」 after another.
      const what = ch ? `${pieceName(ch)}${t("，", ", ")}${this.pointName(p)}` : p;
      b.setAttribute("aria-label", `${what}${marks.length ? t("，", ", ") + marks.join(t("，", ", ")) : ""}`);
      b.firstChild.textContent = ch ? PIECES[ch] : "";
    }
  }

  /** A point as the viewer's notation counts files (第7條) and as ICCS writes it. */
  pointName(p) {
    const f = FILES.indexOf(p[0]);
    const own = this.flip ? t(`${f + 1}路`, `file ${f + 1}`) : t(`${RED_NUMBERS[8 - f]}路`, `file ${9 - f}`);
    return t(`${p}（${own}）`, `${p} (${own})`);
  }

  /** Builds the drawing and the points, in the orientation of `flip`. */
  build() {
    const ranks = [...Array(10).keys()].map((i) => 9 - i);
    const cols = [...Array(9).keys()];
    if (this.flip) { ranks.reverse(); cols.reverse(); }
    this.buttons = new Map();
    const drawing = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, "aria-hidden": "true", class: "lines" });
    drawing.append(...lines(), ...labels(cols, this.flip ? "black" : "red"));
    // The grid pattern: rows of cells, each holding its point's button,
    // so that a screen reader leaves browse mode in it and the arrow keys reach the board.
    // The rows and cells take no room: the buttons are laid on the drawing as before.
    const rows = ranks.map((r, row) => el("div", { role: "row", class: "xrow" }, ...cols.map((f, c) => {
      const p = FILES[f] + r;
      const [x, y] = at(c, row);
      const b = el("button", {
        type: "button", "data-pt": p,
        "aria-disabled": this.onMove ? null : "true",
        style: `left:${(x / WIDTH) * 100}%;top:${(y / HEIGHT) * 100}%;width:${(STEP / WIDTH) * 100}%;height:${(STEP / HEIGHT) * 100}%`,
        onclick: () => this.pick(p),
        onkeydown: (e) => this.key(e, p),
      }, el("span", { "aria-hidden": "true" }, ""));
      this.buttons.set(p, b);
      return el("div", { role: "gridcell", class: "xcell" }, b);
    })));
    const hadFocus = this.node.contains(document.activeElement);
    this.caption = el("p", { class: "board-caption", id: `${this.node.id || "board"}-caption` }, this.label);
    this.node.replaceChildren(this.caption, el("div", {
      class: "xboard" + (this.onMove ? " live" : ""), role: "grid", "aria-labelledby": this.caption.id,
      "aria-describedby": this.help || null, "aria-readonly": this.onMove ? null : "true",
    }, drawing, ...rows));
    this.builtFlip = this.flip;
    if (hadFocus) this.buttons.get(this.focus)?.focus();
  }

  pick(p) {
    if (!this.onMove) return;
    const ch = pieceAt(this.grid, p);
    const sameSide = (a, b) => Boolean(a && b) && (a === a.toUpperCase()) === (b === b.toUpperCase());
    if (!this.from) {
      if (!ch) return;
      this.from = p;
    } else if (this.from === p) {
      this.from = null;
    } else if (sameSide(ch, pieceAt(this.grid, this.from))) {
      // No piece moves onto one of its own side: a tap on another of them picks that one.
      this.from = p;
    } else {
      const mv = this.from + p;
      this.from = null;
      this.onMove(mv);
    }
    this.focus = p;
    this.render(this.placement, this.lastOpts || {});
  }

  key(e, p) {
    // Home and End: the first and last point of the rank (the grid pattern's keys).
    const d = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0], Home: [-8, 0], End: [8, 0] }[e.key];
    if (!d) return;
    e.preventDefault();
    const sign = this.flip ? -1 : 1;
    const f = Math.min(8, Math.max(0, FILES.indexOf(p[0]) + d[0] * sign));
    const r = Number(p.slice(1)) + d[1] * sign;
    if (f < 0 || f > 8 || r < 0 || r > 9) return;
    this.focus = FILES[f] + r;
    for (const b of this.buttons.values()) b.tabIndex = b.dataset.pt === this.focus ? 0 : -1;
    this.buttons.get(this.focus)?.focus();
  }

  draw(placement, opts = {}) {
    this.lastOpts = opts;
    this.render(placement, opts);
  }
}

/** The side whose general the last move `m` (a scoresheet row) checks, if it checks. */
export function checked(m) {
  return m?.mv.check ? (m.side === "red" ? "black" : "red") : null;
}

/** Points where two placements differ. */
export function differences(a, b) {
  const ga = expand(a);
  const gb = expand(b);
  const out = [];
  for (let i = 0; i < 10; i++) {
    for (let f = 0; f < 9; f++) if (ga[i][f] !== gb[i][f]) out.push(FILES[f] + (9 - i));
  }
  return out;
}

/** Whether a board's placement shows the game's position `fen` with the move `iccs` played
 * on it: a move check's correction made (6.4(a)). */
export function showsMove(placement, fen, iccs) {
  const want = expand(fen);
  const [ff, fr, tf, tr] = [FILES.indexOf(iccs[0]), Number(iccs[1]), FILES.indexOf(iccs[2]), Number(iccs[3])];
  want[9 - tr][tf] = want[9 - fr][ff];
  want[9 - fr][ff] = "";
  return differences(want.map((row) => row.map((c) => c || "1").join("")).join("/"), placement).length === 0;
}

/** The command field's help (said on `h`): the queries, then what a
 * seat does (its words, its board move, the clock, the draw, resigning). */
