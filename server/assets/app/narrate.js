// What a seat's screen reader says: one message per happening, what
// concerns the player first and in the second person (「輪到你。黑方 馬８進７」), the rest
// after, the first 40 characters enough on their own; terse, full or auto (terse while his
// own clock runs, as on the keypad). An opponent's move is one message, not six: his words,
// his board step, his press and the check that agreed are said only in full. Only what the
// player must act on at once is urgent (the assertive region). No DOM: the tests import this
// module in Node and read what a whole game says.

import { t } from "./i18n.js";
import {
  SIDE, words, word, kindOf, sayTime, unspeakable, illegality, checkOutcome, finding,
  violationReason, endCause, articles, describe, warning, article, phrase, heardKind, cap, boardName,
} from "./text.js";

/** The verbosities, in the order `v` cycles through them. */
export const VERBOSITIES = ["auto", "terse", "full"];

/** A verbosity's name, in the keypad's words (the phrasebook's). */
export const VERBOSITY_NAME = {
  auto: phrase("keypad.verbosity_auto"), terse: phrase("keypad.verbosity_terse"), full: phrase("keypad.verbosity_full"),
};

const other = (s) => (s === "red" ? "black" : "red");

/** Who says the opponent's words when he does not (7.4(2)(d)): a deaf player's referee or
 * proxy; the opponent himself otherwise. */
const SAYS_FOR = {
  referee: t("裁判代對手報", "The referee says for your opponent"),
  proxy: t("代理代對手報", "The proxy says for your opponent"),
};

/** A move read out with its side's name, in the keypad's words (the phrasebook's `move.*`):
 * 「黑方 馬８進７，吃炮，將軍」: what it took and 將軍 in words (not × ○). */
export function moveBy(mv, s) {
  const slots = { side: SIDE[s], move: words(mv.words, s) };
  if (mv.captured) slots.piece = kindOf(mv.captured, other(s));
  const key = `move.${mv.captured ? "captured" : ""}${mv.captured && mv.check ? "_" : ""}${mv.check ? "check" : ""}`;
  return phrase(key === "move." ? "move.plain" : key, slots);
}

/** A move as it is heard: its words, then what it took and 將軍 in words (not × ○), as
 * the keypad says them after the player's own move (the phrasebook's `move.you_*`). */
export function heardMove(mv, s) {
  const piece = mv.captured ? kindOf(mv.captured, other(s)) : "";
  const key = mv.captured && mv.check ? "move.you_took_check" : mv.captured ? "move.you_took" : mv.check ? "move.you_check" : null;
  return `${words(mv.words, s)}${key ? t("，", ", ") + phrase(key, { piece }) : ""}`;
}

/** The outcome for `me`: 你勝, 你負, 和局, 雙方皆負 (the phrasebook's `end.*`). */
function outcomeFor(outcome, me) {
  if (outcome === "draw") return phrase("end.draw");
  if (outcome === "both_lose") return phrase("end.both_lose");
  const won = (outcome === "red_wins") === (me === "red");
  return phrase(won ? "end.you_win" : "end.you_lose");
}

/** A result as a seat hears it, in the keypad's words, the articles after: 對局結束：你勝。
 * 對手認負（第69(1)條） (no score read out; the side it ends for as 你 or 對手). */
export function heardResult(r, me) {
  const said = phrase("end.game_over", { outcome: outcomeFor(r.outcome, me), cause: cap(endCause(r, me)) });
  return `${said}${t(`（${articles(r.articles)}）`, ` (${articles(r.articles)})`)}`;
}

/**
 * The narrator of one seat: `hear(ev)` gives the messages (`{ text, urgent }`) an event
 * brings now; an opponent's move waits for the turn it gives (or `flush()`, called when a
 * burst of events is over), so that 「輪到你」 comes first.
 * `me` the seat's side; `verbosity()` its setting; `ownTurn()` whether his clock runs;
 * `ownBoard()` the board this seat operates (`vi`, `regular`), or null.
 */
