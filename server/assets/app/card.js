// The deaf player's card UI (附表七 7.1(2), 7.4(2)(d)): two large cards per side,
// handed over by one deliberate gesture (hold, or drag up towards the opponent); the
// opponent's cards arrive visibly; everything a VI opponent hears is shown as text; time
// alerts flash, show a banner and vibrate, never sound alone.

import {
  $, el, showWho, showDownloads, Connection, SIDE, CARD, describe, tableInfo, announcer, feed, banner, flash,
  commandSender, renderClocks, words, word, move, result, errorCode, KIND, moveLabel,
 t,
} from "./common.js";
import { Board, checked } from "./board.js";

const HOLD_MS = 1000;
/** A drag hands a card over only after this long a press (a swipe is quicker). */
const DRAG_MIN_MS = 400;
/** Read once, by one live region: the page shows everything, a screen reader hears it once. */
const say = announcer($("live-polite"), $("live"));
/** Read at once (assertive): alerts, rulings, what must be put right, a card arriving. */
const URGENT = ["time_alert", "referee_needed", "repetition_warning", "warning_issued", "game_over",
  "impossible", "violation", "correction_required", "reannounce_required", "restore_required",
  "board_diverges", "card_moved"];
let me = null;
let table = null;
let snap = null;
let arrived = null; // a card that just arrived, animated once
let info = null;
/** Whether I signalled for an announcer in this turn (7.4(2)(d)). */
let signalled = false;
/** The side whose announcement the panel shows. */
let heardSide = null;

/** Shows in the announcement panel the turn of `side`: the opponent's, or mine announced
 * for me; a new side clears what was there. */
function heardFrom(side) {
  if (side === heardSide) return;
  heardSide = side;
  $("heard-words").replaceChildren();
  $("heard-move").textContent = "";
  $("heard-check").textContent = "";
  $("heard-side").textContent = side === me ? t(`代我報棋（${SIDE[side]}）`, `announced for me (${SIDE[side]})`) : t(`對手報棋（${SIDE[side]}）`, `the opponent (${SIDE[side]})`);
}

const board = new Board($("board"), {
  label: t("我的棋盤", "My board"),
  onMove: (mv) => send({ type: "board_move", mv }, moveLabel(mv, board.placement)),
});

const conn = new Connection("seat", {
  status: (t) => { $("status").textContent = t; },
  welcome: async (w) => {
    me = { red: "red", black: "black", red_proxy: "red", black_proxy: "black" }[w.role] || null;
    table = w.tables[0];
    board.flip = me === "black";
    info = await tableInfo(table);
    showWho(w.name, t(`（${SIDE[me] || ""}）`, ` (${SIDE[me] || ""})`), info?.name);
    render();
  },
  state: (t, s) => { if (t === table) { snap = s; render(); } },
  event: (t, ev, live) => { if (t === table) onEvent(ev, live); },
  error: (e) => { feed(t(`錯誤：${errorCode(e.code)}`, `Error: ${errorCode(e.code)}`), true); say(t(`錯誤：${errorCode(e.code)}`, `Error: ${errorCode(e.code)}`), true); },
});

/** The card UI's banner stays 15 s; its flash vibrates long-short-long. */
const BANNER_MS = 15000;
const VIBRATION = [400, 200, 400];
/** A refusal is shown in the feed too: the deaf player reads, he does not hear. */
const send = commandSender(conn, () => table, say, () => me);

