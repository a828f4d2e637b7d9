// A seat's token is its credential (the monitor's is the organiser's too): the pages take
// it from the link's fragment (`#token=…`) into the tab's session storage and clear it from
// the address, so it is neither in view nor kept in the browser's history; a reload still
// joins from session storage; the rest of the fragment (`event=1`, `table=…`) stays.

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { ROOT, browser, open, startServer, waitText } from "./harness.js";
import { seatAt } from "./event.js";

const PLACEHOLDER = "http://baoqi.invalid";
let referee = "";

/** The standings' tournament, round 1 paired: the seats' links and the referee's token. */
function prepare(bin, db) {
  const run = (...args) => execFileSync(bin, [...args, "--db", db], { encoding: "utf8" });
  const created = run("event", "create", "--config", join(ROOT, "tests", "web", "fixtures", "tournament.toml"), "--url", PLACEHOLDER);
  referee = created.match(/#token=(\S+)/)[1];
  run("players", "import", "--event", "1", join(ROOT, "tests", "web", "fixtures", "players.csv"));
  const text = created + run("round", "pair", "--event", "1", "--url", PLACEHOLDER);
  return { text, fix: (base) => (link) => link.replace(PLACEHOLDER, base) };
}

test("tokens: taken from the address into session storage, and a reload still joins", async () => {
  const server = await startServer({ demo: false, prepare });
  const chrome = await browser();
  try {
    const red = seatAt(server.seats, "red", 1);
    const secret = new URL(red.link).hash.match(/token=([^&]+)/)[1];
    const seat = await open(chrome, red.link, { width: 1024, height: 768 });
    await waitText(seat, "#who", "（紅方）");
    // Replaced, not pushed: the history's entry no longer holds it either.
    assert.ok(!seat.url().includes(secret), `the token stays in the address: ${seat.url()}`);
    await seat.reload();
    await waitText(seat, "#who", "（紅方）");
    assert.ok(!seat.url().includes(secret), seat.url());
    assert.deepEqual(seat.errors, []);

    const monitorLink = seatAt(server.seats, "referee").link;
    const monitorSecret = new URL(monitorLink).hash.match(/token=([^&]+)/)[1];
    const mon = await open(chrome, monitorLink, { width: 1400, height: 1000 });
    await waitText(mon, "#who", "— ");
    await mon.locator("#tabs .tile").first().waitFor();
    assert.ok(!mon.url().includes(monitorSecret), `the monitor keeps the organiser's credential in view: ${mon.url()}`);
    await mon.reload();
    await mon.locator("#tabs .tile").first().waitFor();
    assert.deepEqual(mon.errors, []);

    const org = await open(chrome, `${server.base}/organiser#event=1&token=${referee}`, { width: 1024, height: 768 });
    await waitText(org, "#players caption", "名冊（8人");
    assert.ok(!org.url().includes(referee), org.url());
    assert.match(org.url(), /#event=1$/, "the rest of the address stays");
    await org.reload();
    await waitText(org, "#players caption", "名冊（8人");
    assert.deepEqual(org.errors, []);
  } finally {
    await chrome.close();
    server.stop();
  }
});
