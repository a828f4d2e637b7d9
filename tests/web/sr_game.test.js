// A whole game played by keyboard alone in the seat page's
// screen-reader mode (文字模式（讀屏器）), on each demo table, reading what the live regions
// say, in order and with their times, as a screen reader (and a 40-cell braille line) would.
// Every action goes through the one command field: words as AXF letters, ICCS or
// characters, `b` for the board move, `z` the clock, `o`/`n` a draw offer and its refusal,
// `resign` (asked first). Checked on what is heard: one message per
// happening, the opponent's move with the turn first and in the second person, the mover
// told his own capture, no score read as 1/2-1/2, nothing in both regions, and every
// message's first sentence within the first 40 characters. The transcripts are written to
// target/transcripts/ (docs/screen-reader-transcript.md is the 視障賽 one).

import { test } from "node:test";
import assert from "node:assert/strict";
import { CARD_VIEW, MONITOR_VIEW, axe, browser, holdPointer, open, shot, startServer, waitText } from "./harness.js";
import { seatAt, deafMove } from "./event.js";
import { LISTEN_MS, audit, hears, play, run, save, says, spoken, srPage } from "./sr.js";

const DESK = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

test("視障賽: a whole game by keyboard in the screen-reader mode, heard message by message", async () => {
  const server = await startServer({ demo: true });
  const chrome = await browser();
  try {
    const red = await srPage(chrome, seatAt(server.seats, "red", 1).link, DESK, "red");
    const black = await srPage(chrome, seatAt(server.seats, "black", 1).link, PHONE, "black");

    // Black starts the clocks (95(3)); red hears it is his turn.
    await run(black, "z");
    await hears(red, /^對局開始，紅方先走。輪到你/);
    // 1. 炮二平五 (AXF letters) 馬８進７ (WXF letters, black's numbers).
    await play(red, "h2e2", "C2=5");
    await says(black, "b h9g7", /你在棋盤走了馬８進７/);
    await says(black, "h8+7", /報棋完成/);
    // In his opponent's turn (auto) red hears black's words as they are said, as across
    // the board: one message each.
    await hears(red, /對手報：７/);
    // Black presses: red hears one message for it (the press, the check that agreed, the
    // move, the turn, the talking clock), his turn first.
    let n = (await spoken(red)).length;
    await run(black, "z");
    const heardMove = await hears(red, /^輪到你。黑方 馬８進７/, n);
    await red.waitForTimeout(300);
    const between = (await spoken(red)).slice(n);
    assert.equal(between.length, 1, `one message for black's press: ${JSON.stringify(between.map((m) => m.text))}`);
    assert.equal(heardMove.region, "polite");

    // Queries by keyboard: the time (the side to move first, 6.5(2)), the last move, a file
    // as his notation counts it, the horses, stepping back through the moves, his duty.
    await says(red, "c", /^時間：你 /);
    // …said at once to him who asked; his opponent is not interrupted by it.
    assert.ok(!(await spoken(black)).some((m) => m.region === "assertive" && m.text.startsWith("時間")), "black did not ask");
    await says(red, "l", /^黑方 馬８進７。第 2 着/);
    await says(red, "k h", /^紅方傌：b0，h0。黑方馬：b9，g7/);
    await says(red, "[", /^黑方 馬８進７。第 2 着/);
    await says(red, "[", /^紅方 炮二平五。第 1 着/);
    await says(red, "d", /^輪到你：走子、報棋，然後按鐘/);

    // 2. Red offers a draw (it stands when his turn ends, 69(2)(b)) and takes a pawn with
    // the words typed in characters: he is told his own capture.
    await says(red, "o", /^你已提和/);
    await says(red, "b e2e6", /你在棋盤走了炮五進四/);
    await says(red, "炮五進四", /報棋完成/);
    n = (await spoken(red)).length;
    await run(red, "z");
    await hears(red, /你走了 炮五進四，吃卒/, n);
    await hears(black, /^輪到你。紅方 炮五進四，吃卒/);
    await hears(black, /對手的提和生效/);
    // Black declines and takes the cannon (WXF letters): he is told his capture, red hears
    // it with his turn.
    await says(black, "n", /^你不接受提和/);
    await hears(red, /對手不接受提和/);
    await play(black, "g7e6", "H7+5");
    await hears(red, /^輪到你。黑方 馬７進５，吃炮/);
    // 3. 俥九進一 馬５退７, then 炮八平五 with its words in ICCS: check; black hears it first.
    await play(red, "a0a1", "R9+1");
    await play(black, "e6g7", "h5-7");
    await play(red, "b2e2", "b2e2");
    await hears(black, /^輪到你。紅方 炮八平五，將軍/);
    // Black resigns, asked first (Cancel focused, 確定 one Shift+Tab back).
    await run(black, "resign");
    await waitText(black, "#confirm-text", "認負即時生效");
    await black.keyboard.press("Shift+Tab");
    await black.keyboard.press("Enter");
    const over = await hears(red, /^對局結束：你勝/);
    assert.equal(over.region, "assertive");
    await hears(black, /^對局結束：你負/);
    assert.deepEqual(await axe(red, "screen-reader game over"), []);
    await shot(red, "sr-game-over-desk");
    await shot(black, "sr-game-over-phone");

    const [r, b] = [await spoken(red), await spoken(black)];
    audit(r, "red");
    audit(b, "black");
    save("vi-table.txt", [["red 李明 (1280×800)", r], ["black 張華 (390×844)", b]]);
    assert.deepEqual([...red.errors, ...black.errors], []);
  } finally {
    await chrome.close();
    server.stop();
  }
});

