// The announcing page (/proxy) in a real browser, on a 共融賽 table where the deaf black
// player named a proxy before the game (7.4(2)(d)(ii)): after the player's signal the proxy
// gives the words one by one, each shown back with the arbiter's verdict, corrects after an
// impossible prefix (7.4(2)(f)(ii)) and presses the clock for him; then the referee, from
// the monitor's link, announces the next move for the player (7.4(2)(d)(i)) and the player
// presses; last, a draw offered by card and accepted on the card UI by exchanging cards
// (7.1(2)). axe-core on every page in every state; screenshots under target/screenshots/proxy-*.

import assert from "node:assert/strict";
import { open, waitText, holdPointer, MONITOR_VIEW, CARD_VIEW } from "./harness.js";
import { eventTest, seatAt, boardMove, sayWords, mirror } from "./event.js";

const TABLE = 3;
eventTest("proxy", "a proxy and the referee announce word by word for a deaf player", run);
eventTest("repeat", "a player without notation repeats the referee's words as his own move", repeat);

/** One full red turn on the VI board (mirroring black's last move first when owed,
 * 7.4(2)(g)(ii)). */
async function redTurn(red, owed, mv, words) {
  if (owed) await mirror(red, owed);
  await boardMove(red, mv);
  await sayWords(red, words);
  await red.locator("#press").click();
}

/** The deaf player mirrors red's move (7.4(2)(g)(ii)), moves, and signals (7.4(2)(d)). */
async function blackMoves(card, theirs, mv) {
  await mirror(card, theirs);
  await boardMove(card, mv);
  await card.locator("#signal").click();
  await waitText(card, "#answer", "請代為報棋：已接受");
}

