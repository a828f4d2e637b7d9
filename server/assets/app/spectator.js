// The spectators' page's own parts (watch.html, drawn by player.js): the tables named as the
// hall numbers them — a round's board is 「第5輪 第2台」, the name its row carries, never the
// server's own table number — and the organiser's results (`recorded`: an absence, 87; a
// correction), which stand over a table's own, so that a board decided at the desk does not
// stay 「未開鐘」 all day.

import { $, boardResult, el, t, tableInfo } from "./common.js";

/** The organiser's results by table, as the last `recorded` message listed them. */
const entered = new Map();

/** Table `id` as the hall names it: its row's name (`info`, once read), else its number. */
export const tableLabel = (id, info) => info?.name || t(`第 ${id} 台`, `Table ${id}`);

/** Takes a `recorded` message (the whole list, cleared entries left out); returns the
 * tables whose organiser's result changed. */
export function record(m) {
  const now = new Map(m.results.map((r) => [r.table, r.result]));
  const changed = [...new Set([...entered.keys(), ...now.keys()])].filter((id) => entered.get(id) !== now.get(id));
  entered.clear();
  for (const [id, r] of now) entered.set(id, r);
  return changed;
}

/** The organiser's result of table `id` in words (「裁判長登記成績：+/- 黑方缺席，紅方不戰而勝」),
 * or "" when he entered none. */
export function enteredText(id) {
  const r = entered.get(id);
  return r ? t(`裁判長登記成績：${boardResult(r)}`, `Result entered by the organiser: ${boardResult(r)}`) : "";
}

/** What a change of table `id`'s organiser's result says, once. */
export function enteredNews(id, info) {
  const said = enteredText(id);
  return `${tableLabel(id, info)}${t("：", ": ")}${said || t("裁判長登記的成績已清除", "the organiser's result cleared")}`;
}

/** The list of the event's tables to choose from (`shown` selected), each named by its row
 * once read: 「第2輪 第2台：李明 對 張華」. */
export function chooser(ids, shown) {
  const pick = $("table-pick");
  if (!pick) return;
  pick.closest("p").hidden = ids.length === 0;
  for (const id of ids) {
    if (!pick.querySelector(`option[value="${id}"]`)) {
      pick.append(el("option", { value: String(id) }, tableLabel(id)));
      tableInfo(id).then((i) => {
        const o = pick.querySelector(`option[value="${id}"]`);
        if (i && o) o.textContent = t(`${i.name}：${i.red} 對 ${i.black}`, `${i.name}: ${i.red} v ${i.black}`);
      });
    }
  }
  if (shown !== null && shown !== undefined) pick.value = String(shown);
}

/** The table a spectator's page opens on when the address names none: the first board of
 * the latest round (a spectator who arrives at round 5 wants round 5, not round 1's first
 * board). */
export async function latestFirst(ids) {
  const infos = await Promise.all(ids.map((id) => tableInfo(id)));
  const round = Math.max(0, ...infos.map((i) => i?.round ?? 0));
  const at = infos.findIndex((i) => (i?.round ?? 0) === round);
  return ids[Math.max(at, 0)];
}
