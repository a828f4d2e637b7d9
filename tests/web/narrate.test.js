// What a seat's screen reader is told, checked over every event the server can send
// (the samples of `baoqi protocol samples`, as in protocol.test.js): what a seat's screen
// reader is told of each, for both seats and every verbosity, has its first sentence within
// the first 40 characters (a 40-cell braille line shows it whole), reads no symbol aloud
// (× ○, 1/2-1/2), and speaks of the player in the second person. Node, no browser.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { baoqiBin } from "./harness.js";
import { Narrator, VERBOSITY_NAME } from "../../server/assets/app/narrate.js";
import { PHRASES } from "../../server/assets/app/phrases.js";

const samples = JSON.parse(execFileSync(baoqiBin(), ["protocol", "samples"], { encoding: "utf8" }));
const BRAILLE = 40;

/** Everything a seat hears of the samples, one event at a time, each burst flushed. */
function hear(me, verbosity, ownTurn) {
  const n = new Narrator(me, () => verbosity, () => ownTurn);
  const out = [];
  for (const ev of samples.events) out.push(...n.hear(ev).map((m) => ({ ...m, ev })), ...n.flush().map((m) => ({ ...m, ev })));
  return out;
}

test("every message a seat hears has its first sentence within 40 characters, no symbol read out", () => {
  let count = 0;
  for (const me of ["red", "black"]) {
    for (const v of ["auto", "terse", "full"]) {
      for (const own of [true, false]) {
        for (const m of hear(me, v, own)) {
          const first = m.text.split("。")[0];
          assert.ok([...first].length <= BRAILLE, `${me}/${v}: 「${m.text}」 (${m.ev.type})`);
          assert.doesNotMatch(m.text, /1\/2|[×○]|undefined|null/, `${me}/${v}: 「${m.text}」`);
          count += 1;
        }
      }
    }
  }
  assert.ok(count > 100, `${count} messages`);
});

test("what concerns the player is said to him: 你, never his own side's name first", () => {
  for (const me of ["red", "black"]) {
    const mine = hear(me, "full", false).filter((m) => (m.ev.side ?? m.ev.by) === me && !["turn", "time_report", "time_alert"].includes(m.ev.type));
    assert.ok(mine.length > 10);
    const own = me === "red" ? "紅方" : "黑方";
    for (const m of mine) assert.ok(!m.text.startsWith(own), `${me}: 「${m.text}」 (${m.ev.type})`);
  }
});

test("an opponent's move is one message, the turn first; terse leaves out his words", () => {
  const n = new Narrator("red", () => "terse", () => false);
  const mv = { iccs: "h9g7", words: ["horse", "8", "forward", "7"], captured: "cannon", check: true };
  const burst = [
    { type: "word", side: "black", word: "horse", slot: 0, possible: true, completions: 3 },
    { type: "pressed", side: "black" },
    { type: "checked", side: "black", outcome: "agree" },
    { type: "moved", side: "black", ply: 2, mv },
    { type: "clock" },
    { type: "turn", side: "red", ply: 3 },
    { type: "time_report", reason: "press", times: [{ side: "red", ms: 60000 }, { side: "black", ms: 30000 }] },
  ];
  const said = burst.flatMap((ev) => n.hear(ev)).concat(n.flush());
  assert.deepEqual(said.map((m) => m.text), ["輪到你。黑方 馬８進７，吃炮，將軍", "你 1 分鐘。對手 30 秒"]);
  assert.ok(said.every((m) => !m.urgent));
});

test("a board that differs from the game is said with what happens next and who puts it right, not as points alone (附表七 7.4(2)(g))", () => {
  const evs = samples.events.filter((e) => e.type === "board_diverges");
  assert.deepEqual(evs.map((e) => e.board).sort(), ["regular", "vi"], "a sample of each board");
  for (const me of ["red", "black"]) {
    for (const ev of evs) {
      // His own board he puts right (7.4(2)(g)(i)); another the referee corrects (7.4(2)(g)(iv)).
      for (const own of ["vi", "regular"]) {
        const [m] = new Narrator(me, () => "auto", () => true, () => own).hear(ev);
        assert.equal(m.urgent, true, "said at once");
        const next = ev.board === own ? "請改正" : "已請裁判處理";
        assert.match(m.text, new RegExp(`^.{4}與對局不符。${next}（.+）。附表七 7\\.4\\(2\\)\\(g\\)\\(iv\\)$`), m.text);
      }
    }
  }
});