function onEvent(ev, live) {
  const text = describe(ev);
  feed(text, ["time_alert", "referee_needed", "warning_issued", "repetition_warning", "checked", "game_over", "card_moved"].includes(ev.type));
  switch (ev.type) {
    case "turn":
      signalled = false;
      break;
    case "signalled":
      if (ev.side === me) signalled = true;
      break;
    case "word":
      heardFrom(ev.side);
      if (ev.slot === 0) { $("heard-words").replaceChildren(); $("heard-check").textContent = ""; }
      $("heard-words").append(el("span", { class: "word" + (ev.possible ? "" : " bad") },
        ev.word ? word(ev.word, ev.side) : ev.text));
      $("heard-move").textContent = "";
      break;
    case "impossible": case "checked":
      $("heard-check").textContent = text;
      break;
    case "announced":
      heardFrom(ev.side);
      $("heard-move").textContent = words(ev.words, ev.side);
      $("heard-check").textContent = text;
      break;
    case "moved":
      heardFrom(ev.side);
      $("heard-move").textContent = move(ev.mv, ev.side);
      break;
    case "referee_needed":
      // The routine call for an announcer is the referee's business, not an instruction to
      // the player (the player's own line, 「輪到你」, says what he does).
      if (ev.call !== "announce_for") $("heard-msg").textContent = text;
      break;
    case "warning_issued": case "repetition_warning": case "game_over": case "time_report":
      $("heard-msg").textContent = text;
      break;
    default:
      break;
  }
  if (!live) return;
  say(text, URGENT.includes(ev.type) || (ev.type === "checked" && !["agree", "corrected"].includes(ev.outcome)));
  // A pause says why while it lasts (a server restart, an adjournment); the resumption says so.
  if (ev.type === "paused") banner(text);
  if (ev.type === "resumed") banner(text, BANNER_MS);
  if (ev.type === "time_alert") { banner(text, BANNER_MS); flash(VIBRATION); }
  if (["warning_issued", "repetition_warning", "game_over"].includes(ev.type)) { banner(text, BANNER_MS); flash(VIBRATION); }
  if (ev.type === "card_moved" && ev.holder === me && ev.owner !== me) {
    arrived = `${ev.owner}-${ev.card}`;
    banner(t(`${SIDE[ev.owner]}交來${CARD[ev.card]}`, `${SIDE[ev.owner]} handed you the ${CARD[ev.card]}`), BANNER_MS);
    flash(VIBRATION);
  }
  // A foul stays in view until dismissed (123(2), 126): the player must know what he did.
  if (ev.type === "violation") { banner(text, ev.side === me ? null : BANNER_MS, "foul"); flash(VIBRATION); }
  if (ev.type === "card_moved" && ev.owner === me && ev.holder === me && ev.how === "returned") {
    banner(t("對手交還你的提和卡：不接受和棋", "Your draw card came back: the draw is declined"), BANNER_MS);
  }
}

$("press").addEventListener("click", () => {
  if (snap?.phase === "not_started") send({ type: "start" }, t("開鐘", "Start the clocks"));
  else send({ type: "press_clock" }, t("按鐘", "Press the clock"));
});
$("signal").addEventListener("click", () => send({ type: "signal" }, t("請代為報棋", "Please announce for me")));
$("confirm-repeat").addEventListener("click", () => send({ type: "confirm_repeat" }, t("確認對手着法", "Confirm the opponent's move")));

/**
 * A card that acts after one deliberate gesture: held for HOLD_MS (pointer, or Space/Enter
 * held on the keyboard), or dragged up by more than 80 px. A tap does nothing.
 */
function card({ owner, kind, title, hint, action, disabled, warn = false }) {
  const fill = el("span", { class: "fill", "aria-hidden": "true" });
  const node = el("button", {
    type: "button", class: `card side-${owner} ${kind}${warn ? " warn" : ""}`, "data-card": `${owner}-${kind}`,
    "aria-disabled": disabled ? "true" : null,
  },
  el("span", { class: "glyph", "aria-hidden": "true" }, kind === "draw" ? "和" : "負"),
  el("span", { class: "name" }, `${SIDE[owner]} ${CARD[kind]}`),
  el("span", { class: "hint" }, title),
  el("span", { class: "visually-hidden" }, `${t("。", ". ")}${hint}`),
  fill);
  if (owner && `${owner}-${kind}` === arrived) { node.classList.add("arrive"); arrived = null; }
  let timer = null;
  let startY = 0;
  let started = 0;
  const tick = () => {
    const p = Math.min(1, (performance.now() - started) / HOLD_MS);
    fill.style.height = `${p * 100}%`;
    if (timer) requestAnimationFrame(tick);
  };
  const begin = (y) => {
    if (disabled || timer) return;
    startY = y;
    started = performance.now();
    timer = setTimeout(done, HOLD_MS);
    holds.add(cancel);
    requestAnimationFrame(tick);
  };
  const cancel = () => { clearTimeout(timer); timer = null; holds.delete(cancel); fill.style.height = "0"; };
  const done = () => { cancel(); action(); };
  node.addEventListener("pointerdown", (e) => {
    // One finger, deliberately: a second finger or a resting palm hands nothing over.
    if (!e.isPrimary || e.button > 0) { cancelHolds(); return; }
    node.setPointerCapture?.(e.pointerId);
    begin(e.clientY);
  });
  // A drag towards the opponent also hands the card over, but only a drag, not a quick
  // swipe (a swipe up is how a tablet scrolls).
  node.addEventListener("pointermove", (e) => {
    if (timer && startY - e.clientY > 80 && performance.now() - started > DRAG_MIN_MS) done();
  });
  for (const t of ["pointerup", "pointercancel", "lostpointercapture"]) node.addEventListener(t, cancel);
  node.addEventListener("keydown", (e) => {
    if ((e.key === " " || e.key === "Enter") && !e.repeat) { e.preventDefault(); begin(0); }
  });
  node.addEventListener("keyup", (e) => { if (e.key === " " || e.key === "Enter") cancel(); });
  node.addEventListener("click", (e) => e.preventDefault());
  return node;
}

