// The announcing page of one who speaks for a player (附表七 7.4(2)(d)): the proxy a
// deaf player named before the game announces for him and presses his clock (7.4(2)(d)(ii));
// the referee announces for a player who cannot (6.3(7), 7.4(2)(c), 7.4(2)(d)(i)), and then
// the board move governs (7.4(2)(f)(iii)). Words go one by one, each binding once sent and
// shown back with the arbiter's verdict (possible or not, the touched piece, what may follow).
// A proxy opens `/proxy#token=…`; a referee `/proxy#token=…&table=N` (the monitor links it).

import {
  $, el, showWho, Connection, SIDE, announcer, describe, tableInfo, feed, banner,
  commandSender, wordEntry, renderClocks, boardName, words, word, move, result, call,
  unspeakable, kindOf, errorCode, moveLabel,
 t,
} from "./common.js";
import { Board, checked, differences } from "./board.js";

// Every message is read once: the feed and the banner are not live regions.
const say = announcer($("live-polite"), $("live"));
const wanted = Number(new URLSearchParams(location.hash.slice(1)).get("table")) || null;
const endpoint = wanted ? "monitor" : "seat";
let side = null; // the proxy's side; the referee speaks for the side to move
let referee = false;
let silent = false; // a proxy who does not announce
let table = null;
let snap = null;
let info = null;
let verdicts = []; // lines for the words of this turn, newest last
let nextWords = []; // the words that may follow the last one (highlighted keys)
let todoText = ""; // the to-do line as last read

const served = () => side || snap?.to_move || null;

/** The board of the side spoken for (its configured board, else the only one). */
function boardOf(s) {
  const id = info?.config?.[s]?.board || (snap?.boards.length === 1 ? snap.boards[0].board : null);
  return snap?.boards.find((b) => b.board === id) || null;
}

const board = new Board($("board"), {
  label: t("棋盤", "Board"),
  // A proxy operates the boards for his player (7.4(2)(g)(iii)); the referee corrects boards
  // from the monitor, so his board here is read-only.
  onMove: wanted ? null : (mv) => send({ type: "board_move", mv, board: boardOf(served())?.board }, moveLabel(mv, board.placement)),
});

const conn = new Connection(endpoint, {
  status: (t) => { $("status").textContent = t; },
  welcome: async (w) => {
    referee = w.role === "referee";
    side = { red_proxy: "red", black_proxy: "black" }[w.role] || null;
    table = referee ? (w.tables.includes(wanted) ? wanted : w.tables[0]) : w.tables[0];
    board.flip = side === "black";
    info = await tableInfo(table);
    const role = referee ? t("監局裁判", "referee") : side ? t(`${SIDE[side]}代理`, `${SIDE[side]} proxy`) : w.role;
    showWho(w.name, t(`（${role}）`, ` (${role})`), info?.name);
    document.title = `${t("報棋 代為報棋", "baoqi announcing")} — ${w.name}`;
    $("press").hidden = referee;
    // A VI player's proxy operates boards and clock but does not announce (7.4(2)(g)(iii)).
    const cats = info?.config?.[side]?.categories || [];
    silent = !referee && !cats.includes("deaf") && !cats.includes("聾啞");
    $("keys").hidden = silent;
    $("typed").hidden = silent;
    render();
  },
  state: (t, s) => { if (t === table) { snap = s; render(); } },
  event: (t, ev, live) => { if (t === table) onEvent(ev, live); },
  error: (e) => feed(`${t("錯誤：", "Error: ")}${errorCode(e.code)}`, true),
});

const send = commandSender(conn, () => table, say);

/** The verdict after one word, in words (the engine answers after every word). */
function verdictText(ev) {
  const w = ev.word ? word(ev.word, ev.side) : ev.text;
  if (!ev.possible) return t(`「${w}」：不可能是任何着法（${unspeakable(ev.why)}），可以重新報棋`, `“${w}”: no move can follow (${unspeakable(ev.why)}); announce again`);
  const next = ev.next?.length ? `${t("；下一字可為 ", "; the next word may be ")}${ev.next.map((n) => word(n, ev.side)).join(" ")}` : "";
  return ev.slot === 3 ? t(`「${w}」：四字完成，不能反悔`, `“${w}”: four words, the announcement binds`)
    : t(`「${w}」：可能的着法，尚餘 ${ev.completions} 種${next}`, `“${w}”: a possible move, ${ev.completions} completions left${next}`);
}

