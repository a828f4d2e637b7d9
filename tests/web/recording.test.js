// Game recordings on the referee monitor (建議每局對賽設錄音設備, 附表七 part 6),
// in a real browser against a real `baoqi serve --demo`: a seat's recorder status reaches the
// monitor in words, an uploaded recording gets an <audio controls> player with a label, and
// the scoresheet's button for a move seeks the player to the moment of that move. axe-core
// on the monitor in each state; screenshots under target/screenshots/recording-*.

import assert from "node:assert/strict";
import { startServer, open, waitText, MONITOR_VIEW } from "./harness.js";
import { eventTest, seatAt } from "./event.js";

/** A mono 16-bit WAV of `seconds` of a quiet tone at `rate` Hz. */
function wav(seconds, rate) {
  const frames = seconds * rate;
  const b = Buffer.alloc(44 + frames * 2);
  b.write("RIFF", 0); b.writeUInt32LE(36 + frames * 2, 4); b.write("WAVEfmt ", 8);
  b.writeUInt32LE(16, 16); b.writeUInt16LE(1, 20); b.writeUInt16LE(1, 22);
  b.writeUInt32LE(rate, 24); b.writeUInt32LE(rate * 2, 28); b.writeUInt16LE(2, 32); b.writeUInt16LE(16, 34);
  b.write("data", 36); b.writeUInt32LE(frames * 2, 40);
  for (let i = 0; i < frames; i++) b.writeInt16LE(Math.round(3000 * Math.sin((i * 2 * Math.PI * 440) / rate)), 44 + i * 2);
  return b;
}

const tokenOf = (s) => new URL(s.link).hash.match(/token=([0-9a-f]+)/)[1];

/** Opens a protocol connection from a page of the server (a table client stand-in). */
async function connect(page, name, endpoint, token) {
  await page.evaluate(async ({ name, endpoint, token }) => {
    window.socks ??= {};
    const ws = new WebSocket(`ws://${location.host}/ws/${endpoint}`);
    ws.msgs = [];
    ws.onmessage = (m) => ws.msgs.push(JSON.parse(m.data));
    await new Promise((r) => { ws.onopen = r; });
    ws.send(JSON.stringify({ v: 2, type: "hello", token }));
    window.socks[name] = ws;
  }, { name, endpoint, token });
}

/** Sends a message with an id on a connection; resolves with its answer (ack, error, pong…). */
async function ask(page, name, msg) {
  return page.evaluate(async ({ name, msg }) => {
    const ws = window.socks[name];
    const id = `m${Math.random()}`;
    ws.send(JSON.stringify({ v: 2, id, ...msg }));
    for (let i = 0; i < 200; i++) {
      const a = ws.msgs.find((m) => m.id === id && m.type !== "event");
      if (a) return a;
      await new Promise((r) => setTimeout(r, 25));
    }
    return null;
  }, { name, msg });
}

eventTest("recording", "the monitor shows each seat's recording status, plays the upload and seeks to a move", seeking, startServer);