test("his fourth word binds once, by the announcement; an illegal one is never called complete (6.3(6))", () => {
  const n = new Narrator("red", () => "auto", () => true);
  const words = ["cannon", "8", "across", "5"];
  const last = { type: "word", side: "red", by: "player", word: "5", slot: 3, possible: true, completions: 1 };
  assert.deepEqual(n.hear(last), [], "the fourth word waits for the announcement's verdict");
  const legal = n.hear({ type: "announced", side: "red", by: "player", words, mv: "h2e2", illegal: null });
  assert.deepEqual(legal.map((m) => m.text), ["五：報棋完成，不能反悔"]);
  const illegal = n.hear({ type: "announced", side: "red", by: "player", words, mv: null, illegal: { illegal: "self_check", mv: "h2e2" } });
  assert.equal(illegal.length, 1);
  assert.match(illegal[0].text, /^你報的「炮八平五」非法。/);
  assert.doesNotMatch(illegal[0].text, /報棋完成/);
});

test("a deaf opponent's words said by the referee or his proxy are said as theirs (7.4(2)(d))", () => {
  const n = new Narrator("red", () => "auto", () => false);
  const said = (by) => n.hear({ type: "word", side: "black", by, word: "horse", slot: 0, possible: true, completions: 3 }).map((m) => m.text);
  assert.deepEqual(said("referee"), ["裁判代對手報：馬"]);
  assert.deepEqual(said("proxy"), ["代理代對手報：馬"]);
  assert.deepEqual(said("player"), ["對手報：馬"]);
});

test("a read-back is echoed in the mover's characters: black's 車 and 9, not red's 俥 and 九 (7.4(2)(g)(ii))", () => {
  const n = new Narrator("red", () => "full", () => true);
  n.hear({ type: "repeat_due", side: "red", mover: "black", mirror: true, words: ["rook", "9", "across", "8"], article: "7.4(2)(g)(ii)" });
  const first = n.hear({ type: "repeated", side: "red", word: "rook", text: "車", done: false, mismatch: false });
  const second = n.hear({ type: "repeated", side: "red", word: "9", text: "9", done: false, mismatch: false });
  assert.deepEqual([...first, ...second].map((m) => m.text), ["車", "９"]);
  // In auto, his screen reader echoes his keys: the page says only the completion.
  const auto = new Narrator("red", () => "auto", () => true);
  auto.hear({ type: "repeat_due", side: "red", mover: "black", mirror: true, words: ["rook", "9", "across", "8"], article: "7.4(2)(g)(ii)" });
  assert.deepEqual(auto.hear({ type: "repeated", side: "red", word: "rook", text: "車", done: false, mismatch: false }), []);
  assert.deepEqual(auto.hear({ type: "repeated", side: "red", word: "8", text: "8", done: true, mismatch: false }).map((m) => m.text), ["複讀完成"]);
});

test("a69_2_d: `d` says a standing offer first, how to answer it, and that a word or a touched piece declines it", async () => {
  const { command } = await import("../../server/assets/app/nvui.js");
  const state = samples.server_messages.find((m) => m.type === "state").snapshot;
  const snap = (offer) => ({ ...state, phase: "playing", to_move: "red", offer });
  assert.match(command("d", snap({ side: "black", stands: true, card: false }), "red"), /^對手提和：y 接受，n 不接受。報棋或摸子即拒絕。/);
  assert.match(command("d", snap({ side: "red", stands: false, card: false }), "red"), /^你已提和，待對手回應。/);
  assert.match(command("d", snap(null), "red"), /^輪到你：/);
});

test("a verbosity is named on the page as the keypad names it (the phrasebook's words)", () => {
  for (const v of ["auto", "terse", "full"]) {
    assert.equal(VERBOSITY_NAME[v], PHRASES[`keypad.verbosity_${v}`][0], v);
  }
  assert.equal(VERBOSITY_NAME.terse, "簡短");
});

test("a move check says what he must do first, once; asked again after a wrong re-announcement, it is said again (附表七 6.4(b))", () => {
  const n = new Narrator("red", () => "auto", () => true);
  const cannon = ["cannon", "2", "across", "5"];
  const said = (evs) => evs.flatMap((ev) => [...n.hear(ev), ...n.flush()]).map((m) => m.text);
  const check = said([
    { type: "checked", side: "red", outcome: "b", articles: ["6.4(b)"], board: "h2e2", board_words: cannon,
      announced: { words: ["cannon", "2", "forward", "5"], illegal: { illegal: "unresolved" } } },
    { type: "reannounce_required", side: "red", mv: "h2e2", words: cannon },
  ]);
  assert.equal(check.length, 1, JSON.stringify(check));
  assert.match(check[0], /^你須重新報棋：炮二平五。報棋炮二進五非法，以棋盤為準。走子檢查 \(b\)/);
  const again = said([{ type: "reannounce_required", side: "red", mv: "h2e2", words: cannon }]);
  assert.deepEqual(again, ["你須重新報棋「炮二平五」"]);
});
