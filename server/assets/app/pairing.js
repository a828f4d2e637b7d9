// The organiser page's rounds (the desk): the next round paired and the last one taken back,
// as `baoqi round pair` and `round unpair` do (POST /api/events/N/rounds, …/rounds/unpair),
// each asked first; a refusal says why, in the page's words, with the tables it names; the
// new seats' links are shown this once.

import { $, el, t, confirmThen } from "./common.js";
import { newSeats } from "./corrections.js";

/** The page's words for a refusal's code. */
const WHY = {
  too_few: t("名冊不足兩名賽員", "fewer than two players in the register"),
  too_many: t("名冊賽員超過可配對人數", "more players than an event may pair"),
  unfinished: t("上一輪尚有對局未有結果", "games of the last round have no result yet"),
  unverified: t("上一輪尚有結果未經裁判核實（附表七 7.9）", "results of the last round are not yet verified by the referee (7.9)"),
  tie_undecided: t("淘汰賽尚有對局未分勝負", "a knock-out tie is not decided yet"),
  lot: t("淘汰賽平局須先抽籤（baoqi round lot）", "a level knock-out tie must first be decided by lot (baoqi round lot)"),
  nothing: t("尚未配對任何一輪", "no round is paired yet"),
  started: t("該輪已有對局開始，其記錄有效：成績請在成績表更正", "a game of that round has started and its record stands: put results right in the grid"),
  entered: t("該輪已有裁判長登記的成績：請先清除", "a result is entered in that round: clear it first"),
};

/** Wires the section's buttons to `api` (the page's authorised fetch); `reload()` redraws the
 * page after a change. */
export function initPairing(api, reload) {
  const status = (text) => { $("p-status").textContent = text; };
  const refuse = (e) => {
    const tables = e.data?.tables?.length ? t(`（第 ${e.data.tables.join("、")} 桌）`, ` (table(s) ${e.data.tables.join(", ")})`) : "";
    $("p-error").replaceChildren(el("p", {}, `${t("未能完成：", "Refused: ")}${WHY[e.code] || e.message}${tables}`));
  };
  const run = async (path, done) => {
    status("");
    $("p-error").replaceChildren();
    try {
      done(await api("POST", path));
      await reload();
    } catch (e) {
      refuse(e);
    }
  };
  $("p-pair").addEventListener("click", () => confirmThen(
    t("按賽制配對下一輪？配對後各台的連結只顯示一次。", "Pair the next round by the event's system? Each table's links are shown this once."),
    () => run("/rounds", (p) => {
      const byes = p.byes.length ? t(`；輪空：${p.byes.map(([id, name]) => `#${id} ${name}`).join("、")}`, `; bye: ${p.byes.map(([id, name]) => `#${id} ${name}`).join(", ")}`) : "";
      status(t(`第${p.round}輪已配對：${p.boards.length} 台${byes}`, `Round ${p.round} paired: ${p.boards.length} board(s)${byes}`));
      $("p-seats").replaceChildren(...newSeats(p.seats));
    })));
  $("p-unpair").addEventListener("click", () => confirmThen(
    t("撤回最後一輪？其座位連結即時失效，各台作廢，可再重新配對。", "Take the last round back? Its seats' links stop working and its tables are set aside; it can be paired again."),
    () => run("/rounds/unpair", (u) => {
      status(t(`第${u.round}輪已撤回：第 ${u.tables.join("、")} 桌作廢`, `Round ${u.round} taken back: table(s) ${u.tables.join(", ")} set aside`));
      $("p-seats").replaceChildren();
    })));
}
