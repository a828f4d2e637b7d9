// The player page (a sighted or low-vision player, or a proxy): announce word by word, press
// the clock, confirm mirroring, offer/accept/decline a draw, resign; a visual board and a
// text-first screen-reader mode. With `<main data-readonly>` it is the spectator view.

import {
  $, el, showWho, showDownloads, Connection, SIDE, fmtTime, announcer, describe, tableInfo, token, feed,
  banner, flash, commandSender, wordEntry, renderClocks, boardName, words, word, move, result,
  unspeakable, errorCode, moveLabel,
 t, confirmThen,
} from "./common.js";
import { Board, checked, showsMove } from "./board.js";
import { command as nvui, slip } from "./nvui.js";
import { CommandField } from "./seat_commands.js";
import { Narrator, VERBOSITY_NAME, ownBoardStep } from "./narrate.js";
import { designate } from "./notation.js";
import { chooser, enteredNews, enteredText, latestFirst, record, tableLabel } from "./spectator.js";
import { summary as summaryOf, moveMade as moveMadeBy } from "./summary.js";

const readonly = document.querySelector("main").dataset.readonly === "true";
const endpoint = readonly ? "watch" : "seat";
// Every message is read once: the feed, the banner and the status lines are not live regions.
const say = announcer($("live-polite"), $("live"));
let me = null; // "red" | "black" for a seat
let table = null;
let snap = null;
let lastWord = null; // the last word event of the current attempt, for its verdict
let info = null;
/** A summary is owed at the next state: "join" (the first) or "reconnect". */
let summaryOwed = null;
let joinedOnce = false;
/** Whether the current outage has been said. */
let outageSaid = false;

/** Where this seat stands (summary.js), with the board it operates and, for a spectator,
 * the organiser's result. */
const summary = () => summaryOf(snap, me, { board: myBoard(), entered: enteredText(table) });

const board = new Board($("board"), {
  label: t("棋盤（對局）", "Board"),
  help: "board-help",
  onMove: readonly ? null : (mv) => boardMove(mv),
});

$("cmdhelp").textContent = t("h 說明；c 時間；d 須做甚麼；報棋直接打 C2=5", "h help; c time; d what to do; type words as C2=5");
const textmode = $("textmode");
// A link with `?text` opens in the screen-reader mode (a blind player's link, printed for
// him), and the choice is remembered as the checkbox's is.
if (new URLSearchParams(location.search).has("text")) localStorage.setItem("baoqi-textmode", "1");
textmode.checked = localStorage.getItem("baoqi-textmode") === "1";

/** The command field comes first in the screen-reader mode (one Tab from the summary),
 * after the board otherwise (a sighted player's board stays on a phone's first
 * screen). */
function placeCommands() {
  document.body.classList.toggle("textmode", textmode.checked);
  const commands = $("h-cmd").closest("section");
  const row = $("board-sec").parentElement;
  if (textmode.checked) row.before(commands);
  else row.after(commands);
}
placeCommands();

textmode.addEventListener("change", () => {
  placeCommands();
  localStorage.setItem("baoqi-textmode", textmode.checked ? "1" : "0");
  render();
  say(textmode.checked ? t("文字模式已開", "Text mode on") : t("文字模式已關", "Text mode off"), true);
});

/** How much the seat's screen reader hears: auto, terse or full. */
let verbosity = localStorage.getItem("baoqi-verbosity") || "auto";
const setVerbosity = (v) => {
  verbosity = v;
  localStorage.setItem("baoqi-verbosity", v);
  if ($("verbosity")) $("verbosity").value = v;
  return t(`讀出：${VERBOSITY_NAME[v]}`, `Verbosity: ${VERBOSITY_NAME[v]}`);
};
// A spectator's page (watch.html) has no choice: it hears each event as the feed writes it.
if ($("verbosity")) {
  $("verbosity").value = verbosity;
  $("verbosity").addEventListener("change", (e) => say(setVerbosity(e.target.value)));
}
/** The seat's narrator (narrate.js); a spectator hears each event as the feed writes it. */
let narrator = null;
let burst = null;

