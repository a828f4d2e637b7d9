// The organiser's register page: `/organiser#event=N&token=T` (the token of a
// referee of every table of the event, taken from the address into the tab's session storage
// by common.js; without one in the link, the page asks for it and keeps it only in memory). It reads /api/events/N/players and draws the register as a real
// table, a form to add a late entrant or correct a player's line, a form to withdraw a player
// (89(2)), the current round's boards with 108's corrections (app/corrections.js) and the
// change log. Every request carries `Authorization: Bearer`; a refusal is read out from a
// role=alert region, in the page's language when its code is known. The page follows the day
// by itself: every few seconds it asks the event's version (GET /api/events/N/version), and
// when another browser, the command line or a table changed the event, it draws it again,
// leaving what the organiser is typing in its fields and the focus where it was.

import { $, adoptToken, boardResult, confirmThen, el, t, token } from "./common.js";
import { correctionText, drawBoards, initCorrections } from "./corrections.js";
import { drawGrid, initGrid } from "./grid.js";
import { initPairing } from "./pairing.js";

const params = () => new URLSearchParams(location.hash.slice(1));
const eventId = () => params().get("event") || "";
// The link's token was taken into session storage when common.js loaded (adoptToken).
let bearer = token();
/** The player being edited, or null when the form adds one. */
let editing = null;
let register = null;
/** The event's version drawn last; a poll that finds another draws the page again. */
let shown = null;
/** A drawing under way: a poll waits for the next turn rather than draw twice at once. */
let busy = false;
/** How often the page asks whether the event changed. */
const FOLLOW_MS = 3000;

const CATEGORIES = {
  blind: t("全失明", "totally blind"),
  partially_sighted: t("部份失明", "partially sighted"),
  sighted: t("健視", "sighted"),
  deaf: t("聾啞", "deaf"),
  physical: t("肢體傷殘", "physically disabled"),
};
const BOARDS = { vi: t("視障棋盤", "VI board"), regular: t("正規棋盤", "regular board"), none: t("無棋盤", "no board") };

/** The server's refusals, by code, in the page's language. */
const REFUSALS = {
  unauthorized: t("令牌無效：請用全場裁判的令牌", "The token opens nothing: use the token of a referee of the whole event"),
  forbidden: t("此令牌不是全場裁判的令牌", "This token is not a referee's of every table of the event"),
  unknown_player: t("沒有此賽員", "There is no such player"),
  already_withdrawn: t("此賽員已退出（第89(2)條）", "This player has already withdrawn (89(2))"),
  empty_name: t("請填寫姓名", "Give the player's name"),
  zero_seed: t("種子由 1 起", "Seeds start at 1"),
  duplicate_seed: t("此種子已屬另一賽員", "Another player holds this seed"),
  nothing: t("沒有更改", "Nothing to change"),
  same_name: t("名冊上已有同名同會的賽員", "A player of this name and club is registered already"),
  draw_fixed: t("循環賽已按種子抽籤，種子及等級分不能再改", "The round robin was drawn by the seeds: seeds and ratings can no longer change"),
  round_robin_started: t("循環賽開賽後不能加入新賽員", "A round robin takes no late entrant once play has begun"),
  no_event: t("沒有此賽事", "There is no such event"),
  not_a_tournament: t("此賽事不是錦標賽", "This event is not a tournament"),
};

function say(text) {
  $("error").replaceChildren(text ? el("p", {}, text) : "");
}

/** A request to the event's organiser API (`path` under /api/events/N); resolves with the
 * JSON, or throws the refusal's text with its `code`. */
