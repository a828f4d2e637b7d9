// The blind player's seat page with a real screen reader: GNOME Orca with a 40-cell braille
// display in contracted Hong Kong braille (orca.js), keyboard only, a short game on each of
// the demo's two blind tables. Asserted on what Orca speaks and on what the 40 cells show,
// not on the page's markup:
// - the summary on joining is spoken once;
// - each message's point is in the 40 cells it is flashed on (the display shows the start of
//   its braille);
// - his opponent's four words, said while he types a question, are all spoken and
//   brailled once he pauses (Orca drops queued live-region speech at every key press);
// - Alt+↑ says the last message again;
// - resigning: the dialog's close re-reads no earlier message, the end is spoken once, the
//   focus lands in the command field (spoken), not on an empty line;
// - 共融賽: the mirroring duty names its key (e), and `d` after the board move asks only for
//   the read-back.
// The transcripts (speech and braille) are written to target/transcripts/orca-*.txt.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { CARD_VIEW, MONITOR_VIEW, ROOT, browser, open, startServer, waitText } from "./harness.js";
import { deafMove, seatAt } from "./event.js";
import { run, srPage, hears } from "./sr.js";
import { brailled, orcaAvailable, orcaSession } from "./orca.js";

const DESK = { width: 1280, height: 800 };
const skip = orcaAvailable() ? false : "Orca, BRLTTY or Xvfb not installed (scripts/setup.sh test)";

/** The red seat's link at `table`, opening in the screen-reader mode. */
const textLink = (server, table) => seatAt(server.seats, "red", table).link.replace("/seat#", "/seat?text#");

/** Runs `body` with the demo server, a headless browser for the others and Orca on red's
 * seat at `table`; writes the transcript, and stops everything. */
async function withOrca(name, table, body) {
  const server = await startServer({ demo: true });
  const chrome = await browser();
  const orca = await orcaSession(textLink(server, table));
  try {
    await body({ server, chrome, orca });
  } finally {
    const dir = join(ROOT, "target", "transcripts");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `orca-${name}.txt`), orca.since(0).map((l) => `${l.at} ${l.kind.padEnd(7)} ${l.text}`).join("\n") + "\n");
    await orca.stop();
    await chrome.close();
    server.stop();
  }
}

/** Waits for Orca to flash the message `re` and checks its 40 cells: they show the start of
 * the message's braille (its point, not its middle or its end). */
async function flashed(orca, re, mark) {
  const text = await orca.hears(re, mark);
  await sleep(300);
  const lines = orca.since(mark);
  const i = lines.findIndex((l) => l.kind === "speech" && l.text === text);
  // A flash message is shown with a space before it; its 40 cells follow its braille line.
  const cells = lines.slice(i).find((l) => l.kind === "visible" && l.text.startsWith(" "));
  assert.ok(cells, `no braille flash for 「${text}」`);
  const whole = brailled(text);
  assert.ok(whole.startsWith(cells.text.trim()), `the 40 cells 「${cells.text}」 are not the start of 「${whole}」`);
  return { text, cells: cells.text };
}

/** Orca's SPEECH lines after `mark` that match `re`. */
const count = (orca, re, mark = 0) => orca.spoken(mark).filter((s) => re.test(s)).length;