const conn = new Connection(endpoint, {
  // One message on joining (the summary): the status line is not a live region here; a
  // lost connection is said at once.
  status: (line) => {
    // Said once per outage: each failed attempt (every 1.5 s) sets the line again, and a
    // server that stops answering is 「連線無回應」 before it is 「連線中斷」.
    const offline = document.body.classList.contains("offline");
    $("status").textContent = line;
    if (offline && !outageSaid) say(line, true);
    outageSaid = offline;
  },
  welcome: async (w) => {
    summaryOwed = summaryOwed === null && joinedOnce ? "reconnect" : "join";
    joinedOnce = true;
    me = { red: "red", black: "black", red_proxy: "red", black_proxy: "black" }[w.role] || null;
    narrator = me ? new Narrator(me, () => verbosity, () => snap?.phase === "playing" && snap.to_move === me, () => myBoard()?.board ?? null) : null;
    const wanted = Number(new URLSearchParams(location.hash.slice(1)).get("table"));
    table = w.tables.includes(wanted) ? wanted : readonly && w.tables.length ? await latestFirst(w.tables) : w.tables[0];
    if (readonly) chooser(w.tables, table);
    board.flip = me === "black";
    // A spectator of an event not yet paired waits for its tables (`tables`).
    info = table === undefined ? null : await tableInfo(table);
    const roleName = me ? `${SIDE[me]}${w.role.endsWith("proxy") ? t("代理", " proxy") : ""}` : t("觀眾", "spectator");
    showWho(w.name, t(`（${roleName}）`, ` (${roleName})`), info?.name);
    document.title = `${t("報棋", "baoqi")} — ${w.name}`;
    const cfg = info?.config?.[me];
    // A proxy's page is the announcing page (7.4(2)(d)(ii)); `?stay` keeps this one.
    if (!readonly && w.role.endsWith("proxy") && !location.search.includes("stay")) {
      location.replace("/proxy#token=" + encodeURIComponent(token()));
      return;
    }
    if (!readonly && me) {
      const link = $("cardlink");
      link.href = "/card#token=" + encodeURIComponent(token());
      link.hidden = false;
      // A deaf player's seat opens the card UI (附表七 7.1(2)); `?stay` keeps this page.
      if (cfg?.categories?.includes("deaf") && !location.search.includes("stay")) {
        location.replace(link.href);
      }
    }
    render();
  },
  // A spectator's page follows the tables of the event as rounds are paired.
  // A table set aside by a replay (108) leaves the list; its viewers are moved to the first.
  tables: (m) => {
    const aside = m.set_aside || [];
    for (const id of aside) $("table-pick")?.querySelector(`option[value="${id}"]`)?.remove();
    chooser(m.tables, table);
    if (aside.includes(table)) {
      const name = tableLabel(table, info);
      say(t(`${name}作廢（第108條重賽，另開新台）`, `${name} was set aside (replayed at a new table, art. 108)`), true);
      table = null;
    }
    if (table === undefined || table === null) show(m.tables[0]);
  },
  // The organiser entered, corrected or cleared a board's result (a spectator's page).
  recorded: (m) => {
    if (!record(m).includes(table) || !snap) return;
    render();
    $("summary").textContent = summary();
    say(enteredNews(table, info));
  },
  state: (t, s) => {
    if (t !== table) return;
    snap = s;
    render();
    // On joining and on every reconnect, one message says where the player stands;
    // the focus goes to it on joining.
    if (summaryOwed) {
      const joined = summaryOwed === "join";
      summaryOwed = null;
      const said = summary();
      $("summary").textContent = said;
      // Said once, by the live region. On joining in the screen-reader mode the focus goes
      // to the command field, where he types next (a focused paragraph is read twice by a
      // screen reader, as its name and as its text); on a reconnect it stays where he is.
      if (joined && !readonly && textmode.checked) $("cmd").focus();
      say(said);
    } else {
      // Kept current, unsaid (not a live region): read or browsed later, it is not the
      // morning's 「未開鐘」.
      $("summary").textContent = summary();
    }
  },
  event: (t, ev, live) => { if (t === table) onEvent(ev, live); },
  error: (e) => { const line = `${t("錯誤：", "Error: ")}${errorCode(e.code)}`; feed(line, true); say(line, true); },
});

