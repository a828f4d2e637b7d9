// The board: a table of buttons (one per point, labelled in words), arrow keys move between
// points (one tab stop for the whole board), the last move and differences marked by a
// sign and a pattern as well as a colour; and the text commands of the screen-reader mode
// (after lichess's nvui: scan a file or a rank, list pieces, read the clocks, the log).

import { el, expand, FILES, PIECES, pieceAt, pieceName, SIDE, fmtTime, sayTime, clockNow, move, words } from "./common.js";

/**
 * A board in `node`. Options: `label` (caption), `flip` (black at the bottom), `onMove(iccs)`
 * when the viewer picks a piece then a point (omit for a read-only board).
 */
export class Board {
  constructor(node, { label, flip = false, onMove = null } = {}) {
    this.node = node;
    this.label = label;
    this.flip = flip;
    this.onMove = onMove;
    this.from = null;
    this.focus = "e0";
    this.grid = expand("");
  }

  /** Draws `placement`; `last` is the last move (ICCS), `diff` points to mark. The points
   * are built once (again only when the board turns round) and then updated in place, so a
   * tap or click that an arriving event redraws under the finger is not lost, and the focus
   * stays where it is. */
  render(placement, { last = "", diff = [] } = {}) {
    // A selection whose piece is gone from its point (the position changed under it) is no
    // selection: the next tap starts afresh.
    const grid = expand(placement);
    if (this.from && pieceAt(grid, this.from) !== pieceAt(this.grid, this.from)) this.from = null;
    this.grid = grid;
    this.placement = placement;
    if (!this.buttons || this.builtFlip !== this.flip) this.build();
    this.caption.textContent = this.label;
    const lastPts = last ? [last.slice(0, 2), last.slice(2, 4)] : [];
    for (const [p, b] of this.buttons) {
      const ch = pieceAt(this.grid, p);
      const marks = [];
      if (lastPts.includes(p)) marks.push(p === lastPts[1] ? "上一着落點" : "上一着起點");
      if (diff.includes(p)) marks.push("與對局不同");
      if (this.from === p) marks.push("已選");
      b.className = ["pt", ch ? (ch === ch.toUpperCase() ? "red" : "black") : "empty",
        lastPts.includes(p) ? "last" : "", diff.includes(p) ? "diff" : "", this.from === p ? "sel" : ""].join(" ");
      b.tabIndex = p === this.focus ? 0 : -1;
      b.setAttribute("aria-label", `${p} ${pieceName(ch)}${marks.length ? "，" + marks.join("，") : ""}`);
      b.firstChild.textContent = ch ? PIECES[ch] : "";
    }
  }

  /** Builds the table of points, in the orientation of `flip`. */
  build() {
    const ranks = [...Array(10).keys()].map((i) => 9 - i);
    const files = [...FILES];
    if (this.flip) { ranks.reverse(); files.reverse(); }
    this.buttons = new Map();
    const head = el("tr", {}, el("td", {}), files.map((f) => el("th", { scope: "col" }, f)));
    const rows = ranks.map((r) => el("tr", { class: r === 5 ? "river-top" : "" },
      el("th", { scope: "row" }, String(r)),
      files.map((f) => {
        const p = f + r;
        const b = el("button", {
          type: "button", "data-pt": p,
          "aria-disabled": this.onMove ? null : "true",
          onclick: () => this.pick(p),
          onkeydown: (e) => this.key(e, p),
        }, el("span", { "aria-hidden": "true" }, ""));
        this.buttons.set(p, b);
        return el("td", {}, b);
      })));
    const hadFocus = this.node.contains(document.activeElement);
    this.caption = el("caption", {}, this.label);
    this.node.replaceChildren(el("table", { class: "board" + (this.onMove ? " live" : "") },
      this.caption, el("thead", {}, head), el("tbody", {}, rows)));
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
    const d = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] }[e.key];
    if (!d) return;
    e.preventDefault();
    const sign = this.flip ? -1 : 1;
    const f = FILES.indexOf(p[0]) + d[0] * sign;
    const r = Number(p.slice(1)) + d[1] * sign;
    if (f < 0 || f > 8 || r < 0 || r > 9) return;
    this.focus = FILES[f] + r;
    for (const b of this.node.querySelectorAll("button[data-pt]")) {
      b.tabIndex = b.dataset.pt === this.focus ? 0 : -1;
    }
    this.node.querySelector(`[data-pt="${this.focus}"]`)?.focus();
  }

  draw(placement, opts = {}) {
    this.lastOpts = opts;
    this.render(placement, opts);
  }
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