export class Narrator {
  constructor(me, verbosity = () => "auto", ownTurn = () => false, ownBoard = () => null) {
    this.me = me;
    this.ownBoard = ownBoard;
    this.verbosity = verbosity;
    this.ownTurn = ownTurn;
    this.held = null;
    this.queue = [];
    /** Whether this seat asked the time (`query_time`) and awaits the answer. */
    this.askedTime = false;
    /** Whose move each side is reading back (the last `repeat_due`'s mover). */
    this.repeating = {};
    /** How many of his own next words are passed over in silence (`wholeMove`). */
    this.quietWords = 0;
    /** The side whose last move check said what it owes (the `*_required` after it is not
     * said again). */
    this.owedSaid = null;
  }

  /** The seat is sending `n` words typed as one line: the ones before the last are not said
   * one by one (the last, or one that cannot be, says the outcome). */
  wholeMove(n) {
    this.quietWords = Math.max(0, n - 1);
  }

  /** Whether everything is said: the steps, the checks that agree, the calls about the
   * opponent (full). */
  full() {
    return this.verbosity() === "full";
  }

  /** Whether the opponent's words are said as he says them (full, or auto in his turn, as one
   * hears him across the board); terse says his move once, with the turn. */
  following() {
    const v = this.verbosity();
    return v === "full" || (v === "auto" && !this.ownTurn());
  }

  /** 你 or 對手 for a side (you, your opponent). */
  who(s) {
    return s === this.me ? t("你", "you") : t("對手", "your opponent");
  }

  /** Both times of an alert or a report, in its order (the triggering side or the side to
   * move first, 6.5(2), 6.6(3)), each as his or his opponent's, in the keypad's words
   * (`times.*`); in the last minute an alert says the triggering side's time alone. */
  timesSaid(list, kind) {
    const [a, b] = list || [];
    const whose = (s) => phrase(s === this.me ? "times.you" : "times.opponent");
    if (!a || !b) return "";
    if (kind === "alert" && a.ms < 60000) return phrase("times.alert_final", { first_side: whose(a.side), first_time: sayTime(a.ms) });
    return phrase(`times.${kind}`, { first_side: whose(a.side), first_time: sayTime(a.ms), second_side: whose(b.side), second_time: sayTime(b.ms) });
  }

  /** The messages an event brings now. While a move waits for the turn it gives, polite
   * messages wait behind it (until the turn, the end of the game, or `flush()`), so that the
   * turn is said first; urgent ones are said at once. */
  hear(ev) {
    const said = this.say(ev);
    // A press opens the happening its move closes: what comes between waits behind the move.
    if (ev.type === "pressed") this.pressing = true;
    if (ev.type === "moved" || ev.type === "started") {
      if (this.held) this.queue.unshift({ text: this.held.text, urgent: false });
      this.held = said;
      return [];
    }
    if (ev.type === "turn" && said) {
      const held = this.held;
      this.held = null;
      this.pressing = false;
      const stop = t("。", ". ");
      const text = !held ? said.text : held.first ? `${held.text}${stop}${said.text}` : `${said.text}${stop}${held.text}`;
      return [{ text, urgent: false }, ...this.flush()];
    }
    if (said?.urgent) return [said, ...(ev.type === "game_over" ? this.flush() : [])];
    // While a move waits for its turn, what else the burst brings waits behind it.
    if (said && (this.held || this.pressing)) this.queue.push(said);
    else if (said) return [said];
    return [];
  }

  /** What is still held and queued, said now (the end of a burst: nothing more comes). */
  flush() {
    const out = this.held ? [{ text: this.held.text, urgent: false }] : [];
    this.held = null;
    this.pressing = false;
    out.push(...this.queue.splice(0));
    return out;
  }

