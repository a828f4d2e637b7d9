// Time alerts seen, never only heard: on a table with a 25 s clock and an
// alert at 22 s, the alert reaches the deaf player's card UI and the sighted player's page
// as a banner, a flash of the screen and a vibration where the device has one. Then the
// card gestures: a tap or a quick swipe hands nothing over; dragging the resignation card up towards the
// opponent hands it over, final at once (7.1(2)). axe-core on every page in every state;
// screenshots under target/screenshots/alerts-*.

import assert from "node:assert/strict";
import { open, waitText, CARD_VIEW } from "./harness.js";
import { eventTest, seatAt } from "./event.js";
import { listen, heardOnce } from "./a11y.js";

const TABLE = 2;
/** Makes `navigator.vibrate` record its patterns in `window.vibrations` (runs in the page). */
function recordVibration() {
  window.vibrations = [];
  Object.defineProperty(navigator, "vibrate", { value: (p) => { window.vibrations.push(p); return true; } });
}

/** Waits for the alert's banner and flash on a page; returns the banner's text. */
async function alerted(page) {
  await waitText(page, "#banner.on", "報時", 10000);
  await page.waitForFunction(() => document.body.classList.contains("flash"));
  assert.ok((await page.evaluate(() => window.vibrations.length)) > 0, "the device vibrated");
  return page.locator("#banner").textContent();
}

eventTest("alerts", "time alerts flash on the card UI and the player page; the card drag gesture", run);

async function run({ server, chrome, pages }) {
  const { seats } = server;
  const black = seatAt(seats, "black", TABLE);
  assert.match(black.link, /\/card#token=/, "a deaf player's link opens the card UI");
  const card = pages.add("card", await open(chrome, black.link, CARD_VIEW, recordVibration));
  const red = pages.add("red", await open(chrome, seatAt(seats, "red", TABLE).link, undefined, recordVibration));
  await waitText(card, "#who", "吳靜");
  await waitText(red, "#who", "周立");
  await listen(red);
  await listen(card);

  // Black starts the clocks; red's 25 s run; at 22 s left the alert fires (6.6(3): the
  // triggering side's time first).
  await card.locator("#press").click();
  await waitText(red, "#turn", "輪到紅方（我）");
  const onCard = await alerted(card);
  const onRed = await alerted(red);
  assert.match(onCard, /報時：紅方 22 秒/);
  assert.match(onRed, /報時：紅方 22 秒/);
  // On the player page and the card UI the alert is read at once, and once: the banner
  // and the feed are not second live regions.
  // To red, of himself: 你 (the second person), in the keypad's words; in the last minute
  // his time alone (6.6(3)).
  await heardOnce(red, "你尚餘 22 秒", "assertive");
  await heardOnce(card, "報時：紅方 22 秒", "assertive");
  await pages.state("01-alert");

  // A tap on a card hands nothing over: only a deliberate gesture does (7.1(2)).
  const resign = '#mine [data-card="black-resign"]';
  await card.locator(resign).click();
  await card.waitForTimeout(300);
  assert.equal(await card.locator(resign).count(), 1, "the card is still in hand");
  assert.doesNotMatch(await card.locator("#turn").textContent(), /對局結束/);

  // Nor does a quick swipe up over it, which is how a tablet scrolls.
  const box = await card.locator(resign).boundingBox();
  const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
  await card.mouse.move(cx, cy);
  await card.mouse.down();
  await card.mouse.move(cx, cy - 150, { steps: 2 });
  await card.mouse.up();
  await card.waitForTimeout(300);
  assert.equal(await card.locator(resign).count(), 1, "a swipe is no handing over");

  // Pressing the resignation card, then dragging it up towards the opponent, hands it over:
  // final at once.
  await card.mouse.move(cx, cy);
  await card.mouse.down();
  await card.waitForTimeout(500);
  await card.mouse.move(cx, cy - 150, { steps: 8 });
  await card.mouse.up();
  await waitText(card, "#answer", "交出認負卡（認負）：已接受");
  await waitText(red, "#result", "1-0");
  await waitText(red, "#feed", "黑方的認負卡交給紅方");
  await waitText(card, "#mine", "我的認負卡已交出");
  await pages.state("02-resigned-by-drag");
}
