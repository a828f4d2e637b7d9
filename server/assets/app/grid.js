// The result grid on the organiser's page (第87條, 附表七 7.9): every
// board of a round with its game's result, the organiser's and the one that counts, and a
// form to enter, correct or clear any board's result (GET /api/events/N/grid, POST
// /api/events/N/grid/R/B). A board whose result counts already is refused by the server
// (409 would_replace, naming the result and where it comes from): the page asks first,
// saying what it replaces, and replaces it only with a reason. Every entry is logged with
// the referee's seat name.

import { $, BOARD_RESULT, boardResult, confirmThen, el, t } from "./common.js";

/** Where a result that counts comes from, as the server names it. */
const FROM = {
  played: t("對局結果，裁判未核實", "played, not yet verified"),
  verified: t("對局結果，裁判已核實（附表七 7.9）", "played and verified by the referee (7.9)"),
  recorded: t("裁判長登記", "entered by the organiser"),
};

const REFUSALS = {
  no_board: t("沒有此台", "There is no such board"),
  bye: t("輪空沒有對局，不能登記成績", "A bye has no game: it has no result to enter"),
  nothing_to_clear: t("此台沒有裁判長登記的成績可清除", "This board has no result of the organiser's to clear"),
  no_reason: t("取代已有的成績須寫明原因", "Replacing a result needs a reason"),
};

/** The page's state: the cells of the round shown, how to name a player. */
const state = { cells: [], round: null };

const boardName = (c) => t(`第${c.board}台`, `Board ${c.board}`);
const shortResult = (r) => (BOARD_RESULT[r] ? BOARD_RESULT[r][0] : "");

/** What the table's game says: its result and whether it was verified, or in play. */
function gameText(c) {
  if (!c.black) return t("輪空", "bye");
  if (!c.game) return t("棋台未有結果", "no result at the table");
  return `${boardResult(c.game)}${c.verified ? t("（已核實）", " (verified)") : t("（未核實）", " (not verified)")}`;
}

