// The text commands of the screen-reader mode (after lichess's nvui): scan a file or a rank,
// list pieces, read the clocks, the moves, what the player owes, the help. No DOM: each
// answer is a function of the table's snapshot, and the tests read them in Node.

import { t } from "./i18n.js";
import { SIDE, fmtTime, sayTime, words, PIECES, pieceName, phrase } from "./text.js";
import { expand, FILES, KIND_OF } from "./notation.js";
import { clockNow } from "./clock.js";
import { moveBy } from "./narrate.js";
import { KEY_WORDS } from "./protocol.js";

/** The help, in parts short enough to read on a braille display before it moves on: `h`
 * gives the first, `h 2` and `h 3` the others; each says where the next is. */
export const HELP = [
  t("說明一：查詢。c 時間；d 須做甚麼；l 上一着；[ 和 ] 逐着瀏覽；m 最近着法；t 輪到誰；a 本輪報棋。h 2 聽下一段",
    "Help 1: questions. c time; d what to do; l last move; [ and ] step through the moves; m recent moves; t turn; a the words so far. h 2 for more"),
  t("說明二：棋盤。f 路數 1–9 或 a–i；r 橫線 0–9；s 一點如 e2；k 棋種如 k 馬；p 全部棋子；w 雙方姓名。h 3 聽下一段",
    "Help 2: the board. f file 1–9 or a–i; r rank 0–9; s a point, e.g. e2; k a kind, e.g. k h; p all pieces; w names. h 3 for more"),
  t("說明三：走棋。直接打 炮二平五、C2=5 或 h2e2 報棋；b h2e2 在棋盤走子；z 按鐘；e 確認複讀；o 提和；y 接受；n 不接受；resign 認負；v 詳略；Alt 加上下鍵翻看訊息；Alt+C 回到指令欄。說明完",
    "Help 3: playing. Type 炮二平五, C2=5 or h2e2 to announce; b h2e2 moves on your board; z presses the clock; e confirms a read-back; o offers a draw; y accepts; n declines; resign resigns; v verbosity; Alt with up or down steps through the messages; Alt+C back to the command field. End of help"),
];

/** How many moves `m` reads at once. */
const MOVES_AT_ONCE = 5;

const NUMERALS = "一二三四五六七八九";
/** A kind asked by its character (either side's) or its letter (KIND_OF: FEN letters). */
const KIND_WORD = Object.fromEntries(KEY_WORDS.filter(([, tok]) => !/^\d$|front|middle|rear|forward|backward|across/.test(tok))
  .concat([["俥", "rook"], ["傌", "horse"], ["砲", "cannon"], ["g", "general"]]));
/** A side's character for a kind (第12條). */
const PIECE_OF = { red: { general: "帥", advisor: "仕", elephant: "相", horse: "傌", rook: "俥", cannon: "炮", pawn: "兵" },
  black: { general: "將", advisor: "士", elephant: "象", horse: "馬", rook: "車", cannon: "砲", pawn: "卒" } };

/** A file number 1–9 given as `1`–`9`, full-width or Chinese numerals; 0 if none. */
function fileNumber(arg) {
  if (/^[1-9]$/.test(arg)) return Number(arg);
  if (/^[１-９]$/.test(arg)) return arg.charCodeAt(0) - 0xff10;
  return arg.length === 1 ? NUMERALS.indexOf(arg) + 1 : 0;
}

/** The ICCS file index (0 = a) of file `n` as `side`'s notation numbers it: 1 is the file
 * on that side's right, i for red and a for black (第7條). */
function notationFile(n, side) {
  return side === "black" ? n - 1 : 9 - n;
}

/** What `me` must do now: a repeat owed (mirroring the opponent's move
 * on his own board first, 7.4(2)(g)), a move check to answer (6.4), his move, or nothing. */
function duty(snap, me, board) {
  if (snap.phase === "over") return t("對局已結束", "the game is over");
  if (snap.phase === "not_started") return t("未開鐘", "the clocks have not started");
  const offer = offerSaid(snap, me);
  if (!me || snap.to_move !== me) return offer + t("等候對手", "wait for the opponent");
  return offer + (owed(snap, me, board) || t("輪到你：走子、報棋，然後按鐘", "your turn: move, announce, then press the clock"));
}

/** A draw offer standing, first, as what the seat may answer (69(2)): 「對手提和：y 接受，n
 * 不接受。」, or his own offer waiting; "" when none. Saying a word or touching a piece
 * declines it (69(2)(d)). */
function offerSaid(snap, me) {
  const o = snap.offer;
  if (!o || !me) return "";
  if (o.side === me) return t("你已提和，待對手回應。", "You have offered a draw; it awaits an answer. ");
  if (!o.stands) return t("對手已提和，你的輪次開始時生效。", "Your opponent has offered a draw; it stands when your turn begins. ");
  return t("對手提和：y 接受，n 不接受。報棋或摸子即拒絕。", "Your opponent offers a draw: y accepts, n declines. A word or a touched piece declines it. ");
}

/** What `me` owes in his turn besides his move, in words: a repeat (mirroring the
 * opponent's move on his own board first, 7.4(2)(g)) or a move check to answer (6.4: the
 * board set right, the move announced again, the board restored); "" when nothing. */