$("table-pick")?.addEventListener("change", (e) => show(Number(e.target.value)));

/** Shows table `id` (the spectator's choice): its state as last received, then its events. */
async function show(id) {
  if (id === undefined || id === null) return;
  table = id;
  const params = new URLSearchParams(location.hash.slice(1));
  params.set("table", String(id));
  history.replaceState(null, "", `#${params}`);
  snap = conn.tables.get(id) || null;
  lastWord = null;
  info = await tableInfo(id);
  showWho(conn.welcome?.name || "", t("（觀眾）", " (spectator)"), info?.name);
  if ($("table-pick")) $("table-pick").value = String(id);
  render();
  // The summary is the table's now, not the one shown before; said with the table's name.
  $("summary").textContent = summary();
  say(`${tableLabel(id, info)}${t("。", ". ")}${summary()}`);
}

/** The player page's banner stays 12 s; its flash vibrates shorter than the card UI's. */
const BANNER_MS = 12000;
const VIBRATION = [300, 150, 300];

/** Events a player must hear at once (assertive): alerts, rulings, what he must put right. */
const URGENT = ["time_alert", "referee_needed", "repetition_warning", "warning_issued", "game_over",
  "impossible", "violation", "correction_required", "reannounce_required", "restore_required", "board_diverges"];
/** A call for the referee about the opponent is no player's to act on: polite
 * (nothing a player need not act on made assertive). */
const aboutOpponent = (ev) => ev.type === "referee_needed" && me && ev.side && ev.side !== me;
const urgent = (ev) => (URGENT.includes(ev.type) && !aboutOpponent(ev))
  || (ev.type === "checked" && !["agree", "corrected"].includes(ev.outcome));

/** Says what an event brings to this seat (narrate.js): one message per happening; what a
 * burst of events leaves held (an opponent's move without its turn) is said when it ends. */
function narrate(ev) {
  // Its own board step is said with the move's words (not ICCS only).
  if (ev.type === "board" && ev.by === me && ev.step?.step === "move") {
    // Written as the board showed it before the step (a mirrored move is already the game's).
    const d = designate(myBoard()?.placement || snap?.fen, ev.step.mv);
    say(ownBoardStep(boardName(ev.board), d ? words(d.tokens, d.side) : "", ev.step.mv));
  }
  for (const m of narrator.hear(ev)) say(m.text, m.urgent);
  clearTimeout(burst);
  burst = setTimeout(() => { for (const m of narrator.flush()) say(m.text, m.urgent); }, 60);
}

function onEvent(ev, live) {
  const text = describe(ev);
  const alert = urgent(ev);
  feed(text, alert);
  if (ev.type === "word") lastWord = ev;
  if (ev.type === "turn" || ev.type === "moved") lastWord = null;
  if (!live) return;
  if (ev.type === "time_alert") {
    banner(text, BANNER_MS);
    flash(VIBRATION);
  }
  if (["repetition_warning", "warning_issued", "game_over"].includes(ev.type)) banner(text, BANNER_MS);
  // A pause says why while it lasts (a server restart, an adjournment); the resumption says so.
  if (ev.type === "paused") banner(text);
  if (ev.type === "resumed") banner(text, BANNER_MS);
  if (narrator) narrate(ev);
  else say(text, alert);
}

/** Sends a command; the answer is shown, and a refusal read at once (what was accepted is
 * read as the event it brings). Resolves true when accepted; a spectator sends nothing. */
const send = readonly ? async () => false : commandSender(conn, () => table, say, () => me);

/** Whether this table uses cards (a deaf player sits at it). */
function cards() {
  const c = info?.config;
  return ["red", "black"].some((s) => c?.[s]?.categories?.includes("deaf"));
}

