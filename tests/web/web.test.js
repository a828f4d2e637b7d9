// The web clients in a real browser against a real `baoqi serve --demo`: a whole
// 共融賽 game (table 2: 王芳, VI, red, on the player page; 趙強, deaf, black, on the card UI)
// with the referee monitor and a spectator; a draw offered and declined by cards, a
// 走子檢查 (a) ruled on the monitor, a resignation by card (附表七 7.1(2), 7.4(2), 7.5(a));
// the board driven by keyboard only; each message read once by one live region; the
// spectator view read-only; the screen-reader text mode of the player page and the
// spectator view; axe-core on every page in every state reached, the index page and the
// protocol console too; screenshots under target/screenshots/web-*.

import assert from "node:assert/strict";
import { startServer, open, holdPointer, holdKey, waitText, MONITOR_VIEW, CARD_VIEW } from "./harness.js";
import { eventTest, seatAt, boardMove, sayWords, mirror } from "./event.js";
import { expectFocus, tabTo, listen, heardOnce, command, recordTexts, recordedTexts } from "./a11y.js";

eventTest("web", "a 共融賽 game across the card UI, the player page and the referee monitor", game, startServer);

/** Records the page's WebSockets in `window.sockets`, and what each receives in `.seen`. */
function recordSockets() {
  const Native = window.WebSocket;
  window.sockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.seen = [];
      window.sockets.push(this);
      this.addEventListener("message", (m) => this.seen.push(JSON.parse(m.data)));
    }
  };
}

/** The number of entries in a table's event log (what the store holds), read with the
 * referee's token (the log holds the sealed move: a referee's read). */
