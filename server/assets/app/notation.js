// What a player types for his words, read into the words of the notation:
// the characters themselves (炮二平五, 馬 8 進 7), the letters of 附表六 2 (AXF: `C2=5`,
// `c 2 = 5`, `H8+7`) and of WXF (`C2.5`, `R+.3` the front rook, `2P+1`), and a move in ICCS
// coordinates (`h2e2`), written as the rule text would (the pieces of one file told front and
// rear, 附表六 1(2)–(4)). Only what is typed is read here: the server sends words as tokens,
// and the pages write them (text.js). No DOM: the tests import this module in Node.

import { KEY_WORDS } from "./protocol.js";

/** The files a to i, left to right as red sees the board. */
export const FILES = "abcdefghi";

/** Expands a FEN placement to a 10×9 array, row 0 = rank 9 (black's back rank). */
export function expand(placement) {
  const rows = (placement || "").split(" ")[0].split("/");
  return rows.map((r) => {
    const out = [];
    for (const ch of r) {
      if (/\d/.test(ch)) for (let i = 0; i < Number(ch); i++) out.push("");
      else out.push(ch);
    }
    while (out.length < 9) out.push("");
    return out;
  });
}

/** The piece on an ICCS point (`e2`) of an expanded placement, or "". */
export function pieceAt(grid, point) {
  const f = FILES.indexOf(point[0]);
  const r = Number(point.slice(1));
  return grid[9 - r]?.[f] ?? "";
}

/** The kind of a FEN letter. */
export const KIND_OF = { k: "general", a: "advisor", b: "elephant", e: "elephant", n: "horse", h: "horse", r: "rook", c: "cannon", p: "pawn" };

/** The kinds that move diagonally: their number is the file they reach (附表六 1(1)(d)). */
const DIAGONAL = new Set(["horse", "elephant", "advisor"]);

/** The side of a FEN letter. */
const sideOf = (ch) => (ch === ch.toUpperCase() ? "red" : "black");

/** The words of an order among `n` like pieces of one file, `i` counted from the front
 * (附表六 1(2)–(3)): 前/後, 前/中/後, 一…四, 前前 … 後後. */
function orderWords(i, n) {
  if (n === 2) return [i === 0 ? "front" : "rear"];
  if (n === 3) return [["front", "middle", "rear"][i]];
  if (n === 4) return [String(i + 1)];
  return [["front", "front"], ["front", "rear"], ["middle"], ["rear", "front"], ["rear", "rear"]][Math.min(i, 4)];
}

/**
 * The four words of the move `iccs` (`h2e2`) in the position `fen`, as the rule text writes
 * them for the side whose piece stands on its first point: `{ side, tokens }`, or null when
 * no piece stands there. The move's legality is the arbiter's to judge.
 */
export function designate(fen, iccs) {
  const m = /^([a-i])(\d)([a-i])(\d)$/.exec(iccs || "");
  if (!m) return null;
  const grid = expand(fen);
  const ch = pieceAt(grid, m[1] + m[2]);
  if (!ch) return null;
  const side = sideOf(ch);
  const kind = KIND_OF[ch.toLowerCase()];
  const fileNo = (f) => (side === "red" ? 9 - f : f + 1);
  const ahead = (r) => (side === "red" ? r : 9 - r);
  const [f, r, tf, tr] = [FILES.indexOf(m[1]), Number(m[2]), FILES.indexOf(m[3]), Number(m[4])];
  const onFile = (file) => [...Array(10).keys()].filter((rk) => grid[9 - rk][file] === ch).sort((a, b) => ahead(b) - ahead(a));
  const same = onFile(f);
  let name = [kind, String(fileNo(f))];
  if (same.length > 1) {
    const order = orderWords(same.indexOf(r), same.length);
    const tandemFiles = kind === "pawn" ? [...Array(9).keys()].filter((x) => onFile(x).length > 1).length : 1;
    name = tandemFiles > 1 ? [order[0], String(fileNo(f))] : order.length === 2 ? order : [order[0], kind];
  }
  const [from, to] = [ahead(r), ahead(tr)];
  const n = DIAGONAL.has(kind) ? fileNo(tf) : Math.abs(from - to);
  const motion = to > from ? ["forward", String(n)] : to < from ? ["backward", String(n)] : ["across", String(fileNo(tf))];
  return { side, tokens: [...name, ...motion] };
}