export function owed(snap, me, board = null) {
  if (!me || snap.to_move !== me || !["playing", "paused"].includes(snap.phase)) return "";
  const p = snap.pending || {};
  if (p.repeat?.mirror) {
    const said = words(p.repeat.words, p.repeat.mover);
    // Once his board shows the game's position, the opponent's move is on it: what is left
    // is the read-back and its confirmation.
    if (board && board.placement === snap.fen.split(" ")[0]) {
      return t(`複讀「${said}」，然後按 e 確認`, `read back ${said}, then press e to confirm`);
    }
    return phrase("mirror.repeat_mirror", { move: said }) + t("。按 e 確認", ". Press e to confirm");
  }
  if (p.repeat) return phrase("mirror.repeat_referee", { move: words(p.repeat.words, p.repeat.mover) });
  if (p.correction) return t(`把棋盤修正為 ${p.correction}。在棋盤走子：打 b 加走法`, `set your board right to ${p.correction}. Board moves: b and the move`);
  if (p.reannounce) return t(`重新報棋 ${words(p.reannounce[1], me)}`, `announce again: ${words(p.reannounce[1], me)}`);
  if (p.restore) return t("還原棋盤，改走別子。打 b 加走法", "restore the board and move another piece. Type b and the move");
  return "";
}

/** A move of the record as it is heard, the move first: 紅方 炮二平五，吃馬，將軍。第 3 着，h2e2. */
export function moveLine(m) {
  const offer = m.draw_offer ? t("，提和", ", offering a draw") : "";
  return t(`${moveBy(m.mv, m.side)}${offer}。第 ${m.ply} 着，${m.mv.iccs}`,
    `${moveBy(m.mv, m.side)}${offer}. Move ${m.ply}, ${m.mv.iccs}`);
}

/** Five moves of the record, each its own sentence, with the count first and where the next
 * five are: the last five (`m`), or from move `from` on (`m 12`). A whole game in one
 * message could not be read on a braille display before it moved on. */
function movesFrom(moves, from) {
  if (!moves.length) return t("尚未走子", "no move yet");
  const n = moves.length;
  const start = from ? Math.min(n, Math.max(1, Number(from) || 1)) : Math.max(1, n - MOVES_AT_ONCE + 1);
  const shown = moves.slice(start - 1, start - 1 + MOVES_AT_ONCE);
  const end = start + shown.length - 1;
  const head = t(`共 ${n} 着，第 ${start} 至 ${end} 着。`, `${n} moves; moves ${start} to ${end}. `);
  const lines = shown.map((m) => `${moveLine(m)}${t("，", ", ")}${fmtTime(m.clock_ms)}`).join(t("。", ". "));
  const more = end < n ? t(`。m ${end + 1} 聽下去`, `. m ${end + 1} for more`) : start > 1 ? t(`。m ${Math.max(1, start - MOVES_AT_ONCE)} 聽前面`, `. m ${Math.max(1, start - MOVES_AT_ONCE)} for earlier`) : "";
  return head + lines + more;
}

/** A line of the board (a file or a rank) with its count first, each piece after: 「第 0 橫線，
 * 9 子。a0 紅俥，…」; an empty line said once, not as nine 「空」. */
function counted(name, pieces) {
  if (!pieces.length) return t(`${name}：無子`, `${name}: empty`);
  return t(`${name}，${pieces.length} 子。${pieces.join("，")}`, `${name}, ${pieces.length} ${pieces.length === 1 ? "piece" : "pieces"}. ${pieces.join(", ")}`);
}

/** A side's pieces, its count first, then kind by kind with their points, each kind with its
 * points in one sentence (a display's line never parts 炮 from b7): 「紅方 16 子。帥：e0。…」. */
function piecesOf(grid, s) {
  const letters = s === "red" ? "KABNRCP" : "kabnrcp";
  const kinds = [...letters].map((l) => {
    const points = [];
    for (let r = 9; r >= 0; r--) for (let f = 0; f < 9; f++) if (grid[9 - r][f] === l) points.push(FILES[f] + r);
    return { piece: PIECES[l], points };
  }).filter((k) => k.points.length);
  const n = kinds.reduce((sum, k) => sum + k.points.length, 0);
  const each = kinds.map((k) => `${k.piece}${t("：", ": ")}${k.points.join(" ")}`);
  return [t(`${SIDE[s]} ${n} 子`, `${SIDE[s]}: ${n} pieces`), ...each].join(t("。", ". "));
}

/** Answers one screen-reader command about a snapshot, in words; files given as numbers
 * count as `me`'s notation does (red's for a spectator). */