  /** The message of one event, or null. */
  say(ev) {
    // A board step names the seat that made it (`by`); every other event, its side.
    const mine = (ev.side ?? ev.by) === this.me;
    const full = this.full();
    const polite = (text) => (text ? { text, urgent: false } : null);
    const urgent = (text) => ({ text, urgent: true });
    const onlyFull = (text) => (full ? polite(text) : null);
    const W = cap(this.who(ev.side));
    switch (ev.type) {
      // In the keypad's words: who moves first (95(3): red, once black has pressed).
      case "started": return { text: phrase("game.started", { side: SIDE[ev.clock?.running ?? "red"] }), first: true };
      case "turn": return polite(mine ? t("輪到你", "Your turn") : t("輪到對手", "Your opponent's turn"));
      case "clock": case "pressed": return null;
      case "moved": return {
        text: mine ? t(`你走了 ${heardMove(ev.mv, ev.side)}`, `You played ${heardMove(ev.mv, ev.side)}`)
          : moveBy(ev.mv, ev.side),
        first: mine,
      };
      case "word": {
        const w = ev.word ? word(ev.word, ev.side) : ev.text;
        if (!mine) return this.following() ? polite(`${SAYS_FOR[ev.by] ?? t("對手報", "Your opponent says")}${t("：", " ")}${w}`) : null;
        if (!ev.possible) return null; // the `impossible` event that follows says why
        // The last word: the `announced` event that follows says whether it is legal, once.
        if (ev.slot === 3) return null;
        const next = full && ev.next?.length ? t(`。下一字可為 ${ev.next.map((x) => word(x, ev.side)).join(" ")}`,
          `. The next word may be ${ev.next.map((x) => word(x, ev.side)).join(" ")}`) : "";
        // A whole move typed at once: its words are said by their outcome (the announcement,
        // or the word that fails), not each as it passes.
        if (this.quietWords > 0) {
          this.quietWords -= 1;
          return null;
        }
        return polite(t(`${w}：可能，尚餘 ${ev.completions} 種${next}`, `${w}: possible, ${ev.completions} left${next}`));
      }
      // His own in the keypad's words (the phrasebook's), why after; the opponent's only in full.
      case "impossible": {
        if (mine) {
          this.quietWords = 0;
          return urgent(`${phrase("echo.impossible", { words: words(ev.words, ev.side) })}${t("。", ". ")}${unspeakable(ev.why)}`);
        }
        return onlyFull(t(`對手報的「${words(ev.words, ev.side)}」不可能。${unspeakable(ev.why)}`,
          `Your opponent said "${words(ev.words, ev.side)}", which cannot be. ${unspeakable(ev.why)}`));
      }
      case "announced": {
        if (!ev.illegal && mine && ev.by !== "referee") return polite(t(`${word(ev.words.at(-1), ev.side)}：報棋完成，不能反悔`, `${word(ev.words.at(-1), ev.side)}: announced, it binds`));
        if (!ev.illegal) return onlyFull(t(`對手報棋完成：${words(ev.words, ev.side)}`, `Your opponent announced ${words(ev.words, ev.side)}`));
        const text = t(`${W}報的「${words(ev.words, ev.side)}」非法。${cap(illegality(ev.illegal))}`,
          `${W} announced "${words(ev.words, ev.side)}", not legal. ${cap(illegality(ev.illegal))}`);
        return mine ? urgent(text) : polite(text);
      }
      case "repeated": {
        // The words read back are the mover's: black's 車 and 9 when mirroring black's move.
        const w = ev.word ? word(ev.word, this.repeating[ev.side] ?? ev.side) : ev.text || t("確認", "confirmed");
        // In the keypad's words (the phrasebook's), what he read back after.
        if (mine && ev.mismatch) return urgent(`${phrase("mirror.mismatch")}${t(`。你複讀了「${w}」`, `. You read back "${w}"`)}`);
        if (mine && ev.done) return polite(phrase("mirror.repeated"));
        // Each word he reads back is echoed by his screen reader as he types it; said again
        // only in full.
        return onlyFull(mine ? w : t(`對手複讀：${w}`, `Your opponent reads back ${w}`));
      }
      case "repeat_due":
        this.repeating[ev.side] = ev.mover;
        return mine ? polite(duty(ev)) : onlyFull(t(`對手須複讀：${words(ev.words, ev.mover)}`, `Your opponent must read back ${words(ev.words, ev.mover)}`));
      case "checked": return this.checked(ev, mine, full);
      case "violation": {
        // The tally first, in words, as the keypad says it (a screen reader reads 1／4 as a
        // fraction); the reason its own sentence (the phrasebook's `violation.tally_*`).
        const key = `violation.tally_${mine ? "you" : "opponent"}${ev.limit ? "" : "_no_limit"}`;
        const tally = phrase(key, { violation: heardKind(ev.kind), count: ev.count, limit: ev.limit, because: violationReason(ev, ev.side) });
        const text = `${tally}${ev.counted ? "" : t("（同一輪次不重複計）", " (not counted twice in a turn)")}`;
        // Still his turn after his own violation: what next is one key away.
        // Not on the violation that reaches the limit: that one ends the game (127(2)).
        const last = ev.counted && ev.limit && ev.count >= ev.limit;
        const next = mine && !last && this.ownTurn() ? t("。仍輪到你：d 聽須做甚麼", ". Still your turn: d says what you owe") : "";
        return mine ? urgent(text + next) : polite(text);
      }
      // What a check asks was said with the check (its first sentence); asked again later
      // (a wrong re-announcement), it is said on its own.
      case "restore_required": return this.owed(ev, mine, t("還原棋盤", "restore the board") + (ev.mv ? `（${ev.mv}）` : ""));
      case "correction_required": return this.owed(ev, mine, t(`把棋盤修正為「${words(ev.words, ev.side)}」。即所報的着法（${ev.mv}）`,
        `correct the board to "${words(ev.words, ev.side)}". The move announced (${ev.mv})`));
      case "reannounce_required": return this.owed(ev, mine, t(`重新報棋「${words(ev.words, ev.side)}」`, `announce "${words(ev.words, ev.side)}" again`));
      case "time_alert": return urgent(this.timesSaid(ev.times, "alert"));
      // The answer to his own question is said at once, as the command field's answers are.
      // The opponent's question is his: its answer is said to this seat only in full.
      case "time_report": {
        const text = this.timesSaid(ev.times, ev.reason);
        if (ev.reason !== "query") return polite(text);
        if (!this.askedTime) return onlyFull(text);
        this.askedTime = false;
        return urgent(text);
      }
      // His own offer and refusal are said to him too: the answer to what he did.
      case "draw_offered": return mine ? polite(t("你已提和。你的輪次結束時生效", "You offered a draw. It stands when your turn ends")) : polite(`${phrase("card.draw_offered")}${ev.card ? t("（交出提和卡）", " (draw card)") : ""}`);
      // His own offer standing is said to him too: it waits for his opponent's answer.
      case "draw_offer_stands": return mine ? polite(t("你的提和生效，待對手回應", "Your draw offer stands; it awaits an answer"))
        : polite(t("對手的提和生效。可接受或不接受", "Your opponent's draw offer stands. Accept or decline"));
      // How it was declined, in the keypad's words (the phrasebook's), in the second person;
      // his own word or card is the answer to what he did.
      case "draw_declined": {
        if (ev.how === "touched_piece") return polite(phrase(`card.draw_declined_by_touch${mine ? "_you" : ""}`));
        if (mine) return polite(ev.how === "card_returned" ? t("你退回提和卡，不接受提和", "You returned the draw card: declined") : t("你不接受提和", "You declined the draw"));
        return polite(phrase(ev.how === "card_returned" ? "card.draw_card_returned" : "card.draw_declined"));
      }
      case "game_over": return urgent(heardResult(ev, this.me));
      // Said as the keypad says them (the phrasebook's), the article after.
      case "paused": return urgent(ev.reason === "server_restart" ? phrase("pause.server_restart")
        : `${phrase("pause.paused", { side: SIDE[ev.side] })}${t("。第103條", ". Art. 103")}`);
      case "resumed": return polite(phrase("pause.resumed"));
      // A call for the referee is the player's to hear at once only when it is about him.
      case "referee_needed": {
        const text = called(ev, this.me);
        return ev.side && mine ? urgent(text) : onlyFull(text);
      }
      case "repetition_warning": return urgent(`${phrase("repetition.warning", { warning: warning(ev.warning) })}${t(`。${article(ev.article)}`, `. ${cap(article(ev.article))}`)}`);
      // A 61 warning said as written; the referee's own words (128(1)(a)) in the keypad's.
      case "warning_issued": {
        if (ev.repetition) return urgent(describe(ev));
        const whom = !ev.side ? "both" : mine ? "you" : "opponent";
        return urgent(phrase(`referee.warning_${whom}`, { text: ev.text }));
      }
      case "result_verified": return polite(`${phrase("call.result_verified")}${ev.note ? t(`：${ev.note}`, `: ${ev.note}`) : ""}`);
      // In the keypad's words: his own board he is asked to put right (7.4(2)(g)(i)), another
      // the referee corrects (7.4(2)(g)(iv)); where it differs and the article after.
      case "board_diverges": {
        const key = ev.board === this.ownBoard() ? "board.diverged" : "board.diverged_other";
        const said = phrase(key, { board: cap(boardName(ev.board)) });
        return urgent(`${said}${t(`（${ev.points.join("、")}）。`, ` (${ev.points.join(", ")}). `)}${cap(article("7.4(2)(g)(iv)"))}`);
      }
      case "board": return mine ? null : onlyFull(describe(ev));
      // His own touched piece in the keypad's words (炮二, the file as his notation counts
      // it), the point after; the opponent's only in full.
      case "touched": {
        const piece = touchedPiece(ev);
        return onlyFull(mine ? `${phrase("echo.touched", { piece })}（${ev.point}）`
          : t(`對手摸子：${piece}（${ev.point}）`, `Your opponent touched ${piece} (${ev.point})`));
      }
      case "signalled": return onlyFull(t(`${W}示意：請代為報棋`, `${W} signalled: please announce the move`));
      case "violation_removed": return polite(t(`${W}的${heardKind(ev.kind)}撤銷。現為 ${ev.count} 次`, `${W}: ${heardKind(ev.kind)} removed. Now ${ev.count}`));
      case "card_moved": case "board_agrees":
        return onlyFull(describe(ev));
      default: return polite(describe(ev));
    }
  }