/** The cards as last drawn, and the holds under way (their cancels). */
let cardsDrawn = "";
const holds = new Set();
const cancelHolds = () => { for (const cancel of [...holds]) cancel(); };
// A hold whose release the page cannot see (the window lost the focus) hands nothing over.
window.addEventListener("blur", () => cancelHolds());

/** Draws the cards when they changed, and only then: a card redrawn under a finger would
 * miss the release and hand itself over at the end of the hold time. A hold begun on a card
 * whose meaning changes (the opponent's card arrives meanwhile) is cancelled. */
function renderCards() {
  const over = snap.phase === "over";
  const barred = (snap.draw_barred || []).includes(me);
  const drawn = JSON.stringify([snap.cards, over, me, barred]);
  if (drawn === cardsDrawn) return;
  cardsDrawn = drawn;
  cancelHolds();
  const opp = me === "red" ? "black" : "red";
  const held = (owner, kind) => snap.cards.find((c) => c.owner === owner && c.card === kind)?.holder;
  const theirDrawWithMe = held(opp, "draw") === me;
  const mine = [];
  if (held(me, "draw") === me) {
    mine.push(card({
      owner: me, kind: "draw",
      title: theirDrawWithMe ? t("按住 = 交換：接受和棋", "Hold = exchange: accept the draw")
        // 69(2)(c)(ii): said on the card itself, before it is handed.
        : barred ? t("⚠ 現在提和即連續提和：記技術犯規", "⚠ Offering now is a repeated offer: a technical foul")
        : t("按住 = 交出：提和", "Hold = hand over: offer a draw"),
      warn: barred && !theirDrawWithMe,
      hint: theirDrawWithMe ? t("交出自己的提和卡換回對手的卡，即接受和棋", "Hand your draw card for the opponent's: the draw is agreed") : t("在自己的輪次交給對手", "Hand it to the opponent in your own turn"),
      disabled: over,
      action: () => theirDrawWithMe
        ? send({ type: "exchange_cards" }, t("交換提和卡（接受和棋）", "Exchange draw cards (accept the draw)"))
        : send({ type: "hand_card", card: "draw" }, t("交出提和卡（提和）", "Hand over the draw card (offer a draw)")),
    }));
  } else {
    mine.push(el("p", { class: "panel" }, t(`我的提和卡在${SIDE[held(me, "draw")] || ""}手上，等候回覆`, `My draw card is with ${SIDE[held(me, "draw")] || ""}: waiting for the answer`)));
  }
  if (held(me, "resign") === me) {
    mine.push(card({
      owner: me, kind: "resign", title: t("按住 = 交出：認負（即時生效）", "Hold = hand over: resign (final at once)"),
      hint: t("認負卡一經交出即時生效，不能收回", "A resignation card handed over is final and cannot be taken back"), disabled: over,
      action: () => send({ type: "hand_card", card: "resign" }, t("交出認負卡（認負）", "Hand over the resignation card (resign)")),
    }));
  } else {
    mine.push(el("p", { class: "panel" }, t("我的認負卡已交出", "My resignation card has been handed over")));
  }
  $("mine").replaceChildren(...mine);
  const received = snap.cards.filter((c) => c.owner !== me && c.holder === me).map(({ owner: o, card: k }) => (k === "draw"
    ? card({
      owner: o, kind: k, title: t("按住 = 交還：不接受和棋", "Hold = hand back: decline the draw"), hint: t("把對手的提和卡交還，即不接受", "Hand the opponent's draw card back: the draw is declined"),
      disabled: over, action: () => send({ type: "return_card" }, t("交還提和卡（不接受和棋）", "Hand back the draw card (decline the draw)")),
    })
    : el("p", { class: "panel" }, t(`${SIDE[o]}${CARD[k]}：${SIDE[o]}已認負`, `${SIDE[o]}'s ${CARD[k]}: ${SIDE[o]} has resigned`))));
  $("received").replaceChildren(...(received.length ? received : [el("p", {}, t("沒有卡牌", "No card"))]));
}

