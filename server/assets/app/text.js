// The pages' phrasebook: every typed value the server sends (events, refusals, errors, open
// calls, reasons, words, moves, articles) said in the reader's language. The server sends
// no prose; the words of the rule text in traditional characters (pieces, numerals, the
// 61 warnings, outcomes) come from protocol.js, generated from the Rust side. No DOM here:
// the pages' tests import this module in Node and format every sample the server can send.
//
// Languages: each line is written twice, `t(繁體, English)`; Simplified
// Chinese is made from the Traditional text (i18n.js). The notation stays Chinese in every
// language (炮二平五, 馬８進７, the characters of the pieces), and so do the names and notes
// people type; everything else has its English here, the rule words of protocol.js too
// (keyed by their protocol codes: 技術犯規 technical foul, 長將 perpetual check, …).
// Articles: 第69(1)條 art. 69(1), 附表七 7.1(2) Schedule 7, 7.1(2).

import { WORD_TEXT, WARNING_TEXT, RULE_WORDS, ENUMS } from "./protocol.js";
import { t, lang } from "./i18n.js";
import { PHRASES } from "./phrases.js";

/** A shared entry of the phrasebook (phrases.js, generated from the one the keypad speaks) in
 * the page's language, its `{slots}` filled in one pass (a value is never read for slots). */
export function phrase(id, slots = {}) {
  const [zh, en] = PHRASES[id];
  return t(zh, en).replace(/\{(\w+)\}/g, (m, k) => (k in slots ? slots[k] : m));
}

/** English, capitalised at the start of a line ("regular board" → "Regular board"). */
/** A sentence's first letter capitalised (English; Chinese unchanged). */
export const cap = (s) => (lang === "en" && s ? s[0].toUpperCase() + s.slice(1) : s);
/** An English plural: 2 technical fouls, 1 technical foul. */
const plural = (n, w) => (n === 1 ? w : `${w}s`);

/** A rule word of protocol.js (`table` its table, `key` its code) in the page's language;
 * `en` its English by code (the Traditional word stays when a new code has none yet). */
const rule = (table, key, en) => t(RULE_WORDS[table][key], en[key] ?? RULE_WORDS[table][key]);
const byCode = (table, en) => Object.fromEntries(Object.keys(RULE_WORDS[table]).map((k) => [k, rule(table, k, en)]));

export const SIDE = { red: t("紅方", "Red"), black: t("黑方", "Black") };
export const CARD = { draw: t("提和卡", "draw card"), resign: t("認負卡", "resignation card") };
/** The three records of 126, in the rule's order: 技術犯規, 違反記錄規則, 違反按棋鐘規則. */
export const KIND = Object.fromEntries(ENUMS.violation_kind.map((k) => [k, rule("violation_kind", k, {
  technical: "technical foul", recording: "recording violation", clock: "clock violation",
})]));
export const BOARD_NAME = byCode("board", { regular: "regular board", vi: "VI board" });
const PIECE = {
  general: "將帥", advisor: "仕士", elephant: "相象", horse: "馬", rook: "車", cannon: "炮", pawn: "兵卒",
};
/** The pieces in English (standard Xiangqi terms). */
const PIECE_EN = {
  general: "general", advisor: "advisor", elephant: "elephant", horse: "horse", rook: "chariot", cannon: "cannon", pawn: "soldier",
};

/** A file's number as the side of `letter` (a piece, upper case red) writes it: 二, ２. */
const fileOf = (n, letter) => word(String(n), letter && letter === letter.toUpperCase() ? "red" : "black");

/** A side's name: 紅方, 黑方 (Red, Black). */
export const side = (s) => SIDE[s] || "";

/** A board's name: 視障棋盤, 正規棋盤 (VI board, regular board). */
export const boardName = (b) => BOARD_NAME[b] || BOARD_NAME.regular;

/** The words of a designation (tokens) as `s` writes them: 炮二平五, 馬８進７ (every language). */
export function words(list, s = "red") {
  const table = WORD_TEXT[s] || WORD_TEXT.red;
  return (list || []).map((w) => table[w] ?? "").join("");
}

/** One word as `s` writes it. */
export const word = (w, s = "red") => words([w], s);

