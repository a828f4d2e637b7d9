// The round on the referee's monitor (95(3), 109): one button starts every game of the round
// shown that has not started (the referee presses for black, 95(4)); past the latest arrival
// time (109(2)) each side that has not moved and pressed is listed, with its absence to
// record at one confirmed press (the organiser's result, 87, as the result grid records it).

import { $, el, t, token, confirmThen, boardResult } from "./common.js";
import { absences, late, startable } from "./arrival.js";

const SIDE_NAME = { red: t("紅方", "red"), black: t("黑方", "black") };

/**
 * Draws the desk for the tables of the round shown (`{ id, info, snap, entered }`, the
 * organiser's result when one stands) at server instant `now`. `start(ids)` starts those
 * tables' clocks; `record(table, result)` records an absence; both answer with a line for
 * the monitor's log.
 */
export function renderDesk(shown, now, { start, record }) {
  const open = startable(shown.filter((x) => !x.entered));
  const lateOnes = shown.filter((x) => !x.entered).map((x) => ({ ...x, sides: late(x.snap, now) })).filter((x) => x.sides.length);
  $("round-desk").hidden = !open.length;
  const button = $("start-round");
  button.textContent = t(`開始本輪 ${open.length} 局（裁判代黑方按鐘，第95(3)、(4)條）`,
    `Start this round's ${open.length} game(s) (the referee presses for black, 95(3), (4))`);
  button.onclick = () => confirmThen(t(`開始本輪 ${open.length} 局的棋鐘？第 ${open.join("、")} 台`,
    `Start the clocks of ${open.length} game(s) of this round? Tables ${open.join(", ")}`), () => start(open));
  // Redrawn only when what it lists changes: a press stays where the referee is.
  const key = JSON.stringify(lateOnes.map((x) => [x.id, x.sides]));
  const list = $("late-list");
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.hidden = !lateOnes.length;
  list.replaceChildren(...(lateOnes.length ? [
    el("h3", { id: "h-late" }, t("逾最遲到達時間仍未走子及按鐘（第109(2)條）", "Not moved and pressed by the latest arrival time (109(2))")),
    el("ul", {}, ...lateOnes.map((x) => el("li", {}, lateLine(x),
      ...absences(x.sides).map((r) => el("button", { type: "button", class: "danger", "data-absent": `${x.id}-${r}`,
        onclick: () => confirmThen(t(`${where(x)}：記錄 ${boardResult(r)}？（第87、109條）`, `${where(x)}: record ${boardResult(r)}? (87, 109)`),
          () => record(x, r)) }, boardResult(r)))))),
  ] : []));
}

const where = (x) => x.info?.name || t(`第 ${x.id} 台`, `Table ${x.id}`);

/** 「第1輪 第3台 李明（紅）：紅方未到」. */
function lateLine(x) {
  const who = x.sides.map((s) => `${x.info?.[s] ?? ""}（${SIDE_NAME[s]}）`).join(t("、", ", "));
  return t(`${where(x)} ${who}：未到 `, `${where(x)} ${who}: not arrived `);
}

/** Records an absence as the result grid does: the board of table `x.id` in its round
 * (POST /api/events/N/grid/R/B), with the article as the reason. */
export async function recordAbsence(x, result) {
  const auth = { Authorization: `Bearer ${token()}` };
  const base = `/api/events/${x.info.event}/grid`;
  const cells = await (await fetch(`${base}?round=${x.info.round}`, { headers: auth })).json();
  const cell = cells.find?.((c) => c.table === x.id);
  if (!cell) throw new Error(t("此台不在本輪成績表", "the table is not in the round's grid"));
  const r = await fetch(`${base}/${x.info.round}/${cell.board}`, {
    method: "POST", headers: { ...auth, "Content-Type": "application/json" },
    body: JSON.stringify({ result, reason: t("逾最遲到達時間仍未走子及按鐘（第109(2)條）", "not moved and pressed by the latest arrival time (109(2))") }),
  });
  const data = await r.json().catch(() => null);
  if (!r.ok) throw new Error(data?.error || t(`請求失敗（${r.status}）`, `The request failed (${r.status})`));
  return data;
}
