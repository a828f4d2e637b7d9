// Where a seat's game stands, in one message: said on joining and on every reconnect, so
// that a reload never leaves a blind player to guess. What concerns him first and in the
// second person: his turn or his opponent's, what he still owes, the words that bind him, an
// offer to answer; then the last move, both times (his first) and who plays whom. The parts
// the keypad says too are the phrasebook's shared `summary.*` entries, in the same words
// (tests/web/phrases.test.js holds them to it). No DOM: the tests import it in Node.

import { t } from "./i18n.js";
import { SIDE, words, sayTime, result, phrase } from "./text.js";
import { clockNow } from "./clock.js";
import { owed } from "./nvui.js";
import { heardMove, heardResult, moveBy } from "./narrate.js";

const opponentOf = (side) => (side === "red" ? "black" : "red");
/** A part said as its own sentence. */
const sentence = (s) => `${s}${t("。", ".")}`;

/** Whether `me` has played this turn's move already (the press still to come). */
export const moveMade = (snap, me) => snap.to_move === me && snap.moves.at(-1)?.side === me;

/**
 * The summary of `snap` (the table's state) for the seat `me` ("red", "black"; null for a
 * spectator). `board` is the board this seat operates (its state in `snap.boards`), if any;
 * `entered` the organiser's result that stands over the table's own, for a spectator.
 */
export function summary(snap, me, { board = null, entered = "" } = {}) {
  if (!snap) return "";
  const names = snap.names || {};
  if (!me) {
    return t(`觀看：${names.red}（紅）對 ${names.black}（黑）。`, `Watching: ${names.red} (red) v ${names.black} (black).`)
      + turnText(snap, null, entered);
  }
  const other = opponentOf(me);
  const tm = clockNow(snap.clock);
  const last = snap.moves.at(-1);
  const parts = [turnText(snap, me), ...stillOwed(snap, me, board)];
  if (last) parts.push(t(`上一着：${moveBy(last.mv, last.side)}。`, `Last move: ${moveBy(last.mv, last.side)}.`));
  parts.push(t(`你的時間 ${sayTime(tm[me])}，對手 ${sayTime(tm[other])}。`, `Your time ${sayTime(tm[me])}, opponent ${sayTime(tm[other])}.`));
  parts.push(t(`你是${SIDE[me]}${names[me]}，對手${SIDE[other]}${names[other]}。`, `You are ${SIDE[me]}, ${names[me]}; opponent ${SIDE[other]}, ${names[other]}.`));
  // Each part ends its sentence; English needs the space after its full stop.
  return parts.join(t("", " "));
}

/** What this seat still owes or has under way, one sentence each: the repeat or move
 * check (nvui.js `owed`), the words said of this turn's announcement, a move already made
 * on his board, a draw offer to answer or his own standing. */
function stillOwed(snap, me, board) {
  if (snap.phase === "over") return [];
  const out = [];
  const due = owed(snap, me, board);
  if (due) out.push(t(`你須${due}。`, `You must ${due}.`));
  const mine = snap.to_move === me && ["playing", "paused"].includes(snap.phase);
  const made = mine && moveMade(snap, me) ? snap.moves.at(-1) : null;
  if (made) out.push(t(`你已走 ${heardMove(made.mv, me)}，未按鐘。`, `You have played ${heardMove(made.mv, me)}; the clock is not pressed.`));
  else if (mine && snap.announced) out.push(sentence(phrase("summary.announced", { move: words(snap.announced, me) })));
  else if (mine && snap.attempt?.length) out.push(sentence(phrase("summary.words_so_far", { move: words(snap.attempt, me) })));
  if (mine && !made && !due && board && board.placement !== snap.fen.split(" ")[0]) out.push(t("你已在棋盤走子。", "You have moved on your board."));
  const offer = snap.offer;
  if (offer?.side === opponentOf(me) && offer.stands) out.push(`${phrase("summary.offer")}${t("：y 接受，n 不接受。", ": y accepts, n declines.")}`);
  else if (offer?.side === me) out.push(t("你已提和。", "You have offered a draw."));
  return out;
}

/** Whose turn it is, for the seat `me`: 輪到你 / 輪到對手, or the phase; for a spectator
 * (`me` null), the side to move, or the organiser's result `entered` when there is one. */
export function turnText(snap, me, entered = "") {
  if (!me && entered) return sentence(entered);
  if (snap.phase === "over") return me ? sentence(heardResult(snap.result, me)) : t(`對局結束：${result(snap.result)}。`, `Game over: ${result(snap.result)}.`);
  if (snap.phase === "not_started") {
    // 95(3): black starts the clocks, then red moves.
    if (!me) return t("未開鐘（黑方按鐘開始）。", "Not started (black starts the clocks).");
    return sentence(phrase(me === "red" ? "summary.not_started_first" : "summary.not_started_start"));
  }
  const paused = snap.phase === "paused";
  if (!me) return t(`輪到${SIDE[snap.to_move]}${paused ? "（暫停）" : ""}。`, `${SIDE[snap.to_move]} to move${paused ? " (paused)" : ""}.`);
  const turn = sentence(phrase(snap.to_move === me ? "summary.turn_you" : "summary.turn_opponent"));
  return paused ? `${sentence(phrase("summary.paused"))}${t("", " ")}${turn}` : turn;
}