  /** A check's outcome: said when it asks something of someone (urgent when of this seat),
   * in the keypad's words (the phrasebook's `check.*`: what to do first), the check's name
   * and articles after, why the announcement was illegal in full; the agreeing ones only in
   * full. */
  checked(ev, mine, full) {
    const key = checkPhrase(ev);
    this.owedSaid = key && key !== "corrected" ? ev.side : null;
    if (!key) {
      if (!full) return null;
      return { text: `${mine ? t("你的", "Your ") : t("對手的", "Your opponent's ")}${checkOutcome(ev.outcome)}${t("。", ". ")}${cap(finding(ev))}`, urgent: false };
    }
    const slots = {
      announced: words(ev.announced?.words, ev.side),
      board: ev.board_words ? words(ev.board_words, ev.side) : phrase("check.no_legal_move"),
    };
    const said = phrase(`check.${key}_${mine ? "you" : "opponent"}`, slots);
    const name = CHECK_NAME[ev.outcome] ? `${CHECK_NAME[ev.outcome]}${t("，", ", ")}` : "";
    const why = full && ev.announced?.illegal ? `${t("。", ". ")}${cap(illegality(ev.announced.illegal))}` : "";
    const text = `${said}${t("。", ". ")}${name}${articles(ev.articles)}${why}`;
    if (key === "corrected") return full ? { text, urgent: false } : null;
    return { text, urgent: mine };
  }