export const HELP = "指令：c 讀鐘；l 上一着；m 着法記錄；p 列出棋子（p 紅／p 黑）；f a–i 讀直線" +
  "（f 1–9 或 f 一–九：本方報棋的路數）；r 0–9 讀橫線；s e2 讀一點；t 輪到誰；a 本輪報棋；h 說明。" +
  "Commands: c clocks, l last move, m moves, p pieces, f <file a–i, or 1–9 as your notation counts>, " +
  "r <rank>, s <point>, t turn, a announcement, h help.";

const NUMERALS = "一二三四五六七八九";

/** A file number 1–9 given as `1`–`9`, full-width or Chinese numerals; 0 if none. */
function fileNumber(arg) {
  if (/^[1-9]$/.test(arg)) return Number(arg);
  if (/^[１-９]$/.test(arg)) return arg.charCodeAt(0) - 0xff10;
  return arg.length === 1 ? NUMERALS.indexOf(arg) + 1 : 0;
}

/** The ICCS file index (0 = a) of file `n` as `side`'s notation numbers it: 1 is the file
 * on that side's right, i for red and a for black (第7條). */
function notationFile(n, side) {
  return side === "black" ? n - 1 : 9 - n;
}

/** Answers one screen-reader command about a snapshot, in words; files given as numbers
 * count as `me`'s notation does (red's for a spectator). */
export function command(text, snap, me = null) {
  const [cmd, arg = ""] = text.trim().toLowerCase().split(/\s+/);
  if (!snap) return "尚未連線 not connected";
  const grid = expand(snap.fen);
  const at = (f, r) => grid[9 - r][f];
  switch (cmd) {
    case "c": {
      const t = clockNow(snap.clock);
      return `紅方 ${sayTime(t.red)}，黑方 ${sayTime(t.black)}${t.running ? `，${SIDE[t.running]}的鐘在走` : ""}`;
    }
    case "l": {
      const m = snap.moves.at(-1);
      return m ? `上一着 第 ${m.ply} 着 ${SIDE[m.side]} ${move(m.mv, m.side, m.draw_offer)}（${m.mv.iccs}）` : "尚未走子";
    }
    case "m":
      return snap.moves.length
        ? snap.moves.map((m) => `${m.ply}. ${SIDE[m.side]} ${move(m.mv, m.side, m.draw_offer)} ${fmtTime(m.clock_ms)}`).join("；")
        : "尚未走子";
    case "p": {
      const want = { "紅": "red", r: "red", red: "red", "黑": "black", b: "black", black: "black" }[arg];
      const list = { red: [], black: [] };
      for (let r = 9; r >= 0; r--) {
        for (let f = 0; f < 9; f++) {
          const ch = at(f, r);
          if (ch) list[ch === ch.toUpperCase() ? "red" : "black"].push(PIECES[ch] + FILES[f] + r);
        }
      }
      const sides = want ? [want] : ["red", "black"];
      return sides.map((s) => `${SIDE[s]}：${list[s].join("，")}`).join("。");
    }
    case "f": {
      // As the reader's notation numbers it (red's, written 一–九, or black's, 1–9).
      const side = me === "black" ? "black" : "red";
      const n = fileNumber(arg);
      const f = n ? notationFile(n, side) : FILES.indexOf(arg);
      if (f < 0) return "直線請用 a 至 i，或本方路數 1 至 9";
      const out = [];
      for (let r = 9; r >= 0; r--) if (at(f, r)) out.push(`${FILES[f]}${r} ${pieceName(at(f, r))}`);
      const label = side === "red" ? NUMERALS[n - 1] : n;
      const name = n ? `${SIDE[side]}第${label}路（${FILES[f]} 線）` : `${FILES[f]} 線`;
      return `${name}：${out.join("，") || "無子"}`;
    }
    case "r": {
      const r = Number(arg);
      if (!/^\d$/.test(arg)) return "橫線請用 0 至 9";
      const out = [];
      for (let f = 0; f < 9; f++) if (at(f, r)) out.push(`${FILES[f]}${r} ${pieceName(at(f, r))}`);
      return `第 ${r} 橫線：${out.join("，") || "無子"}`;
    }
    case "s": {
      if (!/^[a-i]\d$/.test(arg)) return "點請用 ICCS，例如 e2";
      return `${arg} ${pieceName(at(FILES.indexOf(arg[0]), Number(arg[1])))}`;
    }
    case "t":
      return snap.phase === "over" ? "對局已結束" : `輪到${SIDE[snap.to_move]}`;
    case "a":
      return snap.attempt.length ? `本輪報棋：${words(snap.attempt, snap.to_move)}`
        : (snap.announced ? `已報：${words(snap.announced, snap.to_move)}` : "本輪尚未報棋");
    case "h": case "?": case "":
      return HELP;
    default:
      return `不明指令「${text}」。${HELP}`;
  }
}