/** A piece of a FEN letter (`C` red cannon, `c` black cannon): 紅方炮 (Red cannon). */
export function pieceOf(letter) {
  if (!letter) return "";
  const s = letter === letter.toUpperCase() ? "red" : "black";
  const kind = { k: "general", a: "advisor", b: "elephant", e: "elephant", n: "horse", h: "horse", r: "rook", c: "cannon", p: "pawn" }[letter.toLowerCase()];
  return t(`${side(s)}${word(kind, s)}`, `${side(s)} ${PIECE_EN[kind] || kind}`);
}

/** A kind of piece, as `s` writes it (a side's own character; in English its name). */
export function kindOf(kind, s = "red") {
  const hant = word(kind, s) || PIECE[kind] || kind;
  return typeof hant === "string" ? t(hant, PIECE_EN[kind] || kind) : hant;
}

/** A move on the record: its words with × ○ ＝ as earned (附表六 第二部份). */
export function move(mv, s, drawOffer = false) {
  if (!mv) return "";
  return `${words(mv.words, s)}${mv.captured ? "×" : ""}${mv.check ? "○" : ""}${drawOffer ? "＝" : ""}`;
}

/** An article as the rule text cites it: 第69(1)條, 附表七 7.1(2) (art. 69(1), Schedule 7, 7.1(2)). */
export const article = (a) => (/^[67]\./.test(a) ? t(`附表七 ${a}`, `Schedule 7, ${a}`) : t(`第${a}條`, `art. ${a}`));

/** Several articles: 第69(1)條、附表七 7.1(2) (art. 69(1); Schedule 7, 7.1(2)). */
export const articles = (list) => (list || []).map(article).join(t("、", "; "));

/** A clock time in words as the keypad shows it (spoken_time::duration's rules), rounded
 * down (a time said is never more than is left): 1 小時 5 分, 2 分鐘, 5 分 30 秒, 30 秒. */
export function sayTime(ms) {
  const all = Math.max(0, Math.floor(ms / 1000));
  const [h, m, s] = [Math.floor(all / 3600), Math.floor(all / 60) % 60, all % 60];
  const en = (n, unit) => `${n} ${plural(n, unit)}`;
  if (h) return m ? t(`${h} 小時 ${m} 分`, `${en(h, "hour")} ${en(m, "minute")}`) : t(`${h} 小時`, en(h, "hour"));
  if (m && !s) return t(`${m} 分鐘`, en(m, "minute"));
  if (m) return t(`${m} 分 ${s} 秒`, `${en(m, "minute")} ${en(s, "second")}`);
  return t(`${s} 秒`, en(s, "second"));
}