  /** What a move check asks of a side: urgent, and in the second person, when of this seat;
   * nothing when the check before it of that side said it already. */
  owed(ev, mine, what) {
    if (this.owedSaid === ev.side) {
      this.owedSaid = null;
      return null;
    }
    return mine ? { text: t(`你須${what}`, `You must ${what}`), urgent: true }
      : { text: t(`對手須${what}`, `Your opponent must ${what}`), urgent: false };
  }
}


/** The phrasebook's entry (`check.<key>_you`, `_opponent`) of a check outcome that asks
 * something of the mover, or null. (c) tells a legal move of another piece from an illegal
 * move (6.4(c): 走子非所報子，或雖是所報子但同為非法着法). */
function checkPhrase(ev) {
  switch (ev.outcome) {
    case "a": return "correct_board";
    case "b": return "announce_again";
    case "c": return ev.board_words ? "restore_other_piece" : "restore_illegal_move";
    case "sealed_move_broken": return "sealed_move_broken";
    case "corrected": return "corrected";
    default: return null;
  }
}

/** The name of a move check, said after what it asks. */
const CHECK_NAME = {
  a: t("走子檢查 (a)", "Move check (a)"),
  b: t("走子檢查 (b)", "Move check (b)"),
  c: t("走子檢查 (c)", "Move check (c)"),
};