/** Whether the opponent's draw card is in my hand (an offer made by card). */
function offerCardWithMe() {
  return Boolean(snap?.cards?.some((c) => c.owner !== me && c.card === "draw" && c.holder === me));
}

function wordCommand(text) {
  const repeating = snap && me && snap.to_move === me && snap.pending?.repeat;
  return repeating ? { type: "repeat_word", text } : { type: "word", text };
}

/** What typed letters and ICCS are read against (notation.js): the game's position, the
 * seat's side, the words said this turn, a read-back owed and the move it is of. */
function wordContext() {
  const repeat = snap?.to_move === me ? snap?.pending?.repeat : null;
  return { fen: snap?.fen, side: me, slot: snap?.attempt.length || 0, repeat: repeat?.words, last: snap?.moves.at(-1)?.mv };
}

/** What is said of typed words that cannot be read (nothing is sent). */
const slipText = slip;

/** The board this seat operates (7.4(2)(g)): the one its configuration names, else the
 * table's only board (視障賽: one VI board); none at a table without boards. */
function myBoard() {
  if (readonly || !snap) return null;
  const id = (me && info?.config?.[me]?.board) || (snap.boards.length === 1 ? snap.boards[0].board : null);
  return snap.boards.find((x) => x.board === id) || null;
}

/** Whether this seat plays the moves on a board of its own. */
const hasBoard = () => myBoard() !== null;

/** What this turn still owes before the clock is pressed, in words: a move check to
 * answer (6.4), the move on this seat's board while the board still shows the position
 * the turn began with and this page has not moved on it, and the announcement while it is
 * not complete at a table where this seat announces (報棋未完成便按鐘); empty when nothing is
 * owed or it is not this seat's turn. A press with any of these owed is a clock violation:
 * the page asks first, and the player may still press. */
function owedBeforePress() {
  const p = snap?.pending || {};
  if (!snap || snap.phase !== "playing" || snap.to_move !== me) return [];
  // A read-back owed (6.3(7), 7.4(2)(c)) is an early press too (126(1)(a)).
  if (p.repeat) return [t("複讀", "the read-back")];
  const mine = myBoard();
  // A move check (6.4) owes the board set right, or the move announced again, or the board
  // restored; a press once that is done ends the turn.
  const checkOwed = (p.correction && !(mine && showsMove(mine.placement, snap.fen, p.correction)))
    || (p.reannounce && !snap.announced) || (p.restore && mine && mine.placement !== snap.fen.split(" ")[0]);
  if (checkOwed) return [t("完成走子檢查", "answering the move check")];
  if (p.correction || p.reannounce || p.restore || moveMade()) return [];
  const owedNow = [];
  // A board that shows the turn's start owes the move (moved and put back too); a move
  // made on the record returned above.
  const untouched = mine && mine.placement === snap.fen.split(" ")[0];
  if (untouched) owedNow.push(t("在棋盤走子", "moving on your board"));
  if (announces() && !snap.announced) owedNow.push(t("報棋", "announcing your move"));
  return owedNow;
}

/** Whether this seat's move of this turn is on the record already (its words and its board
 * agreed): only the press is owed. */
const moveMade = () => moveMadeBy(snap, me);

/** Whether this seat announces its moves (報棋): at a 第六部分 table always (6.3(2)), at a
 * 第七部分 table when a VI player takes part (7.4(2)(a)), a deaf player excepted (his are
 * announced for him, 7.4(2)(d)). */
function announces() {
  const cfg = info?.config;
  if (!cfg || !me) return false;
  const cats = (side) => cfg[side]?.categories || [];
  const vi = (side) => cfg[side]?.blindfold || cats(side).some((c) => c === "blind" || c === "partially_sighted");
  if (cats(me).includes("deaf")) return false;
  return cfg.kind === "part6" || (cfg.kind === "part7" && (vi("red") || vi("black")));
}

/** Moves on this seat's board (the text mode's field, the drawn board, `b`). */
async function boardMove(mv) {
  return send({ type: "board_move", mv }, moveLabel(mv, myBoard()?.placement || snap?.fen));
}