async function api(method, path, body) {
  const headers = { Authorization: `Bearer ${bearer}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const resp = await fetch(`/api/events/${eventId()}${path}`, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await resp.json().catch(() => null);
  if (!resp.ok) {
    const e = new Error(REFUSALS[data?.code] || data?.error || t(`請求失敗（${resp.status}）`, `The request failed (${resp.status})`));
    e.code = data?.code;
    e.data = data;
    throw e;
  }
  return data;
}

function categories(p) {
  const list = p.categories.map((c) => CATEGORIES[c] || c);
  if (!list.length) list.push(CATEGORIES.sighted);
  if (p.blindfold) list.push(t("眼罩", "blindfold"));
  return list.join(t("、", ", "));
}

function minutes(ms) {
  const m = Math.floor(ms / 60000);
  const s = Math.round((ms % 60000) / 1000);
  return s ? `${m}′${String(s).padStart(2, "0")}″` : `${m}′`;
}

function playersTable(view) {
  const head = [t("編號", "No."), t("姓名", "Name"), t("所屬團體", "Club"), t("種子", "Seed"),
    t("類別", "Categories"), t("用時", "Time"), t("棋盤", "Board"), t("狀態", "Status"), t("操作", "Action")];
  const rows = view.players.map((p) => el("tr", {},
    el("td", {}, String(p.player.id)),
    el("th", { scope: "row" }, p.player.name),
    el("td", {}, p.player.club || ""),
    el("td", {}, p.player.seed ? String(p.player.seed) : ""),
    el("td", {}, categories(p.player)),
    el("td", {}, minutes(p.settings.time.base_ms)),
    el("td", {}, BOARDS[p.settings.board] || ""),
    el("td", {}, p.active ? t("參賽", "playing") : t("已退出", "withdrawn")),
    el("td", {}, el("button", { type: "button", "data-key": `edit-${p.player.id}`, onclick: () => startEdit(p.player) },
      t(`修改 ${p.player.name}`, `Edit ${p.player.name}`))),
  ));
  return el("table", { class: "standings register" },
    el("caption", {}, t(`名冊（${view.players.length}人，已配對${view.rounds}輪）`,
      `Register: ${view.players.length} players, ${view.rounds} round(s) paired`)),
    el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col" }, h)))),
    el("tbody", {}, ...rows));
}

/** A player by number, as the log names him. */
function who(id) {
  const p = register?.players.find((x) => x.player.id === id);
  return p ? `#${id} ${p.player.name}` : `#${id}`;
}

const ADJUSTMENTS = {
  redraw: t("開賽前：重新抽籤", "before the start: drawn again without him"),
  annulled: t("其對局全部取消", "his games are annulled"),
  remaining_forfeited: t("其餘對局作缺席論", "his remaining games are lost by absence"),
  not_paired: t("成績保留，不再編排", "his results stand; he is paired no more"),
};

/** The seats' roles as the log names them. */
const ROLE_NAMES = {
  red: t("紅方", "red"), black: t("黑方", "black"), red_proxy: t("紅方代理", "red's proxy"),
  black_proxy: t("黑方代理", "black's proxy"), referee: t("裁判", "referee"), spectator: t("觀眾", "spectator"),
};

/** A seat's link issued after the event was made: a lost one reissued, or a spectator added. */
function seatText(v) {
  const role = ROLE_NAMES[v.role] || v.role;
  const at = v.tables.length ? t(`第${v.tables.join("、")}桌`, `table(s) ${v.tables.join(", ")}`) : t("所有桌", "every table");
  return v.reissued
    ? t(`${role} ${v.name}（${at}）：連結重發，舊連結作廢`, `${role} ${v.name} (${at}): link reissued, the old one revoked`)
    : t(`新增${role}連結 ${v.name}（${at}）`, `${role} ${v.name} (${at}): link added`);
}

/** One change of the log in the page's language; the server's English for the rest. */
function changeText(c) {
  const [kind, v] = typeof c.change === "string" ? [c.change, {}] : Object.entries(c.change)[0];
  const core = kind === "change" ? Object.entries(v)[0] : kind === "withdrawal" ? Object.entries(v.change)[0] : null;
  const corrected = core ? correctionText(...core, who) : correctionText(kind, v, who);
  if (corrected) return corrected;
  if (core?.[0] === "late_entrant") {
    const half = core[1].missed === "half_point";
    return t(`遲到賽員 ${who(core[1].player)}，由第${core[1].from_round}輪起編排${half ? "，缺賽各輪每輪半分" : ""}`,
      `late entrant ${who(core[1].player)}, paired from round ${core[1].from_round}${half ? ", half a point for each round missed" : ""}`);
  }
  if (core?.[0] === "withdrawn") {
    const reason = v.reason ? t(`（原因：${v.reason}）`, ` (reason: ${v.reason})`) : "";
    return t(`第89(2)條：${who(core[1].player)} 退出，${ADJUSTMENTS[core[1].adjustment]}`,
      `89(2): ${who(core[1].player)} withdrew: ${ADJUSTMENTS[core[1].adjustment]}`) + reason;
  }
  const because = v?.reason ? t(`（原因：${v.reason}）`, ` (reason: ${v.reason})`) : "";
  if (kind === "entered" && v.after && v.before === v.after) {
    // The game's own result entered as it is: made final (7.9), nothing replaced.
    return t(`第${v.round}輪第${v.board}台：核實棋局結果 ${boardResult(v.after)}，${v.by}`,
      `round ${v.round} board ${v.board}: the game's result ${boardResult(v.after)} confirmed, by ${v.by}`) + because;
  }
  if (kind === "entered") {
    const was = v.before ? t(`（原為 ${boardResult(v.before)}）`, ` (was ${boardResult(v.before)})`) : "";
    return (v.after
      ? t(`第${v.round}輪第${v.board}台：登記成績 ${boardResult(v.after)}${was}，${v.by}`, `round ${v.round} board ${v.board}: result entered, ${boardResult(v.after)}${was}, by ${v.by}`)
      : t(`第${v.round}輪第${v.board}台：清除裁判長登記的成績${was}，${v.by}`, `round ${v.round} board ${v.board}: the organiser's result cleared${was}, by ${v.by}`)) + because;
  }
  if (kind === "unpaired") {
    return t(`第${v.round}輪取消配對（未開賽）：第${v.tables.join("、")}桌作廢`, `round ${v.round} un-paired before its games started: table(s) ${v.tables.join(", ")} set aside`);
  }
  if (kind === "deleted") {
    return t(`刪除名冊上的 #${v.player.id} ${v.player.name}（登記錯誤，並非退出）`, `#${v.player.id} ${v.player.name} struck from the register (a clerical delete, not a withdrawal)`) + because;
  }
  if (kind === "seat") return seatText(v);
  if (kind === "lot") {
    return t(`第${v.round}輪抽籤：${who(v.first)} 對 ${who(v.second)}，${who(v.winner)} 出線`,
      `round ${v.round}, the lot: ${who(v.first)} v ${who(v.second)}, ${who(v.winner)} goes through`);
  }
  if (kind === "edited") return t(`修改 ${who(v.before.id)} 的資料`, `${who(v.before.id)}'s line corrected`);
  if (kind === "registered") return t(`匯入名冊：${v.players}人`, `register imported: ${v.players} players`);
  if (kind === "paired") return t(`第${v.round}輪配對：${v.games}局`, `round ${v.round} paired: ${v.games} games`);
  return c.text;
}

function logList(view) {
  const items = [...view.changes].reverse().map((c) => el("li", {},
    el("time", { datetime: new Date(c.at).toISOString() }, new Date(c.at).toLocaleString()), " ", changeText(c)));
  return items.length ? items : [el("li", {}, t("未有更改", "No change yet"))];
}

function draw(view) {
  register = view;
  $("event-name").textContent = view.name;
  $("players").replaceChildren(playersTable(view));
  const pick = $("w-player");
  const chosen = pick.value;
  pick.replaceChildren(...view.players.filter((p) => p.active).map((p) =>
    new Option(`#${p.player.id} ${p.player.name}`, String(p.player.id))));
  if ([...pick.options].some((o) => o.value === chosen)) pick.value = chosen;
  $("log").replaceChildren(...logList(view));
  drawBoards(view, who);
  for (const id of ["players-section", "form-section", "withdraw-section", "log-section", "rounds-section", "backup-section"]) $(id).hidden = false;
  $("login").hidden = true;
}

/** The event's version now (null when it cannot be read: the next poll asks again). */
const version = () => api("GET", "/version").then((v) => v.version, () => null);

/** What came into the change log since `before` was drawn, said once (role=status); a
 * game's own result at its table comes into the grid unsaid. */
function news(before) {
  const fresh = register.changes.slice(before.changes.length);
  if (!fresh.length) return null;
  const last = changeText(fresh.at(-1));
  return fresh.length > 1 ? t(`已更新（${fresh.length}項）：${last}`, `Updated (${fresh.length} changes): ${last}`)
    : t(`已更新：${last}`, `Updated: ${last}`);
}

/** Draws the page from the server; `message` is said after an action of the page's own.
 * A redraw keeps the focus on the button it was on (the register's and the grid's buttons
 * are drawn anew); the forms' fields are never touched. */
async function load(message = "") {
  if (!eventId()) {
    $("status").textContent = t("網址缺少賽事編號（#event=1）", "The address names no event (#event=1)");
    return;
  }
  if (!bearer) {
    $("login").hidden = false;
    return;
  }
  const before = register;
  const key = document.activeElement?.dataset?.key;
  busy = true;
  try {
    const tag = await version();
    draw(await api("GET", "/players"));
    await drawGrid(api, register.rounds || 0);
    if (key && document.activeElement?.dataset?.key !== key) document.querySelector(`[data-key="${key}"]`)?.focus();
    shown = tag;
    const said = message || (before ? news(before) : t(`名冊已更新：${register.players.length}人`, `Register updated: ${register.players.length} players`));
    if (said) $("status").textContent = said;
  } catch (e) {
    $("login").hidden = false;
    say(e.message);
  } finally {
    busy = false;
  }
}

/** Draws the page again when the event changed since it was drawn; not while the page asks
 * the organiser something (a confirmation names the board or player it is about) or draws. */
async function follow() {
  if (!register || busy || $("confirm").open) return;
  const tag = await version();
  if (tag !== null && tag !== shown && !busy && !$("confirm").open) await load();
}

/** The form's fields as the API's patch (every field given, so an edit replaces them all). */
function patch() {
  const num = (v) => (v.trim() === "" ? null : Number(v));
  return {
    name: $("f-name").value,
    club: $("f-club").value.trim() || null,
    seed: num($("f-seed").value),
    rating: num($("f-rating").value),
    categories: [...document.querySelectorAll("#f-categories input:checked")].map((c) => c.value),
    blindfold: $("f-blindfold").checked,
    knows_notation: $("f-notation").checked,
    proxy: $("f-proxy").value.trim() || null,
    board: $("f-board").value || null,
    sex: $("f-sex").value || null,
    born: num($("f-born").value),
    // Chosen once, when a late entrant is added (a correction takes no `missed`).
    ...(editing === null ? { missed: $("f-missed").value } : {}),
  };
}

function fill(p) {
  $("f-name").value = p?.name || "";
  $("f-club").value = p?.club || "";
  $("f-seed").value = p?.seed ?? "";
  $("f-rating").value = p?.rating ?? "";
  for (const c of document.querySelectorAll("#f-categories input")) c.checked = !!p?.categories.includes(c.value);
  $("f-blindfold").checked = !!p?.blindfold;
  $("f-notation").checked = p ? p.knows_notation : true;
  $("f-proxy").value = p?.proxy || "";
  $("f-board").value = p?.board || "";
  $("f-sex").value = p?.sex || "";
  $("f-born").value = p?.born ?? "";
  $("f-missed").value = "nothing";
}

function startEdit(p) {
  editing = p.id;
  fill(p);
  $("h-form").textContent = t(`修改賽員 #${p.id} ${p.name}`, `Edit player #${p.id} ${p.name}`);
  $("f-submit").textContent = t("儲存修改", "Save the changes");
  $("f-cancel").hidden = false;
  $("f-missed-line").hidden = true;
  $("f-name").focus();
}

function stopEdit() {
  editing = null;
  fill(null);
  $("h-form").textContent = t("登記遲到賽員", "Add a late entrant");
  $("f-submit").textContent = t("登記賽員", "Register the player");
  $("f-missed-line").hidden = false;
  $("f-cancel").hidden = true;
}

async function submitPlayer(ev) {
  ev.preventDefault();
  say("");
  const body = patch();
  if (!body.name.trim()) {
    say(REFUSALS.empty_name);
    $("f-name").focus();
    return;
  }
  await sendPlayer(body);
}

/** Sends the form; a second player of a name and club already registered is asked
 * about first, and sent again with the organiser's confirmation. */
async function sendPlayer(body) {
  try {
    const done = editing === null ? await api("POST", "/players", body) : await api("PATCH", `/players/${editing}`, body);
    const message = editing === null
      ? t(`已登記 #${done.player.id} ${done.player.name}`, `Registered #${done.player.id} ${done.player.name}`)
      : t(`已修改 #${done.player.id} ${done.player.name}`, `Saved #${done.player.id} ${done.player.name}`);
    stopEdit();
    await load(message);
  } catch (e) {
    if (e.code === "same_name" && !body.allow_same_name) {
      confirmThen(t(`名冊上已有「${body.name}」${body.club ? `（${body.club}）` : ""}：是另一位賽員嗎？確定則照樣登記。`,
        `"${body.name}"${body.club ? ` (${body.club})` : ""} is registered already: is this another player? Confirm to register him too.`),
      () => sendPlayer({ ...body, allow_same_name: true }));
      return;
    }
    say(e.message);
  }
}

/** Asks first: a withdrawal (89(2)) cannot be undone. */
function askWithdraw(ev) {
  ev.preventDefault();
  say("");
  const id = $("w-player").value;
  if (!id) return;
  const name = who(Number(id));
  confirmThen(t(`${name} 退出比賽（第89(2)條）：不再編排，其成績按賽制調整。不能收回。確定退出？`,
    `${name} withdraws (89(2)): he is paired no more and his scores are adjusted as the system says. This cannot be undone. Withdraw him?`),
  () => submitWithdraw(id));
}

async function submitWithdraw(id) {
  try {
    await api("POST", `/players/${id}/withdraw`, { reason: $("w-reason").value.trim() || null });
    $("w-reason").value = "";
    await load(t(`${who(Number(id))} 已退出`, `${who(Number(id))} has withdrawn`));
  } catch (e) {
    say(e.message);
  }
}

$("login").addEventListener("submit", (ev) => {
  ev.preventDefault();
  bearer = $("token-input").value.trim();
  say("");
  load();
});
$("player-form").addEventListener("submit", submitPlayer);
$("f-cancel").addEventListener("click", stopEdit);
$("withdraw-form").addEventListener("submit", askWithdraw);
initCorrections(api, () => load());
initGrid(api, () => load());
initPairing(api, () => load());
window.addEventListener("hashchange", () => { adoptToken(); bearer = token() || bearer; load(); });
load();
setInterval(follow, FOLLOW_MS);

/** Downloads the event's backup (one hall's file holding this event alone, for a second
 * laptop): fetched with the page's token, saved under the event's number and the time. */
async function downloadBackup() {
  const status = $("backup-status");
  status.textContent = t("正在準備備份…", "Preparing the backup…");
  try {
    const resp = await fetch(`/api/events/${eventId()}/backup`, { headers: { Authorization: `Bearer ${bearer}` } });
    if (!resp.ok) throw new Error(t(`備份失敗（${resp.status}）`, `The backup failed (${resp.status})`));
    const blob = await resp.blob();
    const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, "").replace("T", "-");
    const name = `baoqi-event-${eventId()}-${stamp}.db`;
    const link = el("a", { href: URL.createObjectURL(blob), download: name });
    document.body.append(link);
    link.click();
    link.remove();
    status.textContent = t(`已下載 ${name}（${Math.ceil(blob.size / 1024)} KB）`, `Downloaded ${name} (${Math.ceil(blob.size / 1024)} KB)`);
  } catch (e) {
    status.textContent = e.message;
  }
}

$("backup-button").addEventListener("click", downloadBackup);
