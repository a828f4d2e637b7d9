// The pages in real use, at the sizes of the devices people hold: the deaf player's
// card UI on a tablet (1024×768) and a phone (390×844), the sighted player's page on a phone,
// the referee's monitor on a hall screen (1920×1080). What matters must be on the screen
// without scrolling and without sound: the board (a Xiangqi board, not a chess grid), the
// clocks, the cards, and every foul or returned card in a banner that stays in view.

import assert from "node:assert/strict";
import { open, waitText, holdPointer } from "./harness.js";
import { eventTest, seatAt, sayWords, boardMove, mirror } from "./event.js";

const TABLE = 7;
const TABLET = { width: 1024, height: 768 };
const PHONE = { width: 390, height: 844 };

eventTest("pages", "the card UI, the player page and the board on a tablet and a phone", run);

/** The rectangle of `selector` as the viewer sees it, or null when it is not drawn. */
async function box(page, selector) {
  return page.locator(selector).first().boundingBox();
}

/** Asserts that each of `selectors` is wholly on the screen as the page is scrolled now. */
async function onScreen(page, selectors, what) {
  const { width, height } = page.viewportSize();
  for (const s of selectors) {
    const b = await box(page, s);
    assert.ok(b, `${what}: ${s} is drawn`);
    assert.ok(b.y >= -1 && b.y + b.height <= height + 1 && b.x >= -1 && b.x + b.width <= width + 1,
      `${what}: ${s} is on the ${width}×${height} screen (${JSON.stringify(b)})`);
  }
}

/** Whether the page scrolls sideways. */
const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/** The file numbers under the board, left to right (the viewer's own, 第7條). */
const bottomNumbers = (page) => page.evaluate(() => {
  const nums = [...document.querySelectorAll("#board svg text.num")];
  const maxY = Math.max(...nums.map((t) => Number(t.getAttribute("y"))));
  return nums.filter((t) => Number(t.getAttribute("y")) === maxY)
    .sort((a, b) => Number(a.getAttribute("x")) - Number(b.getAttribute("x"))).map((t) => t.textContent).join("");
});