function onEvent(ev, live) {
  const text = describe(ev);
  feed(text, ["referee_needed", "checked", "impossible", "violation", "game_over", "signalled"].includes(ev.type));
  switch (ev.type) {
    case "turn": verdicts = []; nextWords = []; break;
    case "word": verdicts.push(verdictText(ev)); nextWords = ev.possible ? ev.next || [] : []; break;
    case "touched": verdicts.push(t(`摸子：${kindOf(ev.kind, ev.side)}（${ev.point}）${ev.can_move ? "，須以此子走子" : "，此子無合法着法"}`,
      `Touched: ${kindOf(ev.kind, ev.side)} (${ev.point})${ev.can_move ? ", it must move" : ", it has no legal move"}`)); break;
    case "announced": verdicts.push(text); break;
    default: break;
  }
  if (live && ["signalled", "referee_needed", "checked", "impossible", "game_over"].includes(ev.type)) {
    say(text, true);
    if (ev.type === "signalled" && ev.side === served()) banner(t(`${SIDE[ev.side]}已示意：請代為報棋`, `${SIDE[ev.side]} signalled: announce for him`));
  }
  if (["announced", "moved", "turn"].includes(ev.type)) $("banner").classList.remove("on");
  if (live && ev.type === "word") say(verdicts.at(-1));
}

// The word keys and typed words, one by one, each binding.
wordEntry((text) => ({ type: "word", text }), send);
$("press").addEventListener("click", () => send({ type: "press_clock" }, t("代按棋鐘", "Press the clock for him")));

const clocks = () => renderClocks($("clocks"), snap, { mark: (s) => (s === served() ? t("（代報）", " (announced for)") : "") });
setInterval(clocks, 250);

/** What the one who speaks must do now, from the arbiter's open calls and the snapshot. */
function todo() {
  if (snap.phase !== "playing") return "";
  if (silent) return t("代理操作棋盤及代按棋鐘，不代為報棋 (7.4(2)(g)(iii))", "The proxy moves on the board and presses the clock, but does not announce (7.4(2)(g)(iii))");
  const s = served();
  const open = (snap.calls || []).find((c) => c.kind === "announce_for" && c.side === s);
  if (open) return `${t("請代為報棋：", "Announce for him: ")}${call(open)}`;
  if (snap.to_move !== s) return t(`等候${SIDE[snap.to_move]}`, `Waiting for ${SIDE[snap.to_move]}`);
  const said = snap.announced ? words(snap.announced, snap.to_move) : "";
  if (said) return referee ? t(`已報：${said}，等候該方按鐘`, `Announced: ${said}; waiting for his clock press`) : t(`已報：${said}，請代按棋鐘`, `Announced: ${said}; press the clock for him`);
  return t(`等候${SIDE[s]}走子示意`, `Waiting for ${SIDE[s]} to move and signal`);
}

function render() {
  if (!snap) return;
  const s = served();
  $("for").textContent = s ? t(`為${SIDE[s]}報棋`, `announcing for ${SIDE[s]}`) : "";
  const mine = s ? boardOf(s) : null;
  const game = snap.fen.split(" ")[0];
  board.label = mine ? `${t(`${SIDE[s]}的`, `${SIDE[s]}: `)}${boardName(mine.board)}${mine.diverging ? t("：與對局不同", ": differs from the game") : ""}` : t("對局", "Game");
  board.draw(mine?.placement || game, { last: snap.moves.at(-1)?.mv.iccs || "", check: checked(snap.moves.at(-1)), diff: mine ? differences(mine.placement, game) : [] });
  const over = snap.phase === "over";
  $("turn").textContent = over ? t("對局結束", "Game over") : snap.phase === "not_started" ? t("未開鐘", "Not started")
    : t(`輪到${SIDE[snap.to_move]}${snap.phase === "paused" ? "（暫停）" : ""}`, `${SIDE[snap.to_move]} to move${snap.phase === "paused" ? " (paused)" : ""}`);
  // The to-do line is not a live region (only the two hidden ones are): a new task is read
  // once, politely, when it changes.
  const task = todo();
  $("todo").textContent = task;
  if (task !== todoText) { todoText = task; say(task); }
  $("result").textContent = result(snap.result);
  $("words").replaceChildren(...snap.attempt.map((w) => el("span", { class: "word" }, word(w, snap.to_move))));
  $("verdict").textContent = snap.announced ? `${t("已報（不能反悔）：", "Announced (binding): ")}${words(snap.announced, snap.to_move)}` : verdicts.at(-1) || "";
  $("verdicts").replaceChildren(...verdicts.map((v) => el("li", {}, v)));
  $("moves").replaceChildren(...snap.moves.map((m) => el("li", {}, `${SIDE[m.side]} ${move(m.mv, m.side, m.draw_offer)}${t(`（${m.mv.iccs}）`, ` (${m.mv.iccs})`)}`)));
  const next = new Set(snap.attempt.length ? nextWords : []);
  for (const b of $("keys").children) b.classList.toggle("next", next.has(b.dataset.token));
  $("press").disabled = over || snap.to_move !== s;
  clocks();
}