if (!readonly) {
  // The word keys (one tab stop) and typed words, one by one, each binding (每一字不得反悔).
  wordEntry(wordCommand, send, wordContext, (text) => say(slipText(text), true));
  $("press").addEventListener("click", async () => {
    if (snap?.phase === "not_started") return send({ type: "start" }, t("開鐘", "Start the clocks"));
    // What is owed is asked of the game as it stands after his last word and board move: a
    // state behind them owes more, never less, so only a question waits for it.
    if (owedBeforePress().length) await conn.settled(table);
    const due = owedBeforePress();
    const press = () => send({ type: "press_clock" }, t("按鐘", "Press clock"));
    // A press before the move is complete is a clock violation (走子未完成便按鐘): asked first.
    if (due.length) {
      return confirmThen(t(`你尚未${due.join("及")}：現在按鐘會被記違反按棋鐘規則。仍要按鐘？`,
        `You have not finished ${due.join(" and ")}: pressing now is a clock violation. Press anyway?`), press);
    }
    return press();
  });
  $("textmove").addEventListener("submit", (e) => {
    e.preventDefault();
    const mv = $("textmove-mv").value.trim().toLowerCase().replace(/[\s-]/g, "");
    if (!/^[a-i][0-9][a-i][0-9]$/.test(mv)) {
      say(t("請以 ICCS 輸入走子，例如 h2e2（由 h2 走到 e2）", "Type the move in ICCS, e.g. h2e2 (from h2 to e2)"), true);
      return;
    }
    $("textmove-mv").value = "";
    boardMove(mv);
  });
  // A button that hides or disables itself takes the focus with it (WCAG 2.4.3): the focus
  // goes where the player acts next.
  const then = (next) => () => { if (document.activeElement === document.body || document.activeElement?.disabled || document.activeElement?.hidden) $(next).focus(); };
  $("confirm-repeat").addEventListener("click", async () => {
    await send({ type: "confirm_repeat" }, t("確認複讀", "Confirm the repeat"));
    then("press")();
  });
  // At a table with a deaf player both sides have cards (附表七 7.1(2)): the buttons move them.
  $("offer").addEventListener("click", () => send(cards() ? { type: "hand_card", card: "draw" } : { type: "offer_draw" }, t("提和", "Offer draw")));
  // What ends the game at once asks first (69(1), 69(2)), Cancel focused.
  $("accept").addEventListener("click", () => confirmThen(t("接受和棋即時結束對局，不能收回。確定接受？", "Accepting ends the game. Accept the draw?"),
    () => send(cards() ? { type: "exchange_cards" } : { type: "accept_draw" }, t("接受和棋", "Accept the draw"))));
  $("decline").addEventListener("click", async () => {
    await send(offerCardWithMe() ? { type: "return_card" } : { type: "decline_draw" }, t("不接受和棋", "Decline the draw"));
    then("offer")();
  });
  $("resign").addEventListener("click", () => confirmThen(t("認負即時生效，不能收回。確定認負？", "Resigning is final. Resign?"),
    async () => {
      await send(cards() ? { type: "hand_card", card: "resign" } : { type: "resign" }, t("認負", "Resign"));
      // The game's end is said once, by the live region; the focus goes where he types next
      // (an empty result line would be silence).
      $("cmd").focus();
    }));
}
/** The command field (seat_commands.js): the queries, and a seat's words and acts. */
const field = new CommandField({
  snap: () => snap,
  me: () => (readonly ? null : me),
  send,
  boardMove,
  wordContext,
  wordCommand,
  slipText,
  setVerbosity,
  verbosity: () => verbosity,
  askTime: () => { if (narrator) narrator.askedTime = true; },
  board: () => myBoard(),
  wholeMove: (n) => narrator?.wholeMove(n),
});