async function run({ server, chrome, pages }) {
  const { seats } = server;
  const cardSeat = seatAt(seats, "black", TABLE);
  const card = pages.add("card", await open(chrome, cardSeat.link, TABLET));
  const red = pages.add("red", await open(chrome, seatAt(seats, "red", TABLE).link, PHONE));
  const mon = pages.add("monitor", await open(chrome, seatAt(seats, "referee", TABLE).link, { width: 1920, height: 1080 }));
  await waitText(card, "#who", "高聰");
  await waitText(red, "#who", "高明");

  // A Xiangqi board: the river with its words, two palaces with their diagonals,
  // pieces on the intersections, files numbered as each side announces them (第7條).
  for (const page of [card, red]) {
    await page.locator("#board svg").waitFor();
    const text = await page.locator("#board svg").textContent();
    assert.match(text, /楚 河/);
    assert.match(text, /漢 界/);
    const diagonals = await page.evaluate(() => [...document.querySelectorAll("#board svg line")]
      .filter((l) => l.getAttribute("x1") !== l.getAttribute("x2") && l.getAttribute("y1") !== l.getAttribute("y2")).length);
    assert.equal(diagonals, 4, "two palaces, two diagonals each");
  }
  assert.equal(await bottomNumbers(red), "九八七六五四三二一", "red counts files from his right");
  assert.equal(await bottomNumbers(card), "987654321", "black counts files from his right");
  // Red's a0 chariot stands on the corner of the lines, not in a cell.
  const frame = await box(red, "#board svg rect.frame");
  const a0 = await box(red, '#board button[data-pt="a0"]');
  assert.ok(Math.abs(a0.x + a0.width / 2 - frame.x) < 3 && Math.abs(a0.y + a0.height / 2 - (frame.y + frame.height)) < 3,
    `a0 on the corner (${JSON.stringify(a0)} vs ${JSON.stringify(frame)})`);

  // The card UI on a tablet: the announcement, the clocks, the board, both cards and
  // the place a received card arrives, on one screen.
  const tabletParts = ["#heard-words", "#clocks", "#board .xboard", "#press",
    '#mine [data-card="black-draw"]', '#mine [data-card="black-resign"]', "#received"];
  await onScreen(card, tabletParts, "tablet");
  await pages.state("01-start");

  // On a phone: no sideways scrolling; the cards are pinned at the bottom, in reach whatever
  // is scrolled.
  await card.setViewportSize(PHONE);
  assert.equal(await sideways(card), false, "the card UI does not scroll sideways on a phone");
  assert.equal(await sideways(red), false, "the player page does not scroll sideways on a phone");
  await card.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await onScreen(card, ['#mine [data-card="black-draw"]', '#mine [data-card="black-resign"]', "#received"], "phone, scrolled down");
  await card.evaluate(() => window.scrollTo(0, 0));
  await onScreen(card, ['#mine [data-card="black-draw"]', "#received"], "phone, at the top");
  // ... and, at the top, the whole board stands above the bar: the player's own back rank
  // is not hidden under the cards (it was, until scrolled ~60 px).
  const lowest = await card.evaluate(() => Math.max(...[...document.querySelectorAll("#board button[data-pt]")]
    .map((b) => b.getBoundingClientRect().bottom)));
  const bar = await box(card, ".g-cards");
  assert.ok(lowest <= bar.y + 1, `phone: the board's last rank (bottom ${lowest}) clears the card bar (top ${bar.y})`);
  await onScreen(red, ["#turn", "#clocks"], "player page on a phone");
  await pages.state("02-phone", ["card", "red"]);
  await card.setViewportSize(TABLET);

  // Black starts the clocks; in red's turn the card UI's 按鐘 is disabled and looks it:
  // not the green of a button that acts.
  await card.locator("#press").click();
  await waitText(red, "#turn", "輪到紅方（我）");
  await card.waitForFunction(() => document.getElementById("press").disabled);
  const pressLook = await card.evaluate(() => {
    const s = getComputedStyle(document.getElementById("press"));
    return { bg: s.backgroundColor, border: s.borderStyle };
  });
  assert.notEqual(pressLook.bg, "rgb(11, 94, 43)", "a disabled 按鐘 is not green");
  assert.equal(pressLook.border, "dashed");

  // Red moves, announces and presses; black mirrors; then the card UI says what to do, not
  // that he has already signalled.
  await boardMove(red, "h2e2");
  await sayWords(red, ["炮", "二", "平", "五"]);
  await red.locator("#press").click();
  await waitText(card, "#turn", "輪到黑方（我）");
  await mirror(card, "h2e2");
  await waitText(card, "#todo", "示意");
  const before = await card.locator("#todo").textContent();
  assert.doesNotMatch(before, /已示意/, "nothing signalled yet");
  assert.match(before, /示意/);

  // Scrolled down to the feed, black hands his draw card, then presses the
  // clock before his move is done (a foul, 違反按棋鐘規則): the foul is in a banner in view,
  // it stays until dismissed, and the tally shows it.
  await holdPointer(card, '#mine [data-card="black-draw"]');
  await waitText(card, "#answer", "交出提和卡（提和）：已接受");
  await card.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await card.locator("#press").click();
  await waitText(card, "#banner.on", "按鐘");
  assert.equal(await card.locator("#banner").getAttribute("data-kind"), "foul");
  await onScreen(card, ["#banner"], "the foul's banner, page scrolled down");
  await waitText(card, "#tally", "1");
  await pages.state("03-foul", ["card"]);
  await card.waitForTimeout(1000);
  assert.ok(await card.locator("#banner.on").count(), "a foul's banner stays");
  await card.locator("#banner .banner-close").click();
  assert.equal(await card.locator("#banner.on").count(), 0, "✕ dismisses it");

  // Black moves, signals; the card UI now says so; the referee announces for him; the panel shows
  // it as announced for him, not as the opponent's.
  await boardMove(card, "h9g7");
  await card.locator("#signal").click();
  await waitText(card, "#todo", "已示意");
  await mon.locator(`#table-${TABLE}`).waitFor();
  // The call reaches the monitor after the card's answer: the ruling is filled from it.
  await mon.locator(`#table-${TABLE} [data-action="announce_for"]`).waitFor();
  await mon.keyboard.press("a");
  await mon.locator("#dlg[open]").waitFor();
  // The dialog is filled with the move on black's board, and leaves the boards in
  // view beside it.
  assert.equal(await mon.locator("#f-words").inputValue(), "馬８進７");
  const dlg = await box(mon, "#dlg");
  for (const b of await mon.locator(`#table-${TABLE} .xboard`).all()) {
    const r = await b.boundingBox();
    assert.ok(dlg.x + dlg.width <= r.x || r.x + r.width <= dlg.x || dlg.y + dlg.height <= r.y || r.y + r.height <= dlg.y,
      `the dialog ${JSON.stringify(dlg)} leaves the board ${JSON.stringify(r)} in view`);
  }
  await pages.state("03b-announce-dialog", ["monitor"]);
  await mon.keyboard.press("Enter");
  await waitText(card, "#heard-move", "馬８進７");
  assert.match(await card.locator("#h-heard").textContent(), /代我報棋/);
  await card.locator("#press").click();
  await waitText(red, "#turn", "輪到紅方（我）");
  // The move of the offer carries ＝ once in the player's move list.
  await waitText(red, "#moves", "馬８進７");
  const marks = (await red.locator("#moves").textContent()).match(/＝/g) || [];
  assert.equal(marks.length, 1, await red.locator("#moves").textContent());

  // Red declines the draw: the card comes back, and the banner says so in view.
  await card.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await red.locator("#decline").click();
  await waitText(card, "#banner.on", "交還");
  await onScreen(card, ["#banner"], "the returned card's banner, page scrolled down");
  // Red's material has not changed, so offering again now would be 連續提和
  // (69(2)(c)(ii)): the draw card says so before it is handed.
  await waitText(card, '#mine [data-card="black-draw"]', "連續提和");
  assert.match(await card.locator('#mine [data-card="black-draw"]').getAttribute("class"), /warn/);
  await pages.state("04-returned", ["card", "red"]);
}