/** Minutes and seconds: 12:05. */
export function fmtTime(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

const PATTERN = byCode("pattern", { perpetual_check: "perpetual check", perpetual_chase: "perpetual chase" });

/** A 第61條 warning in English, from its parts (the Traditional text is protocol.js's). */
function warningEn(w) {
  const who = w.side || w.first;
  const other = who === "red" ? "black" : "red";
  switch (w.kind) {
    case "forbidden": return `${side(who)} ${PATTERN[w.pattern]}: ${side(who)} loses unless it changes`;
    case "mutual": return `${side(who)} ${PATTERN[w.pattern]}, ${side(other)} ${PATTERN[w.pattern]} too: a draw unless one side changes`;
    case "ordinary": return "Ordinary repetition: a draw unless one side changes";
    default: return "";
  }
}

/** The words of a 第61條 warning. */
export function warning(w) {
  if (!w) return "";
  const key = `${w.kind}/${w.side || w.first || ""}/${w.pattern || ""}`;
  const hant = WARNING_TEXT[key] || "";
  return t(hant, warningEn(w) || hant);
}

const OUTCOME = byCode("outcome", { red_wins: "Red wins", black_wins: "Black wins", draw: "Draw", both_lose: "Both lose" });
const SCORE = RULE_WORDS.score;

/** Why a game ended. */
export function endCause(c, me = null) {
  // A player hears the side it ends for as 你 or 對手; a referee or spectator, by its name.
  const who = (s) => (me ? phrase(s === me ? "times.you" : "times.opponent") : side(s));
  switch (c?.cause) {
    case "board": return phrase(`end.${c.reason}`);
    case "forbidden": return phrase("end.forbidden", { side: who(c.offender), pattern: PATTERN[c.pattern] });
    case "mutual_forbidden": case "cycle_draw": case "official_draw": return phrase(`end.${c.cause}`);
    case "timeout": return phrase("end.timeout", { side: who(c.loser) });
    case "violation_limit": return phrase("end.violation_limit", { side: who(c.loser), violation: heardKind(c.kind), count: c.count });
    case "resigned": return phrase(c.card ? "end.resignation_card" : "end.resignation", { side: who(c.loser) });
    case "draw_agreed": return phrase(c.card ? "end.draw_agreed_card" : "end.draw_agreed");
    case "adjudicated": return phrase("end.adjudicated", { reason: c.reason });
    default: return "";
  }
}

/** A board's result as the tournament counts it (the organiser's grid, the standings, the
 * organiser's results on the referees' screens): its score and its words. */
export const BOARD_RESULT = {
  red_wins: ["1-0", t("紅勝", "red wins")],
  black_wins: ["0-1", t("黑勝", "black wins")],
  draw: ["½-½", t("和局", "draw")],
  forced_draw: ["½-½", t("強制和棋", "forced draw")],
  both_lose: ["0-0", t("雙負", "both lose")],
  red_absent: ["-/+", t("紅方缺席，黑方不戰而勝", "red absent, black wins without play")],
  black_absent: ["+/-", t("黑方缺席，紅方不戰而勝", "black absent, red wins without play")],
  both_absent: ["-/-", t("雙方缺席", "both absent")],
};

/** `+/- 黑方缺席，紅方不戰而勝`; empty for no result. */
export const boardResult = (r) => (BOARD_RESULT[r] ? `${BOARD_RESULT[r][0]} ${BOARD_RESULT[r][1]}` : "");

/** A result: 1-0 紅方勝：黑方認負（第69(1)條）. */
export function result(r) {
  if (!r) return "";
  return t(`${SCORE[r.outcome]} ${OUTCOME[r.outcome]}：${endCause(r)}（${articles(r.articles)}）`,
    `${SCORE[r.outcome]} ${OUTCOME[r.outcome]}: ${endCause(r)} (${articles(r.articles)})`);
}

/** Why a violation was recorded (`s` the side, for its words), in the phrasebook's words
 * (`because.*`, the keypad's too). */
export function violationReason(r, s = "red") {
  switch (r?.reason) {
    case "pressed_early": return phrase("because.pressed_early",
      { missing: (r.missing || []).map((m) => phrase(`because.${m}`)).join(phrase("because.and")) });
    case "illegal_announcement": case "wrong_reannouncement":
      return phrase(`because.${r.reason}`, { move: words(r.words, s) });
    case "referee": return r.note ? phrase("because.referee_note", { note: r.note }) : phrase("because.referee");
    case "pressed_before_reannouncing": case "pressed_before_correcting": case "sealed_move_not_played":
    case "consecutive_draw_offer":
      return phrase(`because.${r.reason}`);
    default: return "";
  }
}

/** A violation's kind as a player hears it (the phrasebook's short names): 技術犯規,
 * 記錄違例, 按鐘違規. The referees' screens keep the rule's own (`KIND`). */
export const heardKind = (kind) => phrase(`violation.${kind}`);

const IMPOSSIBLE = {
  diagonal_across: (u) => t(`${pieceOf(u.piece)}斜行，不能平`, `The ${pieceOf(u.piece)} moves diagonally and cannot move across (平)`),
  same_file: (u) => t(`${pieceOf(u.piece)}已在第${fileOf(u.file, u.piece)}路`, `The ${pieceOf(u.piece)} is already on file ${u.file}`),
  file_out_of_reach: (u) => t(`${pieceOf(u.piece)}不能一步由第${fileOf(u.from, u.piece)}路到第${fileOf(u.to, u.piece)}路`,
    `The ${pieceOf(u.piece)} cannot go from file ${u.from} to file ${u.to} in one move`),
  one_step: (u) => t(`${pieceOf(u.piece)}每步只行一格`, `The ${pieceOf(u.piece)} moves only one point at a time`),
  pawn_retreat: (u) => t(`${pieceOf(u.piece)}不能後退`, `The ${pieceOf(u.piece)} cannot move backward`),
  off_board: (u) => t(`${pieceOf(u.piece)}會走出棋盤`, `The ${pieceOf(u.piece)} would leave the board`),
};

/** Why the words of an attempt cannot be any move (the player may correct). */
export function unspeakable(u) {
  switch (u?.why) {
    case "not_a_word": return t(`「${u.text}」不是記譜用字`, `"${u.text}" is not a word of the notation`);
    case "direction_first": return t("報棋由棋子、前中後或序數開始", "An announcement starts with a piece, 前 中 後 (front, middle, rear) or an ordinal");
    case "no_such_piece": return t(`沒有${pieceOf(u.piece)}`, `There is no ${pieceOf(u.piece)}`);
    case "say_front_or_rear": return t(`${pieceOf(u.piece)}同在一路，須報前或後`, `Both ${pieceOf(u.piece)}s are on one file: say 前 or 後 (front or rear)`);
    case "not_an_ordinal": return t(`${u.numeral} 不是棋子也不是序數`, `${u.numeral} is neither a piece nor an ordinal`);
    case "order_names_none": return t("所報次序不指任何同路棋子", "The order announced names no piece on the file");
    case "no_same_pieces_on_a_file": return t("沒有同路的棋子可分前後", "No two like pieces share a file to be told front from rear");
    case "not_a_piece": return t("頭兩字不是一隻棋子", "The first two words are not a piece");
    case "none_on_file": return t(`第${fileOf(u.file, u.piece)}路沒有${pieceOf(u.piece)}`, `No ${pieceOf(u.piece)} on file ${u.file}`);
    case "bad_order": return t(`所報次序不合該路 ${u.count} 隻${pieceOf(u.piece)}`,
      `The order announced does not fit the ${u.count} ${plural(u.count, pieceOf(u.piece))} on that file`);
    case "several": return t(`${u.count} 隻${pieceOf(u.piece)}都合所報，須報前後或路數`,
      `${u.count} ${plural(u.count, pieceOf(u.piece))} fit the announcement: say front or rear, or the file`);
    case "cannot_move": return t("所報棋子不能走", "The announced piece cannot move");
    case "not_a_motion": return t("後兩字不是方向和數目", "The last two words are not a direction and a number");
    case "not_a_direction": return t("第三字須是進、退或平", "The third word must be 進, 退 or 平 (forward, backward or across)");
    case "unreachable": return IMPOSSIBLE[u.impossible]?.(u) || "";
    case "cannot_complete": return t("不能完成為此子的着法", "The words cannot be completed into a move of this piece");
    default: return "";
  }
}

/** Why a move cannot be played. */
export function illegality(i) {
  switch (i?.illegal) {
    case "blocked": return t("受阻或走法不合（第5章）", "blocked, or not how the piece moves (chapter 5)");
    case "self_check": return t("走後己方被將或雙方將帥照面（第30條）", "it leaves one's own general in check or the generals facing each other (art. 30)");
    case "unresolved": return t("所報不止一隻棋子可走", "more than one piece fits the announcement");
    case "no_piece": return t(`${i.point} 沒有棋子`, `no piece on ${i.point}`);
    case "not_yours": return t(`${i.point} 不是己方棋子`, `the piece on ${i.point} is not one's own`);
    default: return "";
  }
}

const CHECK = {
  agree: t("報棋與走子吻合", "The announcement and the board move agree"),
  a: t("走子與報棋不同。走子檢查 (a)：報棋合法，以該方用時把棋盤修正至報棋",
    "board move differs from the announcement. Move check (a): the announcement is legal; the board is corrected to the announcement on that side's time"),
  b: t("報棋非法，以走子為準。走子檢查 (b)：走子為所報子的合法着法，須重新報棋，記錄違例",
    "announcement is illegal, the board move stands. Move check (b): the board move is a legal move of the announced piece; announce again, a violation is recorded"),
  c: t("報棋非法，還原棋盤。走子檢查 (c)：走子非所報子或同為非法，可改走別子，技術犯規",
    "announcement is illegal, restore the board. Move check (c): the board move is not of the announced piece or is illegal too; another piece may be moved; technical foul"),
  board_governs: t("裁判代報：以走子為準", "Announced by the referee: the board move governs"),
  board_only: t("無須報棋：只核對走子", "No announcement needed: only the board move is checked"),
  sealed_move_broken: t("走子與封存着法不同。還原棋盤，技術犯規", "board move differs from the sealed move. Restore the board; technical foul"),
  referee_ruling: t("監局裁判裁定此着成立", "The table referee ruled that this move stands"),
  corrected: t("棋盤已修正至報棋", "The board has been corrected to the announcement"),
};

/** The words of a check outcome. */
export const checkOutcome = (o) => CHECK[o] || "";

/** What a check compared: 報「炮二進四」，棋盤走 h2e2（炮二平五） (announced "炮二進四", board move h2e2 (炮二平五)). */
export function finding(ev) {
  const parts = [];
  if (ev.announced) {
    const said = words(ev.announced.words, ev.side);
    const ill = ev.announced.illegal ? illegality(ev.announced.illegal) : "";
    const bad = !!ev.announced.illegal;
    parts.push(t(`報「${said}」${bad ? `（非法：${ill}）` : ""}`, `announced "${said}"${bad ? ` (illegal: ${ill})` : ""}`));
  }
  if (ev.board) {
    const bw = words(ev.board_words, ev.side);
    parts.push(t(`棋盤走 ${ev.board}${ev.board_words ? `（${bw}）` : ""}`, `board move ${ev.board}${ev.board_words ? ` (${bw})` : ""}`));
  }
  return parts.join(t("，", ", "));
}

const CALL = {
  announce_for: t("須代為報棋", "an announcement must be made for the player"),
  board_divergence: t("棋盤與對局不同", "a board differs from the game"),
  correction_pending: t("待確認修正棋盤", "a board correction awaits confirmation"),
  repetition_warning: t("須即時發出循環警告（第121(2)條）", "a repetition warning must be given at once (art. 121(2))"),
  verify_result: t("結果須口頭核實（附表七 6.8、7.9）", "the result must be verified orally (Schedule 7, 6.8, 7.9)"),
  draw_offer: t("提和須在裁判面前（第123(2)(a)條）", "a draw must be offered in front of the referee (art. 123(2)(a))"),
  touched_piece: t("走子非所摸之子（第32、44條）", "the piece moved is not the piece touched (arts. 32, 44)"),
};

const DECLINE = {
  declined: t("拒絕", "declined"),
  card_returned: t("交還提和卡", "draw card returned"),
  touched_piece: t("摸子即表示拒絕（第69(2)(d)條）", "touching a piece declines it (art. 69(2)(d))"),
};
const CARD_MOVE = { handed: t("交給", "handed to"), returned: t("交還", "returned to"), exchanged: t("交換給", "given in exchange to") };
const STEP = (s) => (s.step === "move" ? s.mv : s.step === "lift" ? t(`提起 ${s.point}`, `lifted ${s.point}`)
  : s.step === "place" ? t(`放下 ${s.point}`, `placed on ${s.point}`) : t("裁判修正", "corrected by the referee"));
const PAUSE = {
  adjournment: t("裁判暫停對局（第103條）", "the referee adjourned the game (art. 103)"),
  server_restart: t("伺服器重新啟動。雙方棋鐘停止，等候裁判續賽", "the server restarted. Both clocks are stopped until the referee resumes the game"),
};

/** A card movement in words. */
export const cardText = (ev) => t(`${side(ev.owner)}的${CARD[ev.card]}${CARD_MOVE[ev.how]}${side(ev.holder)}`,
  `${side(ev.owner)}'s ${CARD[ev.card]} ${CARD_MOVE[ev.how]} ${side(ev.holder)}`);

/** Both times of a report, the first said first. */
const times = (list) => (list || []).map((x) => `${side(x.side)} ${sayTime(x.ms)}`).join(t("，", ", "));

/** What an event says, in one line of text (the feeds, the card UI, the monitor). */
export function describe(ev) {
  const s = side(ev.side);
  switch (ev.type) {
    case "started": return t("棋鐘開始，紅方先行", "Clocks started, Red moves first");
    case "turn": return t(`輪到${s}（第 ${ev.ply} 着）`, `${s} to move (move ${ev.ply})`);
    case "clock": return "";
    case "word": {
      const said = ev.word ? word(ev.word, ev.side) : ev.text;
      const why = ev.possible ? "" : unspeakable(ev.why);
      return t(`${s}報：${said}${ev.possible ? "" : `（不可能：${why}）`}`, `${s} says: ${said}${ev.possible ? "" : ` (impossible: ${why})`}`);
    }
    case "touched": return t(`${s}摸子：${kindOf(ev.kind, ev.side)}（${ev.point}）`, `${s} touched a piece: ${kindOf(ev.kind, ev.side)} (${ev.point})`);
    case "impossible": return t(`${s}「${words(ev.words, ev.side)}」不可能是任何着法，可以修正：${unspeakable(ev.why)}`,
      `${s}: "${words(ev.words, ev.side)}" cannot be any move, it may be corrected: ${unspeakable(ev.why)}`);
    case "announced": {
      const ill = ev.illegal ? illegality(ev.illegal) : "";
      return t(`${s}報棋完成：${words(ev.words, ev.side)}${ev.illegal ? `（非法：${ill}）` : ""}`,
        `${s} announced: ${words(ev.words, ev.side)}${ev.illegal ? ` (illegal: ${ill})` : ""}`);
    }
    case "repeated": {
      const said = ev.word ? word(ev.word) : ev.text || t("確認", "confirmed");
      return t(`${s}複讀：${said}${ev.mismatch ? "（不符，重來）" : ""}${ev.done ? "（完成）" : ""}`,
        `${s} reads back: ${said}${ev.mismatch ? " (does not match, again)" : ""}${ev.done ? " (done)" : ""}`);
    }
    case "repeat_due": return t(`${s}須複讀：${words(ev.words, ev.mover)}`, `${s} must read back: ${words(ev.words, ev.mover)}`);
    case "signalled": return t(`${s}示意：請代為報棋`, `${s} signalled: please announce the move for the player`);
    case "board": return t(`${boardName(ev.board)}：${STEP(ev.step)}`, `${cap(boardName(ev.board))}: ${STEP(ev.step)}`);
    case "board_diverges": return t(`${boardName(ev.board)}與對局不同：${ev.points.join("、")}`,
      `${cap(boardName(ev.board))} differs from the game: ${ev.points.join(", ")}`);
    case "board_agrees": return phrase("board.agrees", { board: cap(boardName(ev.board)) });
    case "pressed": return t(`${s}按鐘`, `${s} pressed the clock`);
    case "checked": return [cap(checkOutcome(ev.outcome)), cap(finding(ev))].filter(Boolean).join(t("。", ". "));
    case "violation": {
      const of = `${ev.count}${ev.limit ? "／" + ev.limit : ""}`;
      return t(`${s}${KIND[ev.kind]}：${of}（${violationReason(ev, ev.side)}）${ev.counted ? "" : "，同一輪次不重複計"}`,
        `${s} ${KIND[ev.kind]}: ${ev.count}${ev.limit ? "/" + ev.limit : ""} (${violationReason(ev, ev.side)})${ev.counted ? "" : ", not counted twice in one turn"}`);
    }
    case "violation_removed": return t(`${s}${KIND[ev.kind]}撤銷，現為 ${ev.count}（${ev.why === "rescinded" ? "裁判撤銷" : "同一輪次的技術犯規已包括按鐘違規"}）`,
      `${s} ${KIND[ev.kind]} removed, now ${ev.count} (${ev.why === "rescinded" ? "rescinded by the referee" : "the technical foul of the same turn includes the clock violation"})`);
    case "moved": return t(`${s}：${move(ev.mv, ev.side)}`, `${s}: ${move(ev.mv, ev.side)}`);
    case "restore_required": return t(`${s}須還原棋盤${ev.mv ? `（${ev.mv}）` : ""}`, `${s} must restore the board${ev.mv ? ` (${ev.mv})` : ""}`);
    case "correction_required": return t(`${s}須把棋盤修正為所報的「${words(ev.words, ev.side)}」（${ev.mv}）`,
      `${s} must correct the board to the announced "${words(ev.words, ev.side)}" (${ev.mv})`);
    case "reannounce_required": return t(`${s}須重新報棋「${words(ev.words, ev.side)}」`, `${s} must announce "${words(ev.words, ev.side)}" again`);
    case "time_alert": return t(`報時：${times(ev.times)}`, `Time alert: ${times(ev.times)}`);
    case "time_report": return t(`時間：${times(ev.times)}`, `Time: ${times(ev.times)}`);
    case "draw_offered": return t(`${s}提和${ev.card ? "（交出提和卡）" : ""}`, `${s} offers a draw${ev.card ? " (hands over the draw card)" : ""}`);
    case "draw_offer_stands": return t(`${s}的提和生效`, `${s}'s draw offer stands`);
    case "draw_declined": return t(`${s}不接受提和（${DECLINE[ev.how]}）`, `${s} does not accept the draw offer (${DECLINE[ev.how]})`);
    case "card_moved": return cardText(ev);
    case "repetition_warning": return t(`循環局面警告（${article(ev.article)}）：${warning(ev.warning)}`,
      `Repetition warning (${article(ev.article)}): ${warning(ev.warning)}`);
    case "warning_issued": {
      const what = ev.repetition ? warning(ev.repetition) : ev.text;
      return t(`裁判警告${ev.side ? s : "雙方"}：${what}`, `The referee warns ${ev.side ? s : "both sides"}: ${what}`);
    }
    case "referee_needed": return t(`請裁判：${CALL[ev.call]}${ev.side ? `。${s}` : ""}`, `Referee needed: ${CALL[ev.call]}${ev.side ? `. ${s}` : ""}`);
    case "paused": return t(`暫停：${PAUSE[ev.reason]}（續着方：${s}）`, `Paused: ${PAUSE[ev.reason]} (${s} to continue)`);
    case "sealed": return t(`繼續着法已封存：${s} ${ev.mv}`, `Sealed move recorded: ${s} ${ev.mv}`);
    case "resumed": return t("續賽", "Game resumed");
    case "game_over": return t(`對局結束 ${result(ev)}`, `Game over: ${result(ev)}`);
    case "result_verified": return t(`結果已口頭核實${ev.note ? "：" + ev.note : ""}`, `Result verified orally${ev.note ? ": " + ev.note : ""}`);
    default: return "";
  }
}

const WHY_FOR = {
  moves_first: t("不懂傳統記譜法，已先走子：請監局裁判報出該着法，該方用自己的用時複讀一次後按鐘",
    " does not know the traditional notation and has moved first: the table referee announces the move, the player reads it back once on their own time, then presses the clock"),
  referee_first: t("不懂傳統記譜法：請監局裁判先報出該着法，該方用自己的用時複讀一次後按鐘",
    " does not know the traditional notation: the table referee announces the move first, the player reads it back once on their own time, then presses the clock"),
};
const tally = (x, kind) => t(`${KIND[kind]} ${x.count}${x.limit ? "／" + x.limit : ""}`, `${KIND[kind]} ${x.count}${x.limit ? "/" + x.limit : ""}`);

/** What a deaf player's side needs: the proxy or the referee announces (7.4(2)(d)). */
function deafCall(c) {
  const who = c.proxy
    ? t("代理代為報棋並按鐘 (7.4(2)(d)(ii))", "the proxy announces the move and presses the clock (7.4(2)(d)(ii))")
    : t("監局裁判代為報棋，該方再自行按鐘 (7.4(2)(d)(i))", "the table referee announces the move, then the player presses the clock (7.4(2)(d)(i))");
  return t(`${side(c.side)}${c.signalled ? "已走子示意" : "已走子"}：請${who}；以走子為準`,
    `${side(c.side)} ${c.signalled ? "has moved and signalled" : "has moved"}: ${who}; the board move governs`);
}

/** The board move an announcement is for, when made: it governs (7.4(2)(f)(iii)). */
const madeMove = (c) => (c.mv ? t(`（棋盤：${c.mv}${c.words ? " " + words(c.words, c.side) : ""}）`,
  ` (board: ${c.mv}${c.words ? " " + words(c.words, c.side) : ""})`) : "");

/** One open call of a table, in the words a referee reads. */
export function call(c) {
  const s = side(c.side);
  const said = (w) => words(w, c.side);
  switch (c.kind) {
    case "check_correction": return t(`走子檢查 (a)：報棋「${said(c.announced)}」為合法着法，走子 ${c.played || "—"} 不同。${s}須以自己的用時把棋盤修正為 ${c.target}（${s}棋鐘仍在走）；修正後確認，或推翻檢查裁定成立的着法`,
      `Move check (a): the announcement "${said(c.announced)}" is a legal move, the board move ${c.played || "—"} differs. ${s} must correct the board to ${c.target} on their own time (${s}'s clock keeps running); confirm once corrected, or override the check and rule which move stands`);
    case "check_reannounce": return t(`走子檢查 (b)：報棋「${said(c.announced)}」非法，走子為所報子的合法着法：以走子 ${said(c.words)}（${c.stands}）為準，${s}須重新報棋後按鐘；已記${tally(c.tally, "recording")}`,
      `Move check (b): the announcement "${said(c.announced)}" is illegal, the board move is a legal move of the announced piece: the board move ${said(c.words)} (${c.stands}) stands, ${s} must announce again, then press the clock; recorded: ${tally(c.tally, "recording")}`);
    case "check_restore":
      if (c.cause === "sealed_move_broken") return t(`走子 ${c.mv} 與續着記錄不符：還原棋盤，${s}須走繼續着法；已記${tally(c.tally, "technical")}`,
        `The board move ${c.mv} differs from the sealed move: restore the board, ${s} must play the sealed move; recorded: ${tally(c.tally, "technical")}`);
      if (c.cause === "illegal_board_move") return t(`非法走子 ${c.mv}：${s}須還原棋盤，另走合法着法`,
        `Illegal board move ${c.mv}: ${s} must restore the board and play a legal move`);
      return t(`走子檢查 (c)：報棋「${said(c.announced)}」非法，走子 ${c.mv} 非所報子或同為非法：${s}須還原棋盤，可改走別子；已記${tally(c.tally, "technical")}`,
        `Move check (c): the announcement "${said(c.announced)}" is illegal, the board move ${c.mv} is not of the announced piece or is illegal too: ${s} must restore the board and may move another piece; recorded: ${tally(c.tally, "technical")}`);
    case "announce_for": return (c.why === "deaf" ? deafCall(c) : `${s}${WHY_FOR[c.why]}`) + madeMove(c);
    case "repetition_warning": return t(`循環局面達預警循環上限（第 ${c.ply} 着）：須即時警誡「${warning(c.warning)}」，否則不能按第 63 條裁決`,
      `The repetition has reached the warning limit (move ${c.ply}): warn at once "${warning(c.warning)}", otherwise no ruling under art. 63 is possible`);
    case "board_divergence": return t(`${boardName(c.board)}與對局不同（${c.points.join("、")}）：監局裁判須即時修正`,
      `${cap(boardName(c.board))} differs from the game (${c.points.join(", ")}): the table referee must correct it at once`);
    case "draw_offer": {
      const other = side(c.side === "red" ? "black" : "red");
      return t(`${s}${c.card ? "交出提和卡" : "提和"}（${c.stands ? `已生效，待${other}接受或拒絕` : "本輪結束後生效"}）`,
        `${s} ${c.card ? "handed over the draw card" : "offered a draw"} (${c.stands ? `it stands: ${other} to accept or decline` : "it takes effect when this turn ends"})`);
    }
    case "paused": return c.reason === "server_restart"
      ? t("伺服器曾重新啟動：雙方棋鐘已停，毋須封棋；核實棋盤後續賽", "The server restarted: both clocks are stopped, no move is to be sealed; check the board, then resume")
      : t(`對局暫停，續着方為${s}：${c.sealed ? "繼續着法已記錄，棋鐘已停" : `${s}須以自己的用時決定繼續着法 (103(1))`}；恢復時續賽`,
        `Game adjourned, ${s} to continue: ${c.sealed ? "the sealed move is recorded, the clocks are stopped" : `${s} must decide the sealed move on their own time (103(1))`}; the game continues on resumption`);
    case "verify_result": return t(`對局結束 ${SCORE[c.outcome]} ${OUTCOME[c.outcome]}：${endCause(c)}。結果無須簽署，須口頭核實並記錄`,
      `Game over: ${SCORE[c.outcome]} ${OUTCOME[c.outcome]}: ${endCause(c)}. The result needs no signature: verify it orally and record it`);
    default: return "";
  }
}

/** The chinese piece characters of FEN letters, for drawing a board. */
export const PIECES = {
  K: "帥", A: "仕", B: "相", E: "相", N: "傌", H: "傌", R: "俥", C: "炮", P: "兵",
  k: "將", a: "士", b: "象", e: "象", n: "馬", h: "馬", r: "車", c: "砲", p: "卒",
};

/** `紅炮` for `C`. */
export function pieceName(ch) {
  if (!ch) return t("空", "empty");
  return (ch === ch.toUpperCase() ? t("紅", "red ") : t("黑", "black ")) + PIECES[ch];
}
