// The seat page's command field (after lichess's nvui): one line for
// everything a blind player asks and does. The queries are board.js's; a seat also says its
// words here (characters, AXF/WXF letters, ICCS: notation.js), moves on its own board, presses
// the clock, confirms a read-back, offers, accepts or declines a draw, resigns, sets the
// verbosity and steps through the moves. Its acts go through the page's own buttons and
// sender, so that each asks what its button asks (an early press, a foul offer, resigning).

import { $, t, SIDE, confirmThen } from "./common.js";
import { command as nvui, moveLine } from "./nvui.js";
import { isWholeMove, typedKeys } from "./notation.js";
import { VERBOSITIES } from "./narrate.js";

/** Long names of the commands, as lichess's blind mode has them (clock, last, opponent). */
export const ALIASES = { clock: "c", time: "c", last: "l", opponent: "w", who: "w", moves: "m", turn: "t", help: "h", press: "z" };

/**
 * The command field of a page. `page` gives: `snap()` the table's state, `me()` the seat's
 * side (null for a spectator), `send(command, what)`, `boardMove(iccs)`, `wordContext()`,
 * `wordCommand(word)`, `slipText(line)`, `setVerbosity(v)`, `verbosity()`, `askTime()`,
 * `board()` the seat's own board, `wholeMove(n)` n words typed as one line are on their way.
 */
export class CommandField {
  constructor(page) {
    this.page = page;
    /** The move `[` and `]` are at (an index of the record), null before they are used. */
    this.browsing = null;
  }

  /** Runs one line: what to say, or "" when an act says itself (its answer, its events). */
  async run(line) {
    const own = this.page.me() ? await this.seat(line) : null;
    if (own === "") return "";
    const [first, ...rest] = line.trim().split(/\s+/);
    const query = [ALIASES[first?.toLowerCase()] ?? first, ...rest].join(" ");
    return own ?? (["[", "]"].includes(query) ? this.step(query === "[" ? -1 : 1) : nvui(query, this.page.snap(), this.page.me(), this.page.board?.()));
  }

  /** What a seat does besides the queries; null when the line is a query. */
  async seat(line) {
    const p = this.page;
    const snap = p.snap();
    const me = p.me();
    const [typed, arg = ""] = line.trim().toLowerCase().split(/\s+/);
    // lichess's blind players' words for the same commands (docs/lichess-comparison.md).
    const cmd = ALIASES[typed] ?? typed;
    if (cmd === "c" && ["playing", "paused"].includes(snap?.phase)) {
      // The arbiter's report (query_time), the side to move first (6.5(2), 7.6(2)).
      p.askTime();
      await p.send({ type: "query_time" }, t("問時間", "Ask the time"));
      return "";
    }
    // Words: a whole move in letters or ICCS, or characters (a command starts with its
    // letter: `f 五` asks for a file).
    if (/^\s*\p{Script=Han}/u.test(line) || isWholeMove(line)) {
      const read = typedKeys(line, p.wordContext());
      if (read.error) return p.slipText(line);
      const announce = async () => {
        p.wholeMove?.(read.keys.length);
        for (const w of read.keys) {
          if (await p.send(p.wordCommand(w), `${t("報", "said ")}「${w}」`)) continue;
          p.wholeMove?.(0);
          break;
        }
      };
      // A word declines a standing offer (69(2)(d)): asked first, Cancel focused.
      if (snap?.offer?.stands && snap.offer.side !== me) {
        confirmThen(t("對手提和。報棋即拒絕提和，仍要報棋？", "Your opponent offers a draw. Announcing declines it. Announce anyway?"), announce);
        return "";
      }
      await announce();
      return "";
    }
    return this.act(cmd, arg, snap, me);
  }

  /** The seat's acts by their letters. */
  async act(cmd, arg, snap, me) {
    const p = this.page;
    const click = (id) => { $(id).click(); return ""; };
    switch (cmd) {
      case "b": {
        const mv = arg.replace(/-/g, "");
        if (!/^[a-i]\d[a-i]\d$/.test(mv)) return t("在棋盤走子請打 b 加 ICCS，例如 b h2e2", "Type b and the move in ICCS, e.g. b h2e2");
        await p.boardMove(mv);
        return "";
      }
      case "z": return click("press");
      case "e": return $("confirm-repeat").hidden ? t("現在沒有須確認的複讀", "No read-back to confirm now") : click("confirm-repeat");
      case "o":
        // 69(2)(c)(ii): a new offer now is 連續提和, a technical foul: asked first, as the
        // button's label warns.
        if ((snap?.draw_barred || []).includes(me)) {
          confirmThen(t("現在提和即連續提和，會被記技術犯規。仍要提和？", "Offering now is a repeated offer, a technical foul. Offer anyway?"), () => click("offer"));
          return "";
        }
        return click("offer");
      case "draw": return $("accept").disabled ? click("offer") : click("accept");
      case "w": return names(snap, me);
      case "y": return $("accept").disabled ? t("對手沒有提和", "There is no draw offer") : click("accept");
      case "n": return $("decline").disabled ? t("對手沒有提和", "There is no draw offer") : click("decline");
      case "resign": return click("resign");
      case "v": return p.setVerbosity(VERBOSITIES.includes(arg) ? arg : VERBOSITIES[(VERBOSITIES.indexOf(p.verbosity()) + 1) % 3]);
      case "[": case "]": return this.step(cmd === "[" ? -1 : 1);
      default: return null;
    }
  }

  /** Steps through the moves of the record, from the last one back (`[`) or on (`]`). */
  step(by) {
    const moves = this.page.snap()?.moves || [];
    if (!moves.length) return t("尚未走子", "no move yet");
    const at = Math.min(moves.length - 1, Math.max(0, (this.browsing ?? moves.length) + by));
    const edge = at === this.browsing ? (by < 0 ? t("（第一着）", " (the first move)") : t("（最後一着）", " (the last move)")) : "";
    this.browsing = at;
    return moveLine(moves[at]) + edge;
  }
}

/** Both players' names and sides, the seat's first. */
function names(snap, me) {
  const other = me === "red" ? "black" : "red";
  const n = snap?.names || {};
  return t(`你是${SIDE[me]}${n[me] || ""}，對手${SIDE[other]}${n[other] || ""}`,
    `You are ${SIDE[me]}, ${n[me] || ""}; your opponent ${SIDE[other]}, ${n[other] || ""}`);
}