async function seeking({ server, chrome, pages }) {
  const { base, seats } = server;
  const red = seatAt(seats, "red", 1);
  const black = seatAt(seats, "black", 1);
  const referee = seatAt(seats, "referee");
  const mon = pages.add("monitor", await open(chrome, referee.link, MONITOR_VIEW));
  await waitText(mon, "#table-1", "紅方：未錄音");
  await pages.state("01-no-recorder");

  // Red's table client reports its recorder (the message the keypad client sends).
  const client = await open(chrome, `${base}/api/events`);
  await connect(client, "red", "seat", tokenOf(red));
  await connect(client, "referee", "monitor", tokenOf(referee));
  await client.evaluate(() => window.socks.red.send(JSON.stringify({ v: 2, type: "recording", state: "on", microphone: true })));
  await waitText(mon, "#table-1", "紅方：錄音中（連咪高峰）");
  await waitText(mon, "#table-1", "黑方：未錄音");
  await pages.state("02-recording");

  // The recording began 2 s (event-log time) before the referee started the clocks; red
  // then plays 炮二平五.
  let pong = await ask(client, "red", { type: "ping" });
  // The event log's time starts at 0 with the server: it must have run 2 s for that.
  if (pong.at < 2000) {
    await mon.waitForTimeout(2000 - pong.at);
    pong = await ask(client, "red", { type: "ping" });
  }
  const offset = pong.at - 2000;
  assert.equal((await ask(client, "referee", { type: "command", table: 1, command: { type: "start" } })).type, "ack");
  for (const command of [{ type: "board_move", mv: "h2e2" }, ...["炮", "二", "平", "五"].map((text) => ({ type: "word", text })), { type: "press_clock" }]) {
    const a = await ask(client, "red", { type: "command", command });
    assert.equal(a?.type, "ack", `${JSON.stringify(command)}: ${JSON.stringify(a)}`);
  }
  // The log is the referee's: refused without his token, or with a player's.
  const logUrl = `${base}/api/tables/1/log.json`;
  assert.equal((await fetch(logUrl)).status, 401);
  assert.equal((await fetch(logUrl, { headers: { Authorization: `Bearer ${tokenOf(red)}` } })).status, 403);
  const log = await (await fetch(logUrl, { headers: { Authorization: `Bearer ${tokenOf(referee)}` } })).json();
  const movedAt = log.find((e) => e.events.some(([, ev]) => ev.type === "moved" && ev.ply === 1)).at;

  // The upload, exactly as HttpUploader sends it.
  const rate = 8000;
  const body = wav(30, rate);
  const up = await fetch(`${base}/api/tables/1/recording`, {
    method: "POST", body,
    headers: {
      "Content-Type": "audio/wav", Authorization: `Bearer ${tokenOf(red)}`, "X-Baoqi-Game": "table-1-round-1",
      "X-Baoqi-Event-Log-Offset-Ms": String(offset), "X-Baoqi-Started-Unix-Ms": String(Date.now() - 5000),
      "X-Baoqi-Sample-Rate": String(rate),
    },
  });
  assert.equal(up.status, 201, await up.text());
  await waitText(mon, "#table-1", "紅方：已上載：0:30");
  const audio = mon.locator('#table-1 audio[controls][aria-label*="紅方錄音"]');
  await audio.waitFor();
  await mon.waitForFunction(() => document.querySelector("#table-1 audio").readyState >= 1, null, { timeout: 8000 });
  assert.equal(await mon.evaluate(() => Math.round(document.querySelector("#table-1 audio").duration)), 30);
  // The monitor fetched it with the referee's token: the file itself is no one else's.
  assert.equal((await fetch(`${base}/api/tables/1/recordings/1.wav`)).status, 401);
  assert.equal((await fetch(`${base}/api/tables/1/recordings`)).status, 401);
  // The download button saves the recording under its name.
  const [download] = await Promise.all([
    mon.waitForEvent("download"),
    mon.locator("#table-1 button.download", { hasText: "下載紅方錄音" }).click(),
  ]);
  assert.equal(download.suggestedFilename(), "table-1-red-1.wav");
  const saved = await download.path();
  assert.equal((await import("node:fs")).statSync(saved).size, body.length);

  // The scoresheet of table 1: move 1's button seeks the recording to that move.
  await mon.locator("#table-1 button", { hasText: "記錄表" }).click();
  const seek = mon.locator('#sheet button.seek[data-ply="1"]');
  await seek.waitFor();
  await seek.click();
  const expected = (movedAt - offset) / 1000;
  await mon.waitForFunction((s) => Math.abs(document.querySelector("#table-1 audio").currentTime - s) < 1.5, expected, { timeout: 5000 });
  // Black's recorder reports a failure: shown in words.
  await connect(client, "black", "seat", tokenOf(black));
  await client.evaluate(() => window.socks.black.send(JSON.stringify({ v: 2, type: "recording", state: "failed", reason: "disk full" })));
  await waitText(mon, "#table-1", "黑方：上載失敗：disk full");
  await pages.state("03-uploaded-scoresheet");
}