test("Orca, 視障賽: every word heard and brailled, the opponent's words while he types, a clean resignation", { skip, timeout: 240000 }, () =>
  withOrca("vi", 1, async ({ server, chrome, orca }) => {
    await orca.hears(/你是紅方李明/, 0, 40000);
    await sleep(2000);
    assert.equal(count(orca, /你是紅方李明/), 1, `the summary spoken once: ${JSON.stringify(orca.spoken().filter((s) => s.includes("你是")))}`);
    const black = await srPage(chrome, seatAt(server.seats, "black", 1).link, DESK, "black");


    let m = orca.mark();
    await run(black, "z");
    await flashed(orca, /^對局開始，紅方先走。輪到你/, m);
    m = orca.mark();
    await orca.command("b h2e2");
    await flashed(orca, /^你在棋盤走了炮二平五/, m);
    m = orca.mark();
    await orca.command("C2=5");
    await flashed(orca, /^五：報棋完成，不能反悔/, m);
    m = orca.mark();
    await orca.command("z");
    await flashed(orca, /^你走了 炮二平五/, m);
    assert.equal(count(orca, / selected$/, 0), 0, "no command echoed as selected");

    // He types a question while his opponent announces: none of the four words is lost.
    await run(black, "b h9g7");
    await hears(black, /你在棋盤走了馬８進７/);
    m = orca.mark();
    const typing = orca.type("k h k h k h k h k h k h", 150);
    await sleep(500);
    await run(black, "h8+7");
    await typing;
    const words = await flashed(orca, /對手報：馬。對手報：８。對手報：進。對手報：７/, m);
    assert.equal(count(orca, /對手報/, m), 1, `his words spoken once, together: ${words.text}`);
    orca.keys("ctrl+a", "BackSpace");

    m = orca.mark();
    await run(black, "z");
    await flashed(orca, /^輪到你。黑方 馬８進７/, m);
    // Alt+↑ steps back: the talking clock said last, then his turn with the move.
    m = orca.mark();
    orca.keys("alt+Up");
    await orca.hears(/^你 \d+ 分 \d+ 秒。對手 \d+ 分/, m);
    m = orca.mark();
    orca.keys("alt+Up");
    await orca.hears(/^輪到你。黑方 馬８進７/, m);

    // Resigning: asked first (Cancel focused), then confirmed.
    await sleep(1500);
    m = orca.mark();
    await orca.command("resign");
    await orca.hears(/認負即時生效/, m);
    orca.keys("shift+Tab");
    await orca.hears(/確定/, m);
    const before = orca.mark();
    orca.keys("Return");
    await flashed(orca, /^對局結束：你負/, before);
    await orca.hears(/指令（h 說明）/, before);
    await sleep(2500);
    assert.equal(count(orca, /^對局結束/, before), 1, "the end spoken once");
    assert.equal(count(orca, /輪到你/, before), 0, `no earlier message read again as the dialog closed: ${JSON.stringify(orca.spoken(before))}`);
  }));

test("Orca, 共融賽: the mirroring duty names its key, and `d` knows when the board move is made", { skip, timeout: 240000 }, () =>
  withOrca("inclusive", 2, async ({ server, chrome, orca }) => {
    await orca.hears(/你是紅方王芳/, 0, 40000);
    const cd = await open(chrome, seatAt(server.seats, "black", 2).link, CARD_VIEW);
    const mon = await open(chrome, seatAt(server.seats, "referee", 2).link, MONITOR_VIEW);
    await cd.waitForURL(/\/card/);
    await waitText(mon, "#tabs", "共融賽");
    await mon.keyboard.press("2");
    await waitText(mon, "#current", "共融賽");

    let m = orca.mark();
    await cd.locator("#press").click();
    await flashed(orca, /^對局開始，紅方先走。輪到你/, m);
    for (const line of ["b h2e2", "C2=5", "z"]) await orca.command(line, 900);
    await orca.hears(/^你走了 炮二平五/, m);

    m = orca.mark();
    await deafMove(cd, mon, "h2e2", "h9g7", "馬 8 進 7");
    await cd.locator("#press").click();
    const duty = await flashed(orca, /^輪到你。黑方 馬８進７。在你的棋盤走對手的馬８進７。然後複讀「馬８進７」。按 e 確認/, m);
    assert.ok(duty.cells.length <= 41);
    m = orca.mark();
    await orca.command("b h9g7");
    await orca.hears(/^你在棋盤走了馬８進７/, m);
    m = orca.mark();
    await orca.command("d");
    await flashed(orca, /^複讀「馬８進７」，然後按 e 確認/, m);
    m = orca.mark();
    await orca.command("e");
    await flashed(orca, /^複讀完成/, m);
  }));