/** The deaf player presses his clock: what red's page says of it (the press, the move, the
 * turn and his duty) is one message, polite. */
async function deafPress(cd, red) {
  await red.waitForFunction((ms) => window.spokenSince() > ms, LISTEN_MS);
  const n = (await spoken(red)).length;
  await cd.locator("#press").click();
  const said = await hears(red, /^輪到你。黑方 /, n);
  await red.waitForTimeout(300);
  const all = (await spoken(red)).slice(n);
  assert.equal(all.length, 1, `one message for the press: ${JSON.stringify(all)}`);
  assert.equal(said.region, "polite");
}

/** Red's duty at the 共融賽 table, by keyboard: the opponent's move on his own board, then
 * the confirmation (7.4(2)(g)(i)–(ii)). */
async function mirrorByKeys(page, mv) {
  await says(page, `b ${mv}`, /你在棋盤走了/);
  await says(page, "e", /複讀完成/);
}

test("共融賽: the blind player's whole game by keyboard against a deaf player, heard message by message", async () => {
  const server = await startServer({ demo: true });
  const chrome = await browser();
  try {
    const red = await srPage(chrome, seatAt(server.seats, "red", 2).link, PHONE, "red");
    const cd = await open(chrome, seatAt(server.seats, "black", 2).link, CARD_VIEW);
    const mon = await open(chrome, seatAt(server.seats, "referee", 2).link, MONITOR_VIEW);
    await cd.waitForURL(/\/card/);
    await waitText(mon, "#tabs", "共融賽");
    await mon.keyboard.press("2");
    await waitText(mon, "#current", "共融賽");

    await cd.locator("#press").click();
    await hears(red, /^對局開始，紅方先走。輪到你/);
    await play(red, "h2e2", "C2=5");
    let n = (await spoken(red)).length;
    await deafMove(cd, mon, "h2e2", "h9g7", "馬 8 進 7");
    await deafPress(cd, red);
    // His turn, the move and his duty, in one message, in that order.
    const duty = await hears(red, /^輪到你。黑方 馬８進７。在你的棋盤走對手的馬８進７/, n);
    assert.equal(duty.region, "polite");
    await mirrorByKeys(red, "h9g7");
    await play(red, "e2e6", "炮五進四");
    n = (await spoken(red)).length;
    await deafMove(cd, mon, "e2e6", "g7e6", "馬 7 進 5");
    await deafPress(cd, red);
    await hears(red, /^輪到你。黑方 馬７進５，吃炮。在你的棋盤走對手的/, n);
    // A press before the duty is done would be a clock violation: `d` says what is owed.
    await says(red, "d", /^在你的棋盤走對手的馬７進５/);
    await mirrorByKeys(red, "g7e6");
    await play(red, "a0a1", "R9+1");
    await deafMove(cd, mon, "a0a1", "e6g7", "馬 5 退 7");
    await deafPress(cd, red);
    await hears(red, /^輪到你。黑方 馬５退７/);
    await mirrorByKeys(red, "e6g7");
    await play(red, "b2e2", "b2e2");
    // Black resigns by handing over his resignation card (附表七 7.1(2)).
    await holdPointer(cd, '#mine [data-card="black-resign"]');
    const over = await hears(red, /^對局結束：你勝。對手交出認負卡/);
    assert.equal(over.region, "assertive");
    assert.deepEqual(await axe(red, "共融賽 screen-reader game over"), []);
    await shot(red, "sr-inclusive-game-over-phone");

    const r = await spoken(red);
    audit(r, "red");
    save("inclusive-table.txt", [["red 王芳 (390×844)", r]]);
    assert.deepEqual(red.errors, []);
  } finally {
    await chrome.close();
    server.stop();
  }
});