/** The key (the character a player types or taps) of a word token for `side`: the side's
 * own characters where the two sides' differ (相/象, 仕/士, 帥/將, 兵/卒, 一/1; 第12條). */
export function keyOf(token, side = "red") {
  const keys = KEY_WORDS.filter(([, tok]) => tok === token).map(([k]) => k);
  return keys[side === "black" && keys.length > 1 ? 1 : 0];
}

/** Letters of AXF and WXF: the pieces (G and K the general, B and E the elephant, N and H
 * the horse), the signs (+ 進 or 前, - 退 or 後, = and . 平), the numbers. */
const LETTER = { k: "general", g: "general", a: "advisor", e: "elephant", b: "elephant", h: "horse", n: "horse", r: "rook", c: "cannon", p: "pawn" };

/**
 * Letters (`C2=5`, `c 2 = 5`, `R+.3`, `2P+1`, or one letter at a time) read as words,
 * `slot` the place of the first (the words already said this turn): a sign is front or rear
 * in the first two places, a direction after. Null when a character is none of these.
 */
export function letterTokens(text, slot = 0) {
  const out = [];
  for (const c of String(text).toLowerCase().replace(/\s+/g, "")) {
    const at = slot + out.length;
    if (LETTER[c]) out.push(LETTER[c]);
    else if (/[1-9]/.test(c)) out.push(c);
    else if (c === "+") out.push(at < 2 ? "front" : "forward");
    else if (c === "-") out.push(at < 2 ? "rear" : "backward");
    else if (c === "=" || c === ".") out.push("across");
    else return null;
  }
  // WXF writes the front rook `R+`: the rule's words are 前車 (附表六 1(2)).
  const piece = (w) => Object.values(LETTER).includes(w);
  if (slot === 0 && out.length >= 2 && piece(out[0]) && ["front", "rear"].includes(out[1])) [out[0], out[1]] = [out[1], out[0]];
  return out;
}

/** Whether a line is a whole announcement in letters or ICCS (and so words, not one of the
 * command field's commands, which are a letter and an argument apart: `r 5`, `f 3`). */
export function isWholeMove(text) {
  const c = String(text).replace(/\s+/g, "");
  return /^[a-i]\d-?[a-i]\d$/.test(c) || /^[kgaebhnrcp][1-9+-][+\-=.][1-9]$/i.test(c)
    || /^[+\-1-5][kgaebhnrcp][+\-=.][1-9]$/i.test(c);
}

/** The words of a typed announcement: `炮二平五`, `馬 8 進 7` → one word per character;
 * other tokens (`C2=5`) as typed. */
export function splitWords(text) {
  return String(text).trim().split(/\s+/).filter(Boolean)
    .flatMap((tm) => (/^[\p{Script=Han}0-9０-９]+$/u.test(tm) ? [...tm] : [tm]));
}

/**
 * What a player typed for his words, as keys to send one by one: `{ keys }`, or `{ error }`
 * (`"not_words"`: neither characters, letters nor ICCS; `"no_piece"`: an ICCS move from an
 * empty point). `ctx`: `fen` the position, `side` the speaker's, `slot` the words already
 * said this turn, `repeat` the words owed in a read-back and `last` the move they are of.
 */
export function typedKeys(text, { fen = "", side = "red", slot = 0, repeat = null, last = null } = {}) {
  const line = String(text).trim();
  if (!line) return { keys: [] };
  if (/\p{Script=Han}|[０-９]/u.test(line)) {
    return { keys: splitWords(line) };
  }
  const iccs = line.toLowerCase().replace(/[\s-]/g, "");
  if (/^[a-i]\d[a-i]\d$/.test(iccs)) {
    // In a read-back the move is the opponent's, already played: its own words.
    if (repeat && last?.iccs === iccs) return { keys: repeat.map((w) => keyOf(w, side)) };
    const d = designate(fen, iccs);
    return d ? { keys: d.tokens.map((w) => keyOf(w, side)) } : { error: "no_piece" };
  }
  const tokens = letterTokens(line, slot);
  return tokens?.length ? { keys: tokens.map((w) => keyOf(w, side)) } : { error: "not_words" };
}
