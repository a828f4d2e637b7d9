// The board: a Xiangqi board drawn in SVG (nine files, ten ranks, the river 楚河 漢界, the
// palace diagonals, file numbers as each side announces them: 一…九 from red's right, 1…9
// from black's right, 第7條), with one button per point laid on the intersections. Arrow keys
// move between points (one tab stop for the whole board); every point is labelled in words;
// the last move, a general in check, a selection and differences are marked by a sign and a
// shape as well as a colour. Also the text commands of the screen-reader mode (after lichess's
// nvui: scan a file or a rank, list pieces, read the clocks, the log).

import { el, expand, FILES, PIECES, pieceAt, pieceName, SIDE, fmtTime, sayTime, clockNow, words, t } from "./common.js";
import { KIND_OF } from "./notation.js";
import { moveBy } from "./narrate.js";
import { KEY_WORDS } from "./protocol.js";

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
      b.setAttribute("aria-label", `${this.pointName(p)} ${pieceName(ch)}${marks.length ? t("，", ", ") + marks.join(t("，", ", ")) : ""}`);
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
export const HELP = t("指令：c 時間；d 現在須做甚麼（含須複讀）；l 上一着；[ 和 ] 逐着瀏覽；m 全部着法；t 輪到誰；" +
  "a 本輪報棋；f 路數 1–9 或 a–i；r 橫線 0–9；s 一點如 e2；k 棋種如 k 馬 或 k h；p 全部棋子。" +
  "報棋：直接打 炮二平五、C2=5 或 h2e2；b h2e2 在棋盤走子；z 按鐘；e 確認複讀；o 提和；y 接受和棋；n 不接受；resign 認負；w 雙方姓名；v 讀出詳略；h 說明。" +
  "亦可用 clock、last、opponent、draw。",
"Commands: c time; d what you must do now (a read-back owed too); l last move; [ and ] step through the moves; m all moves; t turn; " +
  "a the words so far; f file 1–9 or a–i; r rank 0–9; s a point, e.g. e2; k a kind, e.g. k h; p all pieces. " +
  "Words: type 炮二平五, C2=5 or h2e2; b h2e2 moves on your board; z presses the clock; e confirms a read-back; o offers a draw; y accepts; n declines; resign resigns; w names; v verbosity; h help. " +
  "Also clock, last, opponent, draw.");

const NUMERALS = "一二三四五六七八九";
/** A kind asked by its character (either side's) or its letter (KIND_OF: FEN letters). */
const KIND_WORD = Object.fromEntries(KEY_WORDS.filter(([, tok]) => !/^\d$|front|middle|rear|forward|backward|across/.test(tok))
  .concat([["俥", "rook"], ["傌", "horse"], ["砲", "cannon"], ["g", "general"]]));
/** A side's character for a kind (第12條). */
const PIECE_OF = { red: { general: "帥", advisor: "仕", elephant: "相", horse: "傌", rook: "俥", cannon: "炮", pawn: "兵" },
  black: { general: "將", advisor: "士", elephant: "象", horse: "馬", rook: "車", cannon: "砲", pawn: "卒" } };

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

/** What `me` must do now: a repeat owed (mirroring the opponent's move
 * on his own board first, 7.4(2)(g)), a move check to answer (6.4), his move, or nothing. */
function duty(snap, me) {
  if (snap.phase === "over") return t("對局已結束", "the game is over");
  if (snap.phase === "not_started") return t("未開鐘", "the clocks have not started");
  if (!me || snap.to_move !== me) return t("等候對手", "wait for the opponent");
  return owed(snap, me) || t("輪到你：走子、報棋，然後按鐘", "your turn: move, announce, then press the clock");
}

/** What `me` owes in his turn besides his move, in words: a repeat (mirroring the
 * opponent's move on his own board first, 7.4(2)(g)) or a move check to answer (6.4: the
 * board set right, the move announced again, the board restored); "" when nothing. */
export function owed(snap, me) {
  if (!me || snap.to_move !== me || !["playing", "paused"].includes(snap.phase)) return "";
  const p = snap.pending || {};
  if (p.repeat?.mirror) {
    const said = words(p.repeat.words, p.repeat.mover);
    return t(`先在你的棋盤走出對手的着法 ${said}，複讀「${said}」，然後確認`,
      `play the opponent's move ${said} on your board, read it back, then confirm`);
  }
  if (p.repeat) return t(`複讀裁判的報棋「${words(p.repeat.words, p.repeat.mover)}」`, `read back the referee's announcement ${words(p.repeat.words, p.repeat.mover)}`);
  if (p.correction) return t(`把棋盤修正為 ${p.correction}（在棋盤走子：打 b 加走法）`, `set your board right to ${p.correction} (board moves: b and the move)`);
  if (p.reannounce) return t(`重新報棋 ${words(p.reannounce[1], me)}`, `announce again: ${words(p.reannounce[1], me)}`);
  if (p.restore) return t("還原棋盤（打 b 加走法），改走別子", "restore the board (type b and the move) and move another piece");
  return "";
}

/** A move of the record as it is heard: 第 3 着 紅方 炮二平五，吃馬，將軍（h2e2）. */
export function moveLine(m) {
  const offer = m.draw_offer ? t("，提和", ", offering a draw") : "";
  return t(`第 ${m.ply} 着 ${moveBy(m.mv, m.side)}${offer}（${m.mv.iccs}）`,
    `move ${m.ply}, ${moveBy(m.mv, m.side)}${offer} (${m.mv.iccs})`);
}