function gridTable(cells, round) {
  const rows = cells.map((c) => el("tr", { class: c.recorded ? "entered" : "" },
    // A bye is no board (附表二): its row names none.
    el("th", { scope: "row" }, c.black ? boardName(c) : t("輪空", "Bye")),
    el("td", {}, c.table ? t(`第${c.table}桌`, `table ${c.table}`) : ""),
    el("td", {}, c.red.name),
    el("td", {}, c.black ? c.black.name : t("輪空", "bye")),
    el("td", {}, gameText(c)),
    el("td", {}, c.recorded ? boardResult(c.recorded) : ""),
    el("td", {}, c.black ? (c.result ? shortResult(c.result) : "*") : t("輪空", "bye")),
    el("td", {}, c.black ? actions(c) : "")));
  const heads = [t("台", "Board"), t("桌", "Table"), t("紅方", "Red"), t("黑方", "Black"), t("對局結果", "Game"),
    t("裁判長登記", "Organiser's"), t("計分", "Counts"), t("操作", "Action")];
  return el("table", { class: "standings grid" },
    el("caption", {}, t(`第${round}輪成績`, `Round ${round}: results`)),
    el("thead", {}, el("tr", {}, ...heads.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, ...rows));
}

/** A board's buttons: correct it; and a game over at its table whose result nobody has
 * verified yet, verify it here (附表七 7.9: the result then counts, and the next round can
 * be paired). */
function actions(c) {
  const correct = el("button", { type: "button", "data-key": `grid-${c.board}`, "aria-label": t(`更正${boardName(c)}`, `Correct ${boardName(c)}`), onclick: () => pick(c) }, t("更正", "Correct"));
  if (!c.game || c.verified || c.recorded) return correct;
  const verify = el("button", { type: "button", "data-key": `verify-${c.board}`,
    "aria-label": t(`核實${boardName(c)}的對局結果`, `Verify the result of ${boardName(c)}`),
    onclick: () => {
      $("g-board").value = String(c.board);
      confirmThen(t(`核實${boardName(c)}（${c.red.name} 對 ${c.black.name}）的對局結果：${boardResult(c.game)}？（附表七 7.9）`,
        `Verify the result of ${boardName(c)} (${c.red.name} v ${c.black.name}): ${boardResult(c.game)}? (Schedule 7, 7.9)`),
      () => sendEntry({ result: c.game, reason: null }));
    } }, t("核實", "Verify"));
  return [verify, " ", correct];
}

/** Sends an entry for the board chosen in the form (set by `initGrid`). */
let sendEntry = async () => {};

/** Chooses board `c` in the form and puts the focus on its result. */
function pick(c) {
  $("g-board").value = String(c.board);
  $("g-result").value = c.recorded || c.result || "";
  $("g-result").focus();
}

function fillForm(cells) {
  const board = $("g-board");
  const was = board.value;
  board.replaceChildren(...cells.filter((c) => c.black).map((c) =>
    new Option(t(`${boardName(c)}：${c.red.name} 對 ${c.black.name}`, `${boardName(c)}: ${c.red.name} v ${c.black.name}`), String(c.board))));
  if (was) board.value = was;
}

/** Whether the organiser is entering a result: the focus in the form, or a reason typed. */
const inUse = () => $("grid-form").contains(document.activeElement) || $("g-reason").value.trim() !== "";

/** Draws the round chosen of `rounds` paired. The grid follows the rounds as they are
 * paired (the latest shown moves to the new one), unless the organiser chose an earlier
 * round or is entering a result: the form's round never changes under him. */
export async function drawGrid(api, rounds) {
  const section = $("grid-section");
  section.hidden = !rounds;
  if (!rounds) return;
  const select = $("g-round");
  const latest = select.options.length;
  if (latest !== rounds) {
    select.replaceChildren(...Array.from({ length: rounds }, (_, i) => rounds - i)
      .map((r) => new Option(t(`第${r}輪`, `Round ${r}`), String(r))));
    const following = state.round === null || (state.round === latest && !inUse());
    if (following || state.round > rounds) {
      if (state.round !== null) $("g-result").value = "";
      state.round = rounds;
    }
  }
  state.round ??= rounds;
  select.value = String(state.round);
  state.cells = await api("GET", `/grid?round=${state.round}`);
  $("grid").replaceChildren(gridTable(state.cells, state.round));
  fillForm(state.cells);
}

/** A result put right after later rounds were paired (87): whose score before a later round
 * changed, so that he was paired in another score group, and the two ways on, as `baoqi
 * round result` says them. */
function showMoved(moved, last) {
  if (!moved.length) return;
  const rounds = [...new Set(moved.map((m) => m.round))];
  const lines = moved.map((m) => el("li", {}, t(
    `#${m.player.id} ${m.player.name}${m.player.club ? `（${m.player.club}）` : ""}：${m.before} → ${m.after} 分，第${m.round}輪按 ${m.before} 分組配對`,
    `#${m.player.id} ${m.player.name}${m.player.club ? ` (${m.player.club})` : ""}: ${m.before} → ${m.after} points, paired in round ${m.round} in the ${m.before}-point group`)));
  const event = new URLSearchParams(location.hash.slice(1)).get("event");
  $("g-moved").replaceChildren(
    el("p", {}, t(`注意：第${rounds.join("、")}輪已按更正前的積分配對，以下賽員的積分組別已變：`,
      `Note: round ${rounds.join(", ")} was paired before this correction; these players were paired on a score they no longer have:`)),
    el("ul", {}, lines),
    el("p", {}, t(`可以不理會（名次按更正後的成績計，下一輪亦按其配對）；或在第${last}輪任何一局開始之前撤回該輪，再重新配對：baoqi round unpair --event ${event}，然後 baoqi round pair --event ${event}`,
      `Either leave it (the standings count the corrected result, and the next round is paired on it), or, before any game of round ${last} starts, take it back and pair it again: baoqi round unpair --event ${event}, then baoqi round pair --event ${event}`)));
}

/** Wires the form: `api(method, path, body)` throws an Error with the refusal's `code` and
 * `data`; `reload()` draws the page again. */
export function initGrid(api, reload) {
  const say = (text) => $("g-error").replaceChildren(text ? el("p", {}, text) : "");
  async function send(body) {
    const board = Number($("g-board").value);
    const c = state.cells.find((x) => x.board === board);
    say("");
    $("g-status").textContent = "";
    $("g-moved").replaceChildren();
    try {
      const done = await api("POST", `/grid/${state.round}/${board}`, body);
      showMoved(done.moved || [], done.last_round);
      $("g-status").textContent = done.result
        ? t(`${boardName(done)}：成績為 ${boardResult(done.result)}`, `${boardName(done)}: the result is ${boardResult(done.result)}`)
        : t(`${boardName(done)}：裁判長登記已清除，對局仍在進行`, `${boardName(done)}: the organiser's result cleared; the game goes on`);
      $("g-reason").value = "";
      await reload();
    } catch (e) {
      if (e.code === "would_replace" && !body.overwrite) {
        askReplace(c, e.data, body);
        return;
      }
      say(REFUSALS[e.code] || e.message);
    }
  }
  sendEntry = send;
  function askReplace(c, data, body) {
    const reason = $("g-reason").value.trim();
    const now = `${boardResult(data.current)}（${FROM[data.from] || data.from}）`;
    const next = body.result ? boardResult(body.result) : t("清除", "cleared");
    if (!reason) {
      say(t(`${boardName(c)}已有成績：${now}。要取代，請先寫明原因。`,
        `${boardName(c)} has a result already: ${now}. To replace it, give a reason first.`));
      $("g-reason").focus();
      return;
    }
    confirmThen(t(`${boardName(c)}（${c.red.name} 對 ${c.black.name}）已有成績：${now}。改為 ${next}？原因：${reason}`,
      `${boardName(c)} (${c.red.name} v ${c.black.name}) has a result already: ${now}. Replace it with ${next}? Reason: ${reason}`),
    () => send({ ...body, overwrite: true, reason }));
  }
  $("g-round").addEventListener("change", async (e) => {
    state.round = Number(e.target.value);
    await reload();
  });
  $("grid-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const value = $("g-result").value;
    const reason = $("g-reason").value.trim() || null;
    if (value === "clear") {
      const c = state.cells.find((x) => x.board === Number($("g-board").value));
      if (c) confirmThen(t(`清除${boardName(c)}裁判長登記的成績？對局的成績會重新計算。`,
        `Clear the organiser's result of ${boardName(c)}? The game's own result counts again.`), () => send({ result: null, reason }));
      return;
    }
    if (value) send({ result: value, reason });
  });
}
