// What a blind player types for his words without a Chinese input method
// (AXF `C2=5`, `c 2 = 5`, WXF `R+.3`, ICCS `h2e2`) is read into the words of the notation.
// ICCS needs the position: the page writes the move as the rule text does (附表六 1(2)–(4):
// 前/後, 前/中/後, 一…四, 前前…後後, the file when two files hold several pawns), and is checked
// here against the grammar crate itself (`baoqi moves`, `baoqi notation render`) on every
// legal move of positions that hold each of those cases, for both sides. Node, no browser.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { baoqiBin } from "./harness.js";
import { designate, typedKeys, isWholeMove, letterTokens } from "../../server/assets/app/notation.js";
import { words } from "../../server/assets/app/text.js";

const run = (...args) => execFileSync(baoqiBin(), args, { encoding: "utf8" }).trim();

/** Positions with tandem pieces of each kind the rule names, red and black to move. */
const POSITIONS = [
  "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
  "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b",
  "5k3/9/9/9/9/4R4/9/4R4/4C4/3K5 w", // 前俥, 後俥 (附表六 1(2))
  "3k5/9/9/2P1P4/2P1P4/4P4/9/9/9/4K4 w", // two files of pawns: 前七, 後七, 前五… (1(4))
  "4k4/9/9/9/2p6/2p1p4/2p1p4/9/9/3K5 b", // three and two: 前３, 中３, 後３, 前５ …
  "3k5/9/9/9/4p4/4p4/4p4/4p4/9/4K4 b", // four on a file: 一…四卒 (1(3)(b))
  "3k5/9/4P4/4P4/4P4/4P4/4P4/9/9/5K3 w", // five: 前前 … 後後 (1(3)(a))
];

test("an ICCS move is written as the rule text writes it, for every legal move of each position", () => {
  let checked = 0;
  for (const fen of POSITIONS) {
    for (const mv of run("moves", "--fen", fen).split(/\s+/).filter(Boolean)) {
      const expected = run("notation", "render", "--fen", fen, mv).replace(/[×○＝]/g, "");
      const d = designate(fen, mv);
      assert.equal(words(d.tokens, d.side), expected, `${fen}: ${mv}`);
      checked += 1;
    }
  }
  assert.ok(checked > 150, `${checked} moves checked`);
});

test("letters of AXF and WXF, with or without spaces, are the words they stand for", () => {
  assert.deepEqual(typedKeys("C2=5").keys, ["炮", "二", "平", "五"]);
  assert.deepEqual(typedKeys("c 2 = 5").keys, ["炮", "二", "平", "五"]);
  assert.deepEqual(typedKeys("H8+7", { side: "black" }).keys, ["馬", "8", "進", "7"]);
  assert.deepEqual(typedKeys("C2.5").keys, ["炮", "二", "平", "五"], "WXF's . is 平");
  assert.deepEqual(typedKeys("R+.3").keys, ["前", "車", "平", "三"], "WXF's front rook is 前車");
  assert.deepEqual(typedKeys("-R-1").keys, ["後", "車", "退", "一"]);
  assert.deepEqual(typedKeys("E3+5").keys, ["相", "三", "進", "五"], "red's own character (第12條)");
  assert.deepEqual(typedKeys("E3+5", { side: "black" }).keys, ["象", "3", "進", "5"]);
  // One word at a time: a sign is front or rear in the first two places, a direction after.
  assert.deepEqual(letterTokens("+", 0), ["front"]);
  assert.deepEqual(letterTokens("+", 2), ["forward"]);
  assert.deepEqual(typedKeys("馬 8 進 7").keys, ["馬", "8", "進", "7"]);
  assert.equal(typedKeys("zz").error, "not_words");
  assert.equal(typedKeys("e5e6", { fen: POSITIONS[0] }).error, "no_piece");
});

test("in a read-back, the opponent's move in ICCS is his own words", () => {
  const read = typedKeys("h7e7", { side: "red", repeat: ["cannon", "8", "across", "5"], last: { iccs: "h7e7" } });
  assert.deepEqual(read.keys, ["炮", "八", "平", "五"]);
});

test("the command field tells a whole move from a command", () => {
  for (const words of ["C2=5", "c 2 = 5", "h2e2", "h2-e2", "R+.3", "2P+1"]) assert.ok(isWholeMove(words), words);
  for (const cmd of ["c", "r 5", "f 3", "s e2", "k h", "b h2e2", "resign"]) assert.ok(!isWholeMove(cmd), cmd);
});