/** The articles a call for the referee comes from, said after it. */
const CALL_ARTICLE = {
  repetition_warning: ["121(2)"], verify_result: ["6.8", "7.9"], draw_offer: ["123(2)(a)"], touched_piece: ["32", "44"],
};

/** Why the referee is called, in the keypad's words (the phrasebook's `call.*`), the
 * article after; an announcement made for this seat said as his (「已請裁判代你報棋」). A
 * board that differs is said by its own event's words. */
function called(ev, me) {
  if (ev.call === "board_divergence") return describe(ev);
  let said;
  if (ev.call !== "announce_for") said = phrase(`call.${ev.call}`);
  else if (!ev.side) said = phrase("call.announce_for");
  else said = ev.side === me ? phrase("call.announce_for_you") : phrase("call.announce_for_side", { side: SIDE[ev.side] });
  const arts = CALL_ARTICLE[ev.call];
  return arts ? `${said}${t("。", ". ")}${cap(articles(arts))}` : said;
}

/** A touched piece as its side names it, by kind and file: 炮二, 馬８ (附表六). */
function touchedPiece(ev) {
  const file = "abcdefghi".indexOf(ev.point[0]);
  return words([ev.kind, String(ev.side === "black" ? file + 1 : 9 - file)], ev.side);
}

/** What a repeat owed asks of this seat, in the second person, what to do first. */
export function duty(ev) {
  const said = words(ev.words, ev.mover);
  return ev.mirror
    ? phrase("mirror.repeat_mirror", { move: said }) + t("。按 e 確認。附表七 7.4(2)(g)", ". Press e to confirm. Schedule 7, 7.4(2)(g)")
    : phrase("mirror.repeat_referee", { move: said }) + t("。附表七 6.3(7)", ". Schedule 7, 6.3(7)");
}

/** A seat's own move on its board, the move first: 「你在棋盤走了俥八進四。視障棋盤，b0b4」
 * (the board and the ICCS after, where a braille display's first 40 cells do not need
 * them). */
export function ownBoardStep(board, said, iccs) {
  return t(`你在棋盤走了${said}。${board}，${iccs}`, `You moved ${said} on your board. ${cap(board)}, ${iccs}`);
}
