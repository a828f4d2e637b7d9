// What a blind player still owes, on the seat page's screen-reader mode (found by playing
// it by keyboard): a reload said only whose turn it was and the last move, leaving out the
// words he had said, the move he had made on his board, the opponent's standing draw offer
// and the board correction he owed; a press with his announcement unfinished, or with a
// move check to answer, was a clock violation at once, unasked; after each violation he
// was not told it was still his turn; a slip of the command field read him the whole help;
// an impossible word named red's file with a digit (第 2 路) where his notation writes 二;
// after resigning, what he typed on the result line went nowhere.
// Now the join summary says what is under way and owed, the press asks first (Cancel
// focused), and the violation says what comes next.

import { test } from "node:test";
import assert from "node:assert/strict";
import { browser, startServer, waitText } from "./harness.js";
import { seatAt } from "./event.js";
import { tabTo } from "./a11y.js";
import { audit, hears, play, run, save, says, spoken, srPage } from "./sr.js";

const PHONE = { width: 390, height: 844 };

/** What red heard before each reload, for the transcript. */
const before = [];

/** Reloads a seat's page and waits for what it says on joining again. */
async function rejoin(page) {
  before.push(...(await spoken(page)), { region: "polite", at: 0, text: "── (reload) ──" });
  await page.reload();
  await waitText(page, "#summary", "你是");
  await tabTo(page, "#cmd");
  return (await hears(page, /你是紅方/)).text;
}

/** Runs `z` and expects the page to ask first, not to press: the question's text. */
async function pressAsks(page) {
  await run(page, "z");
  await waitText(page, "#confirm-text", "仍要按鐘");
  const asked = await page.locator("#confirm-text").textContent();
  await page.keyboard.press("Escape");
  await page.waitForTimeout(500);
  return asked;
}

test("視障賽: a reload says what the blind player owes; a press that would be a violation asks first", async () => {
  const server = await startServer({ demo: true });
  const chrome = await browser();
  try {
    const red = await srPage(chrome, seatAt(server.seats, "red", 1).link, PHONE, "red");
    const black = await srPage(chrome, seatAt(server.seats, "black", 1).link, PHONE, "black");
    await run(black, "z");
    await hears(red, /^對局開始，紅方先走。輪到你/);

    // Red moves on his board and says two of his four words (6.3(6): they bind).
    await says(red, "b h2e2", /你在棋盤走了/);
    await says(red, "炮二", /二：/);
    // Pressing now, the announcement unfinished, would be a clock violation: asked first.
    assert.match(await pressAsks(red), /你尚未報棋/);
    // His page reloads: he is told what he has said and done of this turn.
    let joined = await rejoin(red);
    assert.match(joined, /^輪到你。/);
    assert.match(joined, /你本輪已報「炮二」，報棋未完/);
    assert.match(joined, /你已在棋盤走子/);
    await says(red, "平五", /報棋完成/);
    let n = (await spoken(red)).length;
    await run(red, "z");
    await hears(red, /你走了 炮二平五/, n);

    // Black offers a draw with his move (69(2)(b)); red reloads before answering it.
    await says(black, "o", /你已提和/);
    await play(black, "h9g7", "h8+7");
    await hears(red, /對手的提和生效/);
    joined = await rejoin(red);
    // The keypad's words (the shared summary.offer), the page's keys after.
    assert.match(joined, /對手提和，未回應：y 接受，n 不接受/);
    await says(red, "n", /你不接受提和/);

    // Red's board move is not the move he announces (傌二進一 on the board, 傌二進三 said):
    // the move check (6.4) owes a board set right; a press before it asks first.
    await says(red, "b h0i2", /你在棋盤走了/);
    await says(red, "傌二進三", /報棋完成/);
    n = (await spoken(red)).length;
    await run(red, "z");
    await hears(red, /走子檢查/, n);
    assert.match(await pressAsks(red), /你尚未完成走子檢查/);
    joined = await rejoin(red);
    assert.match(joined, /你須把棋盤修正為 h0g2/);
    // Nothing he was asked about was pressed: no violation recorded against him.
    assert.ok(![...before, ...await spoken(red)].some((m) => /違反/.test(m.text)), "no violation");

    // A slip in the command field is answered in one short line, not the whole help.
    const slip = await says(red, "qq", /不明指令/);
    assert.ok([...slip.text].length <= 40, `a short answer: ${slip.text}`);

    audit(await spoken(red), "red");
    save("vi-owed.txt", [["red 李明 (390×844), reloaded three times; times from each load", [...before, ...await spoken(red)]]]);
    assert.deepEqual([...red.errors, ...black.errors], []);
  } finally {
    await chrome.close();
    server.stop();
  }
});