/** Answers one screen-reader command about a snapshot, in words; files given as numbers
 * count as `me`'s notation does (red's for a spectator). */
export function command(text, snap, me = null) {
  const [cmd, arg = ""] = text.trim().toLowerCase().split(/\s+/);
  if (!snap) return t("尚未連線", "not connected");
  const grid = expand(snap.fen);
  const at = (f, r) => grid[9 - r][f];
  switch (cmd) {
    case "c": {
      // The side to move first (6.5(2)), as the arbiter's own report orders them.
      const now = clockNow(snap.clock);
      const first = ["playing", "paused"].includes(snap.phase) ? snap.to_move : "red";
      const order = first === "red" ? ["red", "black"] : ["black", "red"];
      const said = order.map((s) => `${SIDE[s]} ${sayTime(now[s])}`).join(t("，", ", "));
      return said + (now.running ? t(`，${SIDE[now.running]}的鐘在走`, `, ${SIDE[now.running]}'s clock runs`) : "");
    }
    case "d":
      return duty(snap, me);
    case "l": {
      const m = snap.moves.at(-1);
      return m ? t(`上一着：${moveLine(m)}`, `Last move: ${moveLine(m)}`) : t("尚未走子", "no move yet");
    }
    case "m":
      return snap.moves.length
        ? snap.moves.map((m) => `${moveLine(m)} ${fmtTime(m.clock_ms)}`).join(t("；", "; "))
        : t("尚未走子", "no move yet");
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
      return sides.map((s) => `${SIDE[s]}${t("：", ": ")}${list[s].join(t("，", ", "))}`).join(t("。", ". "));
    }
    case "f": {
      // As the reader's notation numbers it (red's, written 一–九, or black's, 1–9).
      const side = me === "black" ? "black" : "red";
      const n = fileNumber(arg);
      const f = n ? notationFile(n, side) : FILES.indexOf(arg);
      if (f < 0) return t("直線請用 a 至 i，或本方路數 1 至 9", "a file is a to i, or 1 to 9 as your notation counts");
      const out = [];
      for (let r = 9; r >= 0; r--) if (at(f, r)) out.push(`${FILES[f]}${r} ${pieceName(at(f, r))}`);
      const label = side === "red" ? NUMERALS[n - 1] : n;
      const name = n ? t(`${SIDE[side]}第${label}路（${FILES[f]} 線）`, `${SIDE[side]} file ${n} (${FILES[f]} file)`) : t(`${FILES[f]} 線`, `${FILES[f]} file`);
      return `${name}${t("：", ": ")}${out.join(t("，", ", ")) || t("無子", "empty")}`;
    }
    case "k": {
      // The pieces of one kind, both sides, the reader's own first (as the keypad lists them).
      const kind = KIND_OF[arg] || KIND_WORD[arg];
      if (!kind) return t("棋種請用 車 馬 炮 相 仕 帥 兵，或 r h c e a k p", "a kind is r h c e a k p, or 車 馬 炮 相 仕 帥 兵");
      const sides = me === "black" ? ["black", "red"] : ["red", "black"];
      return sides.map((s) => {
        const found = [];
        for (let r = 9; r >= 0; r--) {
          for (let f = 0; f < 9; f++) {
            const ch = at(f, r);
            if (ch && KIND_OF[ch.toLowerCase()] === kind && (ch === ch.toUpperCase()) === (s === "red")) found.push(`${FILES[f]}${r}`);
          }
        }
        return `${SIDE[s]}${PIECE_OF[s][kind]}${t("：", ": ")}${found.join(t("，", ", ")) || t("無", "none")}`;
      }).join(t("。", ". "));
    }
    case "r": {
      const r = Number(arg);
      if (!/^\d$/.test(arg)) return t("橫線請用 0 至 9", "a rank is 0 to 9");
      const out = [];
      for (let f = 0; f < 9; f++) if (at(f, r)) out.push(`${FILES[f]}${r} ${pieceName(at(f, r))}`);
      return `${t(`第 ${r} 橫線：`, `rank ${r}: `)}${out.join(t("，", ", ")) || t("無子", "empty")}`;
    }
    case "s": {
      if (!/^[a-i]\d$/.test(arg)) return t("點請用 ICCS，例如 e2", "a point is written in ICCS, e.g. e2");
      return `${arg} ${pieceName(at(FILES.indexOf(arg[0]), Number(arg[1])))}`;
    }
    case "t": {
      if (snap.phase === "over") return t("對局已結束", "the game is over");
      if (snap.phase === "not_started") return t("未開鐘（黑方按鐘開始）", "not started (black starts the clocks)");
      // To a seat in the second person, as the summary says it.
      if (me) return snap.to_move === me ? t("輪到你", "your turn") : t("輪到對手", "your opponent's turn");
      return t(`輪到${SIDE[snap.to_move]}`, `${SIDE[snap.to_move]} to move`);
    }
    case "a":
      return snap.attempt.length ? `${t("本輪報棋：", "announcing: ")}${words(snap.attempt, snap.to_move)}`
        : (snap.announced ? `${t("已報：", "announced: ")}${words(snap.announced, snap.to_move)}` : t("本輪尚未報棋", "nothing announced yet"));
    case "h": case "?": case "":
      return HELP;
    default:
      // Short: the whole help at each slip would bury what he typed (h gives it).
      return t(`不明指令「${text}」：h 聽指令說明`, `Unknown command “${text}”: h for the commands`);
  }
}