async function run({ server, chrome, pages }) {
  const { seats } = server;
  const proxySeat = seatAt(seats, "black_proxy", TABLE);
  assert.match(proxySeat.link, /\/proxy#token=/, "a proxy's link opens the announcing page");
  const mon = pages.add("monitor", await open(chrome, seatAt(seats, "referee", TABLE).link, MONITOR_VIEW));
  const red = pages.add("red", await open(chrome, seatAt(seats, "red", TABLE).link));
  const card = pages.add("card", await open(chrome, seatAt(seats, "black", TABLE).link, CARD_VIEW));
  const proxy = pages.add("proxy", await open(chrome, proxySeat.link));
  await waitText(proxy, "#who", "梁代理（黑方代理）");
  await waitText(proxy, "#for", "為黑方報棋");
  assert.equal(await proxy.locator("#offer, #resign").count(), 0, "a proxy never offers or resigns (69)");
  assert.ok(await proxy.locator("#press").isVisible(), "the proxy presses for his player");

  await card.locator("#press").click();
  await waitText(red, "#turn", "輪到紅方（我）");
  await redTurn(red, null, "h2e2", ["炮", "二", "平", "五"]);
  await waitText(proxy, "#moves", "炮二平五");

  // The deaf player mirrors (7.4(2)(g)(ii)), moves 馬8進7 and signals (7.4(2)(d)): the proxy
  // is told to announce.
  await blackMoves(card, "h2e2", "h9g7");
  await waitText(proxy, "#banner", "黑方已示意");
  await waitText(proxy, "#todo", "請代理代為報棋並按鐘");
  await pages.state("01-signalled");

  // 炮 5: no cannon on that file, the prefix is impossible, so the proxy may start again.
  await sayWords(proxy, ["炮", "5"]);
  await waitText(proxy, "#verdicts", "不可能是任何着法");
  await sayWords(proxy, ["馬", "8"]);
  await waitText(proxy, "#verdicts", "摸子：馬（h9）");
  await waitText(proxy, "#verdicts", "可能的着法，尚餘");
  await sayWords(proxy, ["進"]);
  // The keys that may follow are marked (black's numerals come back full-width, ７).
  await proxy.locator('#keys button[data-word="7"].next').waitFor();
  assert.equal(await proxy.locator('#keys button[data-word="5"].next').count(), 0);
  await sayWords(proxy, ["7"]);
  await waitText(proxy, "#verdict", "已報（不能反悔）：馬８進７");
  await waitText(card, "#heard-move", "馬８進７");
  await pages.state("02-proxy-announced", ["proxy", "card"]);
  await proxy.locator("#press").click();
  await waitText(proxy, "#answer", "代按棋鐘：已接受");
  await waitText(red, "#moves", "馬８進７");

  // Next turn the referee announces for the player from the monitor's announce page.
  const href = await mon.locator(`a[data-proxy="${TABLE}"]`).getAttribute("href");
  const refPage = pages.add("referee", await open(chrome, new URL(href, server.base).href));
  await waitText(refPage, "#who", "監局裁判");
  assert.ok(!(await refPage.locator("#press").isVisible()), "after the referee's words the player presses (7.4(2)(d)(i))");
  await redTurn(red, "h9g7", "h0g2", ["馬", "二", "進", "三"]);
  await blackMoves(card, "h0g2", "i9h9");
  await waitText(refPage, "#todo", "請代為報棋");
  await sayWords(refPage, ["車", "9", "平", "8"]);
  await waitText(refPage, "#verdicts", "四字完成");
  await pages.state("03-referee-announced", ["referee", "proxy", "monitor"]);
  await card.locator("#press").click();
  await waitText(red, "#moves", "車９平８");
  await waitText(mon, `#table-${TABLE}`, "輪到紅方");

  // Red offers a draw in his turn — at a table with a deaf player, by handing over his draw
  // card (7.1(2)) — and plays 傌八進七, having mirrored black's move first (7.4(2)(g)(ii)).
  // The deaf player accepts by handing his own draw card back in exchange (7.1(2), 69(2)):
  // one deliberate hold on his card, which says so.
  await mirror(red, "i9h9");
  await red.locator("#offer").click();
  await waitText(red, "#answer", "提和：已接受");
  await card.locator('#received [data-card="red-draw"]').waitFor();
  await redTurn(red, null, "b0c2", ["馬", "八", "進", "七"]);
  await waitText(card, "#heard-move", "傌八進七");
  const mine = '#mine [data-card="black-draw"]';
  await waitText(card, mine, "按住 = 交換：接受和棋");
  await pages.state("04-draw-offered-by-card", ["card"]);
  await holdPointer(card, mine);
  await waitText(card, "#answer", "交換提和卡（接受和棋）：已接受");
  await waitText(red, "#result", "1/2-1/2");
  await waitText(red, "#feed", "黑方的提和卡交換給紅方");
  await waitText(card, "#turn", "對局結束");
  await pages.state("05-draw-accepted-by-exchange", ["card", "red"]);
}

/** 7.4(2)(c) on mirrored boards: the sighted red player, who does not know notation, moves
 * first; the referee announces for him from the announcing page; red repeats the words (his
 * own move, in red's numerals), which no button may stand in for, and presses. */
async function repeat({ server, chrome, pages }) {
  const table = 6;
  const { seats } = server;
  const mon = pages.add("monitor", await open(chrome, seatAt(seats, "referee", table).link, MONITOR_VIEW));
  const red = pages.add("red", await open(chrome, seatAt(seats, "red", table).link));
  const black = pages.add("black", await open(chrome, seatAt(seats, "black", table).link));
  await waitText(red, "#who", "秦甲");
  await black.locator("#press").click();
  await waitText(red, "#turn", "輪到紅方（我）");
  await boardMove(red, "h2e2");
  const href = await mon.locator(`a[data-proxy="${table}"]`).getAttribute("href");
  const refPage = pages.add("referee", await open(chrome, new URL(href, server.base).href));
  await waitText(refPage, "#todo", "請代為報棋");
  await sayWords(refPage, ["炮", "二", "平", "五"]);
  await waitText(red, "#mode", "請複讀裁判的報棋：炮二平五");
  assert.ok(!(await red.locator("#confirm-repeat").isVisible()), "the referee's words are repeated aloud, not confirmed (6.3(7))");
  await pages.state("01-repeat-owed", ["red", "referee"]);
  await sayWords(red, ["炮", "二", "平", "五"]);
  await waitText(red, "#feed", "紅方複讀：五（完成）");
  await red.locator("#press").click();
  await waitText(red, "#moves", "炮二平五");
  await waitText(mon, `#table-${table}`, "輪到黑方");

  // The server goes away: the page says so in its status line, and a command is not left
  // "on its way" but answered at once as not sent.
  server.stop();
  await waitText(red, "#status", "連線中斷");
  assert.ok(await red.evaluate(() => document.body.classList.contains("offline")));
  await red.locator("#offer").click();
  await waitText(red, "#answer", "提和：未送出：未連線");
  await waitText(red, "#feed", "提和：未送出：未連線");
  // The page's attempts to reconnect are logged by the browser as errors: expected here.
  for (const page of [red, black, mon, refPage]) {
    page.errors.splice(0, Infinity, ...page.errors.filter((e) => !/WebSocket|ERR_CONNECTION_REFUSED/.test(e)));
  }
}