test("視障賽: after his own violation the blind player hears it in words and that it is still his turn", async () => {
  const server = await startServer({ demo: true });
  const chrome = await browser();
  try {
    const red = await srPage(chrome, seatAt(server.seats, "red", 1).link, PHONE, "red");
    const black = await srPage(chrome, seatAt(server.seats, "black", 1).link, PHONE, "black");
    // Joining is one message, the summary: nothing else that a screen reader reads by
    // itself holds text (the status line's 「已連線」 was a second one).
    const speaking = await red.evaluate(() => [...document.querySelectorAll("[role=status], [role=alert], [aria-live]:not([aria-live=off])")]
      .filter((e) => e.textContent.trim()).map((e) => e.id));
    assert.deepEqual(speaking, ["live-polite"], "only the summary is said on joining");
    // `t` says the turn to him in the second person (it said 輪到紅方 before the start):
    // black starts the clocks, then he moves first (95(3); the keypad's words).
    await says(red, "t", /^未開鐘：黑方按鐘後由你先走/);
    await run(black, "z");
    await hears(red, /^對局開始，紅方先走。輪到你/);
    await says(red, "t", /^輪到你/);
    // Black's word out of turn is refused to him in the second person (it said 不是黑方的輪次).
    const refused = await says(black, "炮", /輪次/);
    assert.match(refused.text, /現在不是你的輪次/);
    // The summary on the page, browsed later, is current (it stayed 「未開鐘」 all game).
    await red.waitForFunction(() => document.querySelector("#summary").textContent.startsWith("輪到你"));
    await says(red, "b h2e2", /你在棋盤走了/);
    // He presses anyway (Shift+Tab to 確定, Enter): the violation, its tally in words, and
    // what comes next.
    await run(red, "z");
    await waitText(red, "#confirm-text", "仍要按鐘");
    await red.keyboard.press("Shift+Tab");
    await red.keyboard.press("Enter");
    const told = await hears(red, /按鐘違規/);
    assert.equal(told.region, "assertive");
    assert.match(told.text, /第 1 次，上限 4 次/);
    assert.match(told.text, /仍輪到你：d 聽須做甚麼/);
    // An impossible word names the file as his notation writes it (二, not 2).
    const impossible = await says(red, "俥二", /不可能/);
    assert.match(impossible.text, /第二路沒有紅方俥/);
    // He resigns (asked first); the focus is in the command field, and what he types next
    // is a command as before.
    await run(red, "resign");
    await waitText(red, "#confirm-text", "認負即時生效");
    await red.keyboard.press("Shift+Tab");
    await red.keyboard.press("Enter");
    await hears(red, /^對局結束：你負/);
    await red.waitForFunction(() => document.activeElement?.id === "cmd");
    const n = (await spoken(red)).length;
    await red.keyboard.type("l");
    await red.keyboard.press("Enter");
    await hears(red, /^紅方 |^尚未走子/, n);
    audit(await spoken(red), "red");
  } finally {
    await chrome.close();
    server.stop();
  }
});

test("視障賽: an outage is said once, and the way back says where he stands", async () => {
  const server = await startServer({ demo: true });
  const chrome = await browser();
  try {
    const red = await srPage(chrome, seatAt(server.seats, "red", 1).link, PHONE, "red");
    await hears(red, /你是紅方/);
    await red.waitForFunction(() => window.spokenSince() > 700);
    const n = (await spoken(red)).length;
    await server.crash();
    // Three attempts to reconnect (one each 1.5 s) while the server is down.
    await red.waitForTimeout(5000);
    const during = (await spoken(red)).slice(n);
    assert.deepEqual(during.map((m) => [m.region, m.text]), [["assertive", "連線中斷，正在重新連線"]], "said once");
    await server.restart();
    await hears(red, /^未開鐘：黑方按鐘後由你先走。.*你是紅方/, n + 1);
    // A frozen server: no answer for 10 s (「連線無回應」), then the attempts to connect
    // again fail (「連線中斷」): still one message for the one outage.
    await red.waitForFunction(() => window.spokenSince() > 700);
    const m = (await spoken(red)).length;
    server.freeze(true);
    await red.waitForTimeout(16000);
    server.freeze(false);
    const frozen = (await spoken(red)).slice(m).filter((x) => /連線/.test(x.text));
    assert.deepEqual(frozen.map((x) => [x.region, x.text]), [["assertive", "連線無回應，正在重新連線"]], "said once");
    await hears(red, /你是紅方/, m + 1);
  } finally {
    await chrome.close();
    server.stop();
  }
});