/** Each side's violations against the limits (126, 127), always in view. */
function renderTally() {
  const parts = ["red", "black"].map((side) => {
    const counts = Object.keys(KIND).filter((k) => snap.tallies[side][k] > 0)
      .map((k) => `${KIND[k]} ${snap.tallies[side][k]}${snap.limits[k] ? `／${snap.limits[k]}` : ""}`);
    return el("span", { class: counts.length ? "foul" : "" },
      `${SIDE[side]}${side === me ? t("（我）", " (me)") : ""}${t("：", ": ")}${counts.join(t("，", ", ")) || t("無違例", "none")}`);
  });
  $("tally").replaceChildren(t("違例 ", "Violations: "), parts[0], " · ", parts[1]);
}

const clocks = () => renderClocks($("clocks"), snap, { mark: (s) => (s === me ? t("（我）", " (me)") : "") });
setInterval(clocks, 250);

function render() {
  if (!snap || !me) return;
  const last = snap.moves.at(-1);
  const mine = snap.boards.find((b) => b.board === info?.config?.[me]?.board) || snap.boards.find((b) => b.board === "regular");
  const placement = mine?.placement || snap.fen;
  board.draw(placement, { last: last?.mv.iccs || "", check: checked(last) });
  const over = snap.phase === "over";
  $("turn").textContent = over ? t("對局結束", "Game over") : snap.phase === "not_started" ? t("未開鐘（黑方按鐘開始）", "Not started (black starts the clocks)")
    : t(`輪到${SIDE[snap.to_move]}${snap.to_move === me ? "（我）" : ""}${snap.phase === "paused" ? "（暫停）" : ""}`,
      `${SIDE[snap.to_move]} to move${snap.to_move === me ? " (me)" : ""}${snap.phase === "paused" ? " (paused)" : ""}`);
  $("result").textContent = result(snap.result);
  showDownloads($("downloads"), table, over);
  if (snap.result) $("heard-msg").textContent = t(`對局結束 ${result(snap.result)}`, `Game over: ${result(snap.result)}`);
  renderTally();
  const p = snap.pending || {};
  const myTurn = snap.to_move === me && snap.phase === "playing";
  $("confirm-repeat").hidden = !(myTurn && p.repeat?.mirror);
  // The confirmation and the signal share one place (one is owed before the move, the other
  // after it): the one not wanted now is not shown.
  $("signal").classList.toggle("unwanted", !$("confirm-repeat").hidden);
  $("todo").textContent = !myTurn ? ""
    : p.repeat ? t(`請在你的棋盤走出對手的着法「${words(p.repeat.words, p.repeat.mover)}」，然後確認`, `Make the opponent's move “${words(p.repeat.words, p.repeat.mover)}” on your board, then confirm`)
    : p.correction ? t(`請把棋盤修正為 ${p.correction}`, `Put your board right: ${p.correction}`)
    : p.restore ? t("請還原棋盤，改走別子", "Put the piece back and move another")
    : p.announce_for && signalled ? t("已示意，等候代為報棋，然後按鐘", "Signalled: wait for your move to be announced, then press the clock")
    : p.announce_for ? t("輪到你：在棋盤走子，然後按「請代為報棋」示意", "Your turn: move on the board, then press “Please announce for me”")
    : t("輪到你：走子，然後按鐘", "Your turn: move, then press the clock");
  // Black starts the clocks (未開鐘); after that only the side to move may press.
  $("press").disabled = over || !(myTurn || (snap.phase === "not_started" && me === "black"));
  $("signal").disabled = over || !myTurn;
  renderCards();
  clocks();
}