async function logLength(base, table, referee) {
  const token = new URL(referee.link).hash.match(/token=([0-9a-f]+)/)[1];
  const res = await fetch(`${base}/api/tables/${table}/log.json`, { headers: { Authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()).length;
}

// The final position of the game below (炮二平五 馬８進７ 傌二進三 車９平８ 俥九進一), as
// the text mode reads it: files and ranks by ICCS, pieces by side, red's 帥 at e0.
const FINAL = {
  fileE: "e 線，5 子。e9 黑將，e6 黑卒，e3 紅兵，e2 紅炮，e0 紅帥",
  rank2: "第 2 橫線，3 子。b2 紅炮，e2 紅炮，g2 紅傌",
  rank0: "第 0 橫線，7 子。b0 紅傌，c0 紅相，d0 紅仕，e0 紅帥，f0 紅仕，g0 紅相，i0 紅俥",
  rank8: "第 8 橫線：無子",
  // Kind by kind, the count first: a display's line never parts a piece from its point.
  red: "紅方 16 子。帥：e0。仕：d0 f0。相：c0 g0。傌：g2 b0。俥：a1 i0。炮：b2 e2。兵：a3 c3 e3 g3 i3",
  black: "黑方 16 子。將：e9。士：d9 f9。象：c9 g9。馬：b9 g7。車：a9 h9。砲：b7 h7。卒：a6 c6 e6 g6 i6",
};

/** The screen-reader text mode (lichess nvui), turned on with the keyboard: the
 * visual board gives way to a text board with a heading; the commands read a file, a rank,
 * a point, the pieces of a side, the clocks, the last move; an answer asked for twice is read
 * twice (the live region is emptied and refilled with a different string). */
async function textMode(page) {
  await tabTo(page, "#textmode");
  await page.keyboard.press("Space");
  await page.locator("#textboard h3", { hasText: "文字棋盤" }).waitFor();
  assert.ok(await page.locator("#board").isHidden(), "the visual board gives way");
  assert.equal(await page.locator("#pieces").textContent(), `${FINAL.red}。${FINAL.black}`);
  const ranks = await page.locator("#textboard ul li").allTextContents();
  assert.deepEqual([ranks.length, ranks[1], ranks[7], ranks[9]], [10, FINAL.rank8, FINAL.rank2, FINAL.rank0]);
  assert.equal(await command(page, "f e"), FINAL.fileE);
  // A file as red's notation counts it (red's page; a spectator counts as red does): 五 = e.
  const red5 = FINAL.fileE.replace("e 線", "紅方第五路，e 線");
  assert.equal(await command(page, "f 5"), red5);
  assert.equal(await command(page, "f 五"), red5);
  assert.match(await command(page, "f 二"), /^紅方第二路，h 線，/);
  assert.equal(await command(page, "r 2"), FINAL.rank2);
  assert.equal(await command(page, "p 黑"), FINAL.black);
  assert.equal(await command(page, "s e2"), "e2 紅炮");
  assert.match(await command(page, "l"), /^紅方 俥九進一。第 5 着，a0a1/);
  assert.equal(await command(page, "t"), "對局已結束");
  // The clocks in words, as the visual clocks' labels say them (both stopped: game over).
  const labels = await page.locator("#clocks [role=timer]").evaluateAll((n) => n.map((e) => e.getAttribute("aria-label")));
  const clocks = await command(page, "c");
  assert.match(clocks, /^紅方 \d+ 分 \d+ 秒，黑方 \d+ 分 \d+ 秒$/);
  assert.equal(clocks, labels.join("，"), "red's clock first on both pages");
  // The same answer twice is read twice: each time the region empties, then shows it again.
  await page.waitForFunction(() => document.getElementById("live").textContent.includes("秒"));
  await recordTexts(page, "#live");
  await command(page, "c");
  await page.waitForFunction(() => window.liveTexts["#live"].some((t) => t.includes("秒")));
  await command(page, "c");
  await page.waitForFunction(() => window.liveTexts["#live"].filter((t) => t.includes("秒")).length === 2);
  const seen = (await recordedTexts(page, "#live")).filter((t, i, a) => t !== a[i - 1]);
  const reads = seen.filter((t) => t.trim() === clocks);
  assert.equal(reads.length, 2, `read twice: ${JSON.stringify(seen)}`);
  assert.notEqual(reads[0], reads[1], "the two texts differ, so no screen reader skips the second");
  assert.equal(seen[seen.indexOf(reads[1]) - 1], "", "the region was emptied before the second");
}

async function game({ server, chrome, pages }) {
  const { base, seats } = server;
  const red = seatAt(seats, "red", 2);
  const black = seatAt(seats, "black", 2);
  const referee = seatAt(seats, "referee");
  const spectator = seatAt(seats, "spectator");

  // The index page and the protocol console (/client#token=…) are pages of the server too.
  const index = pages.add("index", await open(chrome, `${base}/`));
  await waitText(index, "main", "共融賽");
  const cons = pages.add("console", await open(chrome, red.link.replace("/seat#", "/client#")));
  await waitText(cons, "#log", '"type":"welcome"');
  await pages.state("00-index-console");
  await pages.close("index");
  await pages.close("console");

  // The monitor, the two seats and a spectator join with their links.
  const mon = pages.add("monitor", await open(chrome, referee.link, MONITOR_VIEW));
  const pl = pages.add("player", await open(chrome, red.link));
  const cd = pages.add("card", await open(chrome, black.link, CARD_VIEW));
  const w = pages.add("watch", await open(chrome, spectator.link.replace("#", "#table=2&"), undefined, recordSockets));
  // The deaf player's seat link opens the card UI.
  await cd.waitForURL(/\/card/);
  await waitText(cd, "#who", "趙強");
  await waitText(pl, "#who", "王芳");
  await waitText(mon, "#tabs", "共融賽");
  await waitText(cd, "#turn", "未開鐘");
  // Where the boards stand before anything is said: messages arriving must not move them (a
  // tap aimed at one point must not land on another).
  const boardAt = (page) => page.locator("#board").evaluate((b) => {
    const r = b.getBoundingClientRect();
    return { x: Math.round(r.left + scrollX), y: Math.round(r.top + scrollY) };
  });
  const cardBoard = await boardAt(cd);
  const playerBoard = await boardAt(pl);
  await listen(pl);
  await listen(mon);
  await pages.state("01-start");

  // Keyboard only on the monitor: table 2 chosen with its shortcut, the shortcut list opened,
  // and the first tab stop is the first table's tab, its focus visible.
  await mon.keyboard.press("2");
  await waitText(mon, "#current", "共融賽");
  await mon.keyboard.press("?");
  assert.equal(await mon.locator("#keys-help").getAttribute("open"), "");
  await tabTo(mon, "#tabs button", { max: 1 });
  assert.match(await mon.evaluate(() => document.activeElement.textContent), /^1\. /);

  // Black presses the clock: the clocks start, red to move (95(3)).
  await cd.locator("#press").click();
  await waitText(cd, "#turn", "輪到紅方");
  await waitText(pl, "#turn", "輪到紅方（我）");

  // Red plays 炮二平五 with the keyboard only: Tab reaches the board (one tab stop, on red's
  // general), the arrow keys and Enter pick the cannon and its point; Tab reaches the word
  // keys (one tab stop), an arrow key and Enter give 炮; the rest is typed; Tab reaches the
  // clock and Enter presses it. The focus is visible at every stop.
  await tabTo(pl, "#board button[data-pt]");
  await expectFocus(pl, '#board button[data-pt="e0"]');
  for (const k of ["ArrowRight", "ArrowRight", "ArrowRight", "ArrowUp", "ArrowUp"]) await pl.keyboard.press(k);
  await expectFocus(pl, '#board button[data-pt="h2"]');
  await pl.keyboard.press("Enter");
  for (const k of ["ArrowLeft", "ArrowLeft", "ArrowLeft"]) await pl.keyboard.press(k);
  await expectFocus(pl, '#board button[data-pt="e2"]');
  await pl.keyboard.press("Enter");
  await waitText(pl, "#answer", "走子 h2e2（炮二平五）：已接受");
  await expectFocus(pl, '#board button[data-pt="e2"]');
  assert.equal(await tabTo(pl, "#keys button"), 1, "the word keys follow the board");
  await expectFocus(pl, '#keys button[data-word="車"]');
  await pl.keyboard.press("ArrowRight");
  await pl.keyboard.press("ArrowRight");
  await expectFocus(pl, '#keys button[data-word="炮"]');
  await pl.keyboard.press("Enter");
  await waitText(pl, "#answer", "報「炮」：已接受");
  // Each word is shown back, bound, with the parser's verdict; the deaf opponent sees it.
  await waitText(pl, "#words", "炮");
  await waitText(pl, "#verdict", "可能的着法");
  await waitText(cd, "#heard-words", "炮");
  // The word is read once, politely, by one live region (not also by the feed), with the
  // arbiter's verdict (his own word, not 「紅方報」).
  await heardOnce(pl, "炮：可能，尚餘", "polite");
  await pages.state("02-announcing");
  // A tap on the resignation card hands nothing over (7.1(2): only a deliberate hold does),
  // even when red's next word arrives during it and redraws the card UI: a card redrawn
  // under a finger must not go on to finish the hold by itself.
  const resignCard = cd.locator('#mine [data-card="black-resign"]');
  await resignCard.scrollIntoViewIfNeeded();
  const rc = await resignCard.boundingBox();
  await cd.mouse.move(rc.x + rc.width / 2, rc.y + rc.height / 2);
  await cd.mouse.down();
  const redWord = pl.locator('#keys button[data-word="二"]').click();
  await cd.waitForTimeout(400);
  await cd.mouse.up();
  await redWord;
  await waitText(cd, "#heard-words", "二");
  await cd.waitForTimeout(1200); // past the hold time
  assert.doesNotMatch(await cd.locator("#answer").textContent(), /認負/, "a tap does not resign");
  await pl.locator('#keys button[data-word="二"]').focus();
  // Typed words, the typed-input path (7.4(2)(a): tap or type), one word per character.
  assert.equal(await tabTo(pl, "#typed-word"), 1);
  await pl.keyboard.type("平五");
  await pl.keyboard.press("Enter");
  await waitText(pl, "#verdict", "已報（不能反悔）：炮二平五");
  await waitText(cd, "#heard-move", "炮二平五");
  assert.equal(await tabTo(pl, "#press"), 2, "Send, then the clock");
  await pl.keyboard.press("Enter");
  await waitText(pl, "#moves", "炮二平五");
  await waitText(w, "#moves", "炮二平五");

  // Black mirrors red's move on the regular board and confirms on the card UI (7.4(2)(g)(ii)).
  await waitText(cd, "#turn", "輪到黑方（我）");
  await cd.locator("#confirm-repeat").waitFor({ state: "visible" });
  assert.deepEqual(await boardAt(cd), cardBoard, "the card UI's board stays put as words, the move and the mirroring come");
  assert.deepEqual(await boardAt(pl), playerBoard, "the player's board stays put as he announces");
  await pages.state("03-mirror-due", ["card", "player"]);
  await mirror(cd, "h2e2");

  // Black moves, signals for the referee to announce (7.4(2)(d)), the referee announces
  // from the monitor (keyboard only), black presses the clock.
  await boardMove(cd, "h9g7");
  await cd.locator("#signal").click();
  await waitText(cd, "#answer", "請代為報棋：已接受");
  await waitText(mon, "#table-2", "代為報棋");
  // The call is read at once (assertive), by one live region: the banner is not another.
  await heardOnce(mon, "黑方示意：請代為報棋", "assertive");
  // The call about black is not red's to act on: written in his
  // feed, never made assertive, and said only in the full verbosity.
  await waitText(pl, "#feed", "請裁判：須代為報棋。黑方");
  assert.doesNotMatch(await pl.locator("#live").textContent(), /已請裁判代黑方報棋|請裁判：須代為報棋/);
  await pages.state("04-signalled");
  await mon.keyboard.press("a");
  await mon.locator("#dlg[open]").waitFor();
  await expectFocus(mon, "#f-words");
  await mon.keyboard.type("馬 8 進 7");
  await mon.keyboard.press("Enter");
  await waitText(mon, "#answer", "已接受");
  await waitText(cd, "#heard-move", "馬８進７");
  await cd.locator("#press").click();
  await waitText(pl, "#moves", "馬８進７");
  await waitText(pl, "#turn", "輪到紅方（我）");

  // Red is told his duty, what to do first (7.4(2)(g)), in the second
  // person, in one message with the turn and the move; `d` says it again whenever
  // he asks.
  await waitText(pl, "#live-polite", "輪到你。黑方 馬８進７。在你的棋盤走對手的馬８進７。然後複讀「馬８進７」。按 e 確認。附表七 7.4(2)(g)");
  assert.match(await command(pl, "d"), /^在你的棋盤走對手的馬８進７。然後複讀「馬８進７」。按 e 確認$/);
  // Red mirrors on the VI board and confirms the repeat (7.4(2)(g)(ii)).
  await mirror(pl, "h9g7");

  // A draw offered and declined by cards (7.1(2), 69(2)): red hands the draw card in its
  // turn, moves, announces, presses; black's card UI shows the card arriving and returns it.
  await pl.locator("#offer").click();
  await waitText(pl, "#answer", "提和：已接受");
  await cd.locator('#received [data-card="red-draw"]').waitFor();
  await waitText(cd, "#banner", "紅方交來提和卡");
  assert.deepEqual(await boardAt(cd), cardBoard, "a banner does not push the board down");
  await boardMove(pl, "h0g2");
  await sayWords(pl, ["馬", "二", "進", "三"]);
  await pl.locator("#press").click();
  await waitText(pl, "#moves", "傌二進三");
  await waitText(mon, "#table-2", "紅方提和（已生效）");

  // The spectator view is read-only: no control that would command the game, a
  // board that cannot move, and a command sent over its own socket gets an error event and
  // changes nothing.
  assert.equal(await w.locator("#keys button, #press, #offer, #accept, #decline, #resign, #typed, #confirm-repeat").count(), 0);
  assert.equal(await w.locator('#board button[data-pt]:not([aria-disabled="true"])').count(), 0);
  await w.locator('#board button[data-pt="e2"]').click({ force: true });
  assert.equal(await w.locator("#board .sel").count(), 0, "a spectator's click picks nothing");
  const logBefore = await logLength(base, 2, referee);
  const answer = await w.evaluate(async () => {
    const ws = window.sockets.find((s) => s.readyState === 1);
    ws.send(JSON.stringify({ v: 2, type: "command", id: "spy", table: 2, command: { type: "return_card" } }));
    for (let i = 0; i < 100 && !ws.seen.some((m) => m.id === "spy"); i++) await new Promise((r) => setTimeout(r, 20));
    return ws.seen.find((m) => m.id === "spy");
  });
  assert.equal(answer?.type, "error");
  assert.equal(answer.code, "forbidden");
  await waitText(w, "#feed", "錯誤：");
  assert.equal(await logLength(base, 2, referee), logBefore, "nothing was stored");
  await cd.locator('#received [data-card="red-draw"]').waitFor();
  await pages.state("05-draw-offered");

  await holdPointer(cd, '#received [data-card="red-draw"]');
  await waitText(cd, "#answer", "交還提和卡（不接受和棋）：已接受");
  await waitText(pl, "#feed", "不接受提和");
  await waitText(cd, "#received", "沒有卡牌");

  // Black mirrors (7.4(2)(g)(ii)), moves 車９平８ (i9h9) with the referee announcing, presses.
  await mirror(cd, "h0g2");
  await boardMove(cd, "i9h9");
  await cd.locator("#signal").click();
  await waitText(mon, "#table-2", "代為報棋");
  await mon.keyboard.press("a");
  await mon.locator("#dlg[open]").waitFor();
  await mon.keyboard.type("車 9 平 8");
  await mon.keyboard.press("Enter");
  await waitText(mon, "#log", "車 9 平 8");
  await cd.locator("#press").click();
  await waitText(pl, "#moves", "車９平８");

  // 走子檢查 (a): red moves 俥一進一 on the board but announces 俥九進一 (legal): the board
  // must be corrected to the announcement (6.4(a), 7.5(a)); read at once, once. First red
  // mirrors black's move (7.4(2)(g)(ii)).
  await mirror(pl, "i9h9");
  await boardMove(pl, "i0i1");
  await sayWords(pl, ["車", "九", "進", "一"]);
  await pl.locator("#press").click();
  await waitText(mon, "#table-2", "走子檢查 (a)");
  // What he must do first, in the keypad's words (the phrasebook's check.correct_board_you).
  await heardOnce(pl, "你須把棋盤改為俥九進一。用你的時間；棋盤走了俥一進一，與報棋不符。走子檢查 (a)", "assertive");
  await pages.state("06-check-a");
  // The referee has the VI board put right and confirms the check: the announced move stands.
  await mon.keyboard.press("k");
  await mon.locator("#dlg[open]").waitFor();
  await expectFocus(mon, "#dlg-yes");
  await mon.keyboard.press("Enter");
  await waitText(mon, "#log", "確認走子檢查結果：棋盤已修正至 a0a1 — 已接受");
  await waitText(pl, "#moves", "俥九進一");

  // A resignation by card (keyboard hold): final at once (7.1(2)).
  await holdKey(cd, '#mine [data-card="black-resign"]');
  await waitText(cd, "#answer", "交出認負卡（認負）：已接受");
  await waitText(pl, "#turn", "對局結束");
  await waitText(mon, "#table-2", "1-0");
  await waitText(pl, "#feed", "黑方的認負卡交給紅方");

  // The referee records the oral verification and opens the scoresheet (keyboard).
  await mon.keyboard.press("y");
  await mon.locator("#dlg[open]").waitFor();
  await mon.keyboard.type("雙方口頭確認紅勝");
  await mon.keyboard.press("Enter");
  await waitText(mon, "#table-2", "已口頭核實");
  await mon.keyboard.press("r");
  await waitText(mon, "#sheet", "炮二平五");
  await expectFocus(mon, "#h-sheet");
  const sheet = await (await fetch(`${base}/api/tables/2/scoresheet.txt`)).text();
  assert.match(sheet, /炮二平五/);
  await pages.state("07-over");

  // The screen-reader text mode (lichess nvui) of the player page and the spectator view,
  // on the final position.
  await textMode(pl);
  await textMode(w);
  await pages.state("08-text-mode", ["player", "watch"]);
}