// Alt with ↑ and ↓ step back and on through what was said, the newest first: a message cut
// off by a key press, or gone from the braille display, is one key away.
document.addEventListener("keydown", (e) => {
  // Alt+C: back to the command field from anywhere on the page (a screen reader's browse
  // mode included, where letters move between headings instead of typing).
  if (e.altKey && !e.ctrlKey && !e.metaKey && e.code === "KeyC") {
    e.preventDefault();
    $("cmd").focus();
    return;
  }
  if (!e.altKey || e.ctrlKey || e.metaKey || !["ArrowUp", "ArrowDown"].includes(e.key)) return;
  e.preventDefault();
  if (!say.recall(e.key === "ArrowUp" ? -1 : 1)) say(t("還沒有訊息", "No message yet"), true);
});

$("cmdform").addEventListener("submit", async (e) => {
  e.preventDefault();
  const line = $("cmd").value;
  // Emptied, not selected: a screen reader would say 「… selected」 after every command.
  $("cmd").value = "";
  const out = await field.run(line);
  if (!out) return;
  $("cmdout").textContent = out;
  say(out, true);
});

/** The clocks, one's own first; the running one's label says so (走緊). */
const clocks = () => renderClocks($("clocks"), snap, {
  order: me === "black" ? ["black", "red"] : ["red", "black"],
  mark: (s) => (s === me ? t("（我）", " (me)") : ""),
  running: t("，走緊", ", running"),
});
setInterval(clocks, 250);

/** The board as text for a screen reader: the pieces of each side, then rank by rank. */
function textBoard() {
  const rows = [];
  for (let r = 9; r >= 0; r--) rows.push(el("li", {}, ...unbroken(nvui(`r ${r}`, snap))));
  return [el("h3", { id: "h-textboard" }, t("文字棋盤", "Text board")), el("p", { id: "pieces" }, ...unbroken(nvui("p", snap))),
    el("ul", { "aria-label": t("各橫線", "ranks 9 to 0") }, rows)];
}

/** A text board's line in parts that the page wraps only between: a point with its piece
 * (「a9 黑車，」), a kind with its points (「炮：b2 h2。」) stay on one line of the page, the
 * line a braille display shows. */
function unbroken(text) {
  return text.split(/(?<=[，。,.] ?)/).map((part) => el("span", { class: "unbroken" }, part));
}

/** The placement of the board this seat operates (7.4(2)(g)), else the game's. */
function ownBoard() {
  // A spectator sees the game's position (the players' boards are theirs).
  if (readonly) {
    board.label = t(`棋盤（${tableLabel(table, info)}）`, `Board (${tableLabel(table, info)})`);
    return snap.fen;
  }
  const b = myBoard();
  const id = b?.board;
  board.label = b ? `${t("我的棋盤", "My board")} (${boardName(id)})${b.diverging ? t("：與對局不同", ": differs from the game") : ""}` : t("棋盤（對局）", "Board");
  return b ? b.placement : snap.fen;
}

function render() {
  if (!snap) return;
  const last = snap.moves.at(-1);
  const tm = textmode.checked;
  $("board").hidden = tm;
  $("board-help").hidden = tm;
  $("textboard").hidden = !tm;
  // The text mode hides the board, not the board move: a field takes it.
  if ($("textmove")) $("textmove").hidden = !tm || readonly || !hasBoard();
  if (tm) $("textboard").replaceChildren(...textBoard());
  else board.draw(ownBoard(), { last: last?.mv.iccs || "", check: checked(last) });
  const over = snap.phase === "over";
  $("turn").textContent = (readonly && enteredText(table)) || (over ? t("對局結束", "Game over")
    : snap.phase === "not_started" ? t("未開鐘（黑方按鐘開始）", "Not started (black starts the clocks)")
    : `${t("輪到", "To move: ")}${SIDE[snap.to_move]}${snap.to_move === me ? t("（我）", " (me)") : ""}${snap.phase === "paused" ? t("（暫停）", " (paused)") : ""}`);
  $("result").textContent = result(snap.result);
  showDownloads($("downloads"), table, over);
  $("words").replaceChildren(...snap.attempt.map((w) => el("span", { class: "word" }, word(w, snap.to_move))));
  if (snap.announced) {
    $("verdict").textContent = `${t("已報（不能反悔）：", "Announced (binding): ")}${words(snap.announced, snap.to_move)}`;
  } else if (lastWord && snap.attempt.length) {
    const next = (lastWord.next || []).map((w) => word(w, lastWord.side)).join(" ");
    $("verdict").textContent = lastWord.possible
      ? t(`可能的着法：尚餘 ${lastWord.completions} 種${next ? "，下一字可為 " + next : ""}`,
        `a possible move: ${lastWord.completions} completions left${next ? "; the next word may be " + next : ""}`)
      : `${t("不可能：", "Impossible: ")}${unspeakable(lastWord.why)}`;
  } else {
    $("verdict").textContent = "";
  }
  $("moves").replaceChildren(...snap.moves.map((m) => el("li", {},
    `${SIDE[m.side]} ${move(m.mv, m.side, m.draw_offer)}${t(`（${m.mv.iccs}）`, ` (${m.mv.iccs})`)} · ${fmtTime(m.clock_ms)}`)));
  if (!readonly) renderControls();
  clocks();
}

