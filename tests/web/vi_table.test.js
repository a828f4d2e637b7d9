// A 視障賽 table (附表七 第六部分) in a real browser: both players visually impaired, both
// announce word by word on their player pages (6.3(2)), tapped or typed, the talking clock
// on every press (7.1(1)(b)), a correction after an impossible prefix (6.3(6)(b)), 走子檢查
// (b) shown to the referee as an open call with its consequence (6.4(b)), a draw offered by
// voice and accepted (69(2)), the result verified orally from the monitor's call (6.8).
// axe-core on every page in every state; screenshots under target/screenshots/vi-*.

import assert from "node:assert/strict";
import { open, waitText, MONITOR_VIEW } from "./harness.js";
import { eventTest, seatAt, boardMove, sayWords } from "./event.js";
import { command } from "./a11y.js";

const TABLE = 1;
eventTest("vi", "a 視障賽 table driven from two player pages and the monitor", play);

async function play({ server, chrome, pages }) {
  const { seats } = server;
  const mon = pages.add("monitor", await open(chrome, seatAt(seats, "referee", TABLE).link, MONITOR_VIEW));
  const red = pages.add("red", await open(chrome, seatAt(seats, "red", TABLE).link));
  const black = pages.add("black", await open(chrome, seatAt(seats, "black", TABLE).link));
  await waitText(red, "#who", "陳明");
  await waitText(black, "#who", "林華");
  await waitText(mon, "#tables", "視障賽 VI");
  await mon.keyboard.press("1");
  await waitText(mon, "#current", "視障賽 VI");
  const card = `#table-${TABLE}`;

  // Black presses: the clocks start, red to move (95(3)).
  await black.locator("#press").click();
  await waitText(red, "#turn", "輪到紅方（我）");
  await pages.state("01-start");

  // Red moves 炮二平五 on the VI board and announces it word by word; the referee's monitor
  // shows each word live, black's page shows the words as they come.
  // A tap on another piece of one's own side picks that one instead: no piece moves onto its
  // own side, so nothing is sent.
  const pt = (page, p) => page.locator(`#board button[data-pt="${p}"]`);
  await pt(red, "h0").click();
  await pt(red, "h2").click();
  assert.match(await pt(red, "h2").getAttribute("aria-label"), /已選/);
  assert.equal(await red.locator("#answer").textContent(), "", "nothing was sent");
  await pt(red, "e2").click();
  await waitText(red, "#answer", "走子 h2e2（炮二平五）：已接受");
  await sayWords(red, ["炮", "二"]);
  await waitText(red, "#verdict", "可能的着法");
  await waitText(mon, `${card} .words`, "炮");
  await waitText(black, "#words", "炮");
  await sayWords(red, ["平", "五"]);
  await waitText(red, "#verdict", "已報（不能反悔）：炮二平五");
  await red.locator("#press").click();
  await waitText(black, "#moves", "炮二平五");
  // The talking clock speaks both times on the press (7.1(1)(b)): shown in the feed.
  await waitText(black, "#feed", "時間：");

  // Black: 炮 5 cannot be any move (no cannon on file 5): the prefix is impossible and the
  // player may start again (6.3(6)(b)); the log keeps both attempts.
  await sayWords(black, ["炮", "5"]);
  await waitText(black, "#feed", "不可能是任何着法");
  await waitText(mon, `${card} .words .bad`, "５");
  await pages.state("03-impossible", ["monitor", "black"]);
  await boardMove(black, "h9g7");
  // Typed instead of tapped: 馬8進7 in one go, sent word by word, each binding (6.3(6)).
  await black.locator("#typed-word").fill("馬8進7");
  await black.locator("#typed-word").press("Enter");
  await waitText(black, "#verdict", "已報（不能反悔）：馬８進７");
  await black.locator("#press").click();
  await waitText(red, "#moves", "馬８進７");
  // Black's own page has the move too before he asks (the two pages' feeds are apart).
  await waitText(black, "#moves", "馬８進７");
  // Black asks what stands on his file 8 as his notation counts it (from his right: h).
  assert.equal(await command(black, "f 8"), "黑方第8路，h 線，2 子。h7 黑砲，h0 紅傌");

  // Red: 俥一平二 is illegal (the horse stands on h0), the board shows 俥一進一, a legal move
  // of the announced piece: check (b), the board stands, announce again, 記錄違例 (6.4(b)).
  await sayWords(red, ["車", "一", "平", "二"]);
  await boardMove(red, "i0i1");
  await red.locator("#press").click();
  await waitText(mon, `${card} .calls`, "走子檢查 (b)");
  await waitText(mon, `${card} .calls`, "〔附表七 6.4(b)〕");
  await waitText(mon, `${card} .calls`, "違反記錄規則 1／4");
  await waitText(red, "#mode", "走子檢查 (b)：請重新報棋");
  await pages.state("04-check-b");
  // The referee presses the card's scoresheet button while red's next word arrives (the card
  // is redrawn on every event): the click still counts when he lets go.
  const sheet = mon.locator(`${card} button[data-key="sheet"]`);
  await sheet.scrollIntoViewIfNeeded();
  const at = await sheet.boundingBox();
  await mon.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
  await mon.mouse.down();
  await sayWords(red, ["車"]);
  await new Promise((r) => setTimeout(r, 300)); // the word reaches the monitor meanwhile
  await mon.mouse.up();
  assert.equal(await mon.evaluate(() => document.activeElement?.id), "h-sheet", "the scoresheet opened");
  await waitText(mon, "#sheet", "炮二平五");
  await waitText(mon, `${card} .words`, "俥"); // red writes his rook 俥
  await sayWords(red, ["一", "進", "一"]);
  // He presses once his page has the announcement (a press before it asks first).
  await waitText(red, "#verdict", "已報（不能反悔）：俥一進一");
  await red.locator("#press").click();
  await waitText(black, "#moves", "俥一進一");
  await waitText(mon, card, "沒有待處理事項");
  const tally = await mon.locator(`${card} .tally`).textContent();
  assert.match(tally, /紅方0／21／40／4/, "red: one recording violation (126(1)(b))");

  // Black offers a draw by voice in his turn, moves, announces, presses (69(2)(b)): the
  // monitor lists the open offer; red accepts.
  await black.locator("#offer").click();
  await waitText(black, "#answer", "提和：已接受");
  await waitText(mon, `${card} .calls`, "黑方提和（本輪結束後生效）");
  await boardMove(black, "i9h9");
  await sayWords(black, ["車", "9", "平", "8"]);
  await black.locator("#press").click();
  await waitText(mon, `${card} .calls`, "已生效，待紅方接受或拒絕");
  await pages.state("05-offer");
  // Accepting ends the game, so the page asks first (69(2)).
  await red.locator("#accept").click();
  await waitText(red, "#confirm-text", "接受和棋即時結束對局");
  await pages.state("05b-confirm-accept", ["red"]);
  await red.locator("#confirm-yes").click();
  await waitText(red, "#turn", "對局結束");
  await waitText(black, "#result", "1/2-1/2");

  // The result is to be verified orally: the monitor's call opens its ruling (6.8).
  await waitText(mon, `${card} .calls`, "須口頭核實");
  await mon.locator(`${card} .calls button[data-action="verify_result"]`).click();
  await mon.locator("#dlg[open]").waitFor();
  await mon.locator("#f-note").fill("雙方口頭確認和局");
  await mon.locator("#dlg-yes").click();
  await waitText(mon, card, "已口頭核實");
  await waitText(mon, card, "沒有待處理事項");
  // With nothing open at the table, its call's banner is gone from the monitor.
  await mon.locator("#banner.on").waitFor({ state: "detached" });
  await pages.state("06-verified");
}