export function command(text, snap, me = null, board = null) {
  const [cmd, arg = ""] = text.trim().toLowerCase().split(/\s+/);
  if (!snap) return t("尚未連線", "not connected");
  const grid = expand(snap.fen);
  const at = (f, r) => grid[9 - r][f];
  switch (cmd) {
    case "c": {
      // The side to move first (6.5(2)), as the arbiter's own report orders them.
      const now = clockNow(snap.clock);
      const first = ["playing", "paused"].includes(snap.phase) ? snap.to_move : "red";
      const order = first === "red" ? ["red", "black"] : ["black", "red"];
      const said = order.map((s) => `${SIDE[s]} ${sayTime(now[s])}`).join(t("，", ", "));
      return said + (now.running ? t(`，${SIDE[now.running]}的鐘在走`, `, ${SIDE[now.running]}'s clock runs`) : "");
    }
    case "d":
      return duty(snap, me, board);
    case "l": {
      const m = snap.moves.at(-1);
      return m ? moveLine(m) : t("尚未走子", "no move yet");
    }
    case "m":
      return movesFrom(snap.moves, arg);
    case "p": {
      const want = { "紅": "red", r: "red", red: "red", "黑": "black", b: "black", black: "black" }[arg];
      const sides = want ? [want] : ["red", "black"];
      return sides.map((s) => piecesOf(grid, s)).join(t("。", ". "));
    }
    case "f": {
      // As the reader's notation numbers it (red's, written 一–九, or black's, 1–9).
      const side = me === "black" ? "black" : "red";
      const n = fileNumber(arg);
      const f = n ? notationFile(n, side) : FILES.indexOf(arg);
      if (f < 0) return t("直線請用 a 至 i，或本方路數 1 至 9", "a file is a to i, or 1 to 9 as your notation counts");
      const out = [];
      for (let r = 9; r >= 0; r--) if (at(f, r)) out.push(`${FILES[f]}${r} ${pieceName(at(f, r))}`);
      const label = side === "red" ? NUMERALS[n - 1] : n;
      const name = n ? t(`${SIDE[side]}第${label}路，${FILES[f]} 線`, `${SIDE[side]} file ${n}, the ${FILES[f]} file`) : t(`${FILES[f]} 線`, `${FILES[f]} file`);
      return counted(name, out);
    }
    case "k": {
      // The pieces of one kind, both sides, the reader's own first (as the keypad lists them).
      const kind = KIND_OF[arg] || KIND_WORD[arg];
      if (!kind) return t("棋種請用 車 馬 炮 相 仕 帥 兵，或 r h c e a k p", "a kind is r h c e a k p, or 車 馬 炮 相 仕 帥 兵");
      const sides = me === "black" ? ["black", "red"] : ["red", "black"];
      return sides.map((s) => {
        const found = [];
        for (let r = 9; r >= 0; r--) {
          for (let f = 0; f < 9; f++) {
            const ch = at(f, r);
            if (ch && KIND_OF[ch.toLowerCase()] === kind && (ch === ch.toUpperCase()) === (s === "red")) found.push(`${FILES[f]}${r}`);
          }
        }
        return `${SIDE[s]}${PIECE_OF[s][kind]}${t("：", ": ")}${found.join(t("，", ", ")) || t("無", "none")}`;
      }).join(t("。", ". "));
    }
    case "r": {
      const r = Number(arg);
      if (!/^\d$/.test(arg)) return t("橫線請用 0 至 9", "a rank is 0 to 9");
      const out = [];
      for (let f = 0; f < 9; f++) if (at(f, r)) out.push(`${FILES[f]}${r} ${pieceName(at(f, r))}`);
      return counted(t(`第 ${r} 橫線`, `rank ${r}`), out);
    }
    case "s": {
      if (!/^[a-i]\d$/.test(arg)) return t("點請用 ICCS，例如 e2", "a point is written in ICCS, e.g. e2");
      return `${arg} ${pieceName(at(FILES.indexOf(arg[0]), Number(arg[1])))}`;
    }
    case "t": {
      if (snap.phase === "over") return t("對局已結束", "the game is over");
      // To a seat in the second person, in the summary's words (the phrasebook's, 95(3)).
      if (snap.phase === "not_started") {
        if (me) return phrase(me === "red" ? "summary.not_started_first" : "summary.not_started_start");
        return t("未開鐘（黑方按鐘開始）", "not started (black starts the clocks)");
      }
      if (me) return phrase(snap.to_move === me ? "summary.turn_you" : "summary.turn_opponent");
      return t(`輪到${SIDE[snap.to_move]}`, `${SIDE[snap.to_move]} to move`);
    }
    case "a":
      return snap.attempt.length ? `${t("本輪報棋：", "announcing: ")}${words(snap.attempt, snap.to_move)}`
        : (snap.announced ? `${t("已報：", "announced: ")}${words(snap.announced, snap.to_move)}` : t("本輪尚未報棋", "nothing announced yet"));
    case "h": case "?": case "":
      return HELP[Math.min(HELP.length, Math.max(1, Number(arg) || 1)) - 1];
    default:
      // Short: the whole help at each slip would bury what he typed (h gives it).
      return t(`不明指令「${text}」：h 聽指令說明`, `Unknown command “${text}”: h for the commands`);
  }
}

/** What is said of typed words that cannot be read (nothing is sent): what happened first. */
export function slip(text) {
  return t(`未送出：「${text}」不是報棋。請打 炮二平五、C2=5 或 h2e2`,
    `Not sent: "${text}" is not a move's words. Type 炮二平五, C2=5 or h2e2`);
}