/** Where the focus goes when the control it is on disables or hides itself (WCAG
 * 2.4.3): where the player acts next. */
const NEXT_FOCUS = { decline: "offer", accept: "offer", "confirm-repeat": "press", resign: "cmd", press: "cmd", offer: "cmd" };

/** Keeps the focus on the page when a render takes its control away. */
function keepFocus() {
  const a = document.activeElement;
  if (!a || !NEXT_FOCUS[a.id] || !(a.disabled || a.hidden)) return;
  const next = $(NEXT_FOCUS[a.id]);
  (next && !next.disabled && !next.hidden ? next : $("cmd")).focus();
}

function renderControls() {
  const myTurn = snap.to_move === me && snap.phase === "playing";
  const p = snap.pending || {};
  const repeat = p.repeat ? words(p.repeat.words, p.repeat.mover) : "";
  $("mode").textContent = snap.phase !== "playing" ? ""
    : myTurn && p.repeat?.mirror ? t(`請複讀對手的報棋：${repeat}（或按確認）`, `Repeat the opponent's announcement: ${repeat} (or confirm)`)
    : myTurn && p.repeat ? t(`請複讀裁判的報棋：${repeat}`, `Repeat the referee's announcement: ${repeat}`)
    : myTurn && p.correction ? t(`走子檢查 (a)：請把棋盤修正為 ${p.correction}`, `Move check (a): set the board right to ${p.correction}`)
    : myTurn && p.reannounce ? t(`走子檢查 (b)：請重新報棋 ${words(p.reannounce[1], me)}`, `Move check (b): announce again: ${words(p.reannounce[1], me)}`)
    : myTurn && p.restore ? t("走子檢查 (c)：請還原棋盤，改走別子", "Move check (c): restore the board and move another piece")
    : myTurn ? t("輪到你：走子並報棋，然後按鐘", "Your turn: move, announce, then press the clock") : t("等候對手", "Waiting for the opponent");
  const next = new Set(lastWord?.side === me ? lastWord.next || [] : []);
  for (const b of $("keys").children) {
    b.classList.toggle("next", next.has(b.dataset.token));
  }
  // Only a mirroring may be confirmed; the referee's words are repeated aloud (6.3(7)).
  $("confirm-repeat").hidden = !(myTurn && p.repeat?.mirror);
  const offer = snap.offer;
  const theirOffer = offer && offer.side !== me;
  const over = snap.phase === "over";
  $("accept").disabled = !theirOffer || over;
  $("decline").disabled = !theirOffer || over;
  $("offer").disabled = over;
  // 69(2)(c)(ii): an offer now would be 連續提和, a foul: the button says so before it is used.
  const barred = (snap.draw_barred || []).includes(me);
  $("offer").classList.toggle("warn", barred);
  $("offer").textContent = barred ? t("提和（現在提和即連續提和：記技術犯規）", "Offer draw (now a repeated offer: a technical foul)")
    : t("提和", "Offer draw");
  $("resign").disabled = over;
  $("press").disabled = over;
  keepFocus();
}
