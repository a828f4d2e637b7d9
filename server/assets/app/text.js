// The pages' phrasebook: every typed value the server sends (events, refusals, errors, open
// calls, reasons, words, moves, articles) said in the reader's language. The server sends
// no prose; the words of the rule text in traditional characters (pieces, numerals, the
// 61 warnings, outcomes) come from protocol.js, generated from the Rust side. No DOM here:
// the pages' tests import this module in Node and format every sample the server can send.

import { WORD_TEXT, WARNING_TEXT, RULE_WORDS, ENUMS } from "./protocol.js";

export const SIDE = { red: "紅方", black: "黑方" };
export const CARD = { draw: "提和卡", resign: "認負卡" };
/** The three records of 126, in the rule's order: 技術犯規, 違反記錄規則, 違反按棋鐘規則. */
export const KIND = Object.fromEntries(ENUMS.violation_kind.map((k) => [k, RULE_WORDS.violation_kind[k]]));
export const BOARD_NAME = RULE_WORDS.board;
const PIECE = {
  general: "將帥", advisor: "仕士", elephant: "相象", horse: "馬", rook: "車", cannon: "炮", pawn: "兵卒",
};

/** A side's name: 紅方, 黑方. */
export const side = (s) => SIDE[s] || "";

/** A board's name: 視障棋盤, 正規棋盤. */
export const boardName = (b) => BOARD_NAME[b] || BOARD_NAME.regular;

/** The words of a designation (tokens) as `s` writes them: 炮二平五, 馬８進７. */
export function words(list, s = "red") {
  const table = WORD_TEXT[s] || WORD_TEXT.red;
  return (list || []).map((w) => table[w] ?? "").join("");
}

/** One word as `s` writes it. */
export const word = (w, s = "red") => words([w], s);

/** A piece of a FEN letter (`C` red cannon, `c` black cannon): 紅方炮. */
export function pieceOf(letter) {
  if (!letter) return "";
  const s = letter === letter.toUpperCase() ? "red" : "black";
  const kind = { k: "general", a: "advisor", b: "elephant", e: "elephant", n: "horse", h: "horse", r: "rook", c: "cannon", p: "pawn" }[letter.toLowerCase()];
  return `${side(s)}${word(kind, s)}`;
}

/** A kind of piece, as `s` writes it (a side's own character). */
export const kindOf = (kind, s = "red") => word(kind, s) || PIECE[kind] || kind;

/** A move on the record: its words with × ○ ＝ as earned (附表六 第二部份). */
export function move(mv, s, drawOffer = false) {
  if (!mv) return "";
  return `${words(mv.words, s)}${mv.captured ? "×" : ""}${mv.check ? "○" : ""}${drawOffer ? "＝" : ""}`;
}

/** An article as the rule text cites it: 第69(1)條, 附表七 7.1(2). */
export const article = (a) => (/^[67]\./.test(a) ? `附表七 ${a}` : `第${a}條`);

/** Several articles: 第69(1)條、附表七 7.1(2). */
export const articles = (list) => (list || []).map(article).join("、");

/** Minutes and seconds in words: 12 分 5 秒. */
export function sayTime(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(s / 60);
  return m ? `${m} 分 ${s % 60} 秒` : `${s} 秒`;
}

/** Minutes and seconds: 12:05. */
export function fmtTime(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The words of a 第61條 warning. */
export function warning(w) {
  if (!w) return "";
  const key = `${w.kind}/${w.side || w.first || ""}/${w.pattern || ""}`;
  return WARNING_TEXT[key] || "";
}

const OUTCOME = RULE_WORDS.outcome;
const SCORE = RULE_WORDS.score;

/** Why a game ended. */
export function endCause(c) {
  switch (c?.cause) {
    case "board": return RULE_WORDS.end_reason[c.reason];
    case "forbidden": return `${side(c.offender)}${RULE_WORDS.pattern[c.pattern]}犯禁`;
    case "mutual_forbidden": return "相同犯禁";
    case "cycle_draw": return "一般循環和局";
    case "official_draw": return "官和";
    case "timeout": return `${side(c.loser)}超時`;
    case "violation_limit": return `${side(c.loser)}${KIND[c.kind]}達 ${c.count} 次上限`;
    case "resigned": return `${side(c.loser)}${c.card ? "交出認負卡" : "認負"}`;
    case "draw_agreed": return c.card ? "雙方交換提和卡議和" : "雙方同意議和";
    case "adjudicated": return `裁判裁決：${c.reason}`;
    default: return "";
  }
}

/** A result: 1-0 紅方勝：黑方認負（第69(1)條）. */
export function result(r) {
  if (!r) return "";
  return `${SCORE[r.outcome]} ${OUTCOME[r.outcome]}：${endCause(r)}（${articles(r.articles)}）`;
}

const OWED = { move: "走子", announcement: "報棋", repeat: "複讀" };

/** Why a violation was recorded (`s` the side, for its words). */
export function violationReason(r, s = "red") {
  switch (r?.reason) {
    case "pressed_early": return `${(r.missing || []).map((m) => OWED[m]).join("及")}未完成便按鐘`;
    case "pressed_before_reannouncing": return "未重新報棋便按鐘";
    case "pressed_before_correcting": return "棋盤未修正至報棋便按鐘";
    case "illegal_announcement": return `報棋「${words(r.words, s)}」非法`;
    case "wrong_reannouncement": return `重新報棋「${words(r.words, s)}」與成立的着法不符`;
    case "sealed_move_not_played": return "不走封存的繼續着法";
    case "consecutive_draw_offer": return "連續提和";
    case "referee": return r.note || "裁判記錄";
    default: return "";
  }
}

const IMPOSSIBLE = {
  diagonal_across: (u) => `${pieceOf(u.piece)}斜行，不能平`,
  same_file: (u) => `${pieceOf(u.piece)}已在第 ${u.file} 路`,
  file_out_of_reach: (u) => `${pieceOf(u.piece)}不能一步由第 ${u.from} 路到第 ${u.to} 路`,
  one_step: (u) => `${pieceOf(u.piece)}每步只行一格`,
  pawn_retreat: (u) => `${pieceOf(u.piece)}不能後退`,
  off_board: (u) => `${pieceOf(u.piece)}會走出棋盤`,
};

/** Why the words of an attempt cannot be any move (the player may correct). */
export function unspeakable(u) {
  switch (u?.why) {
    case "not_a_word": return `「${u.text}」不是記譜用字`;
    case "direction_first": return "報棋由棋子、前中後或序數開始";
    case "no_such_piece": return `沒有${pieceOf(u.piece)}`;
    case "say_front_or_rear": return `${pieceOf(u.piece)}同在一路，須報前或後`;
    case "not_an_ordinal": return `${u.numeral} 不是棋子也不是序數`;
    case "order_names_none": return "所報次序不指任何同路棋子";
    case "no_same_pieces_on_a_file": return "沒有同路的棋子可分前後";
    case "not_a_piece": return "頭兩字不是一隻棋子";
    case "none_on_file": return `第 ${u.file} 路沒有${pieceOf(u.piece)}`;
    case "bad_order": return `所報次序不合該路 ${u.count} 隻${pieceOf(u.piece)}`;
    case "several": return `${u.count} 隻${pieceOf(u.piece)}都合所報，須報前後或路數`;
    case "cannot_move": return "所報棋子不能走";
    case "not_a_motion": return "後兩字不是方向和數目";
    case "not_a_direction": return "第三字須是進、退或平";
    case "unreachable": return IMPOSSIBLE[u.impossible]?.(u) || "";
    case "cannot_complete": return "不能完成為此子的着法";
    default: return "";
  }
}

/** Why a move cannot be played. */
export function illegality(i) {
  switch (i?.illegal) {
    case "blocked": return "受阻或走法不合（第5章）";
    case "self_check": return "走後己方被將或雙方將帥照面（第30條）";
    case "unresolved": return "所報不止一隻棋子可走";
    case "no_piece": return `${i.point} 沒有棋子`;
    case "not_yours": return `${i.point} 不是己方棋子`;
    default: return "";
  }
}

const ACT = {
  start_clocks: "開鐘：由不走子的一方按鐘（第95(3)條）",
  announce_as_proxy: "代為報棋：代理只為不能報棋的賽員報棋（附表七 7.4(2)(d)(ii)）",
  announce_for_deaf: "報棋：聾啞賽員示意後由裁判或代理報棋（附表七 7.4(2)(d)）",
  repeat: "複讀：由賽員複讀",
  confirm_repeat: "確認：裁判的報棋須口頭複讀（附表七 6.3(7)）",
  operate_other_board: "操作對方的棋盤（附表七 7.4(2)(g)(i)）",
  referee: "作裁判的動作",
  offer: "提和、接受或拒絕和棋、認負：只由賽員本人（第69條）",
};

const WAIT = {
  referee_first: "須由裁判先報棋，賽員複讀（附表七 6.3(7)、7.4(2)(c)）",
  correct_board: "報棋已不能反悔：先把棋盤修正至報棋（附表七 6.4(a)）",
  move_first: "須先走子，然後報棋（附表七 7.4(2)(c)-(d)）",
  own_turn: "只能在自己的輪次提和（第69(2)(b)條）",
  offer_not_valid_yet: "提和在對方輪次結束後才生效（第69(2)(b)條）",
};

/** Why the arbiter refused a command. */
export function rejection(r) {
  switch (r?.reason) {
    case "not_started": return "對局未開始";
    case "already_started": return "對局已開始";
    case "game_over": return "對局已結束";
    case "paused": return "對局暫停中";
    case "not_paused": return "對局並未暫停";
    case "not_over": return "對局未結束";
    case "not_allowed": return `不可${ACT[r.act] || ""}`;
    case "no_proxy": return "此方沒有預先指定代理";
    case "not_your_turn": return r.side ? `不是${side(r.side)}的輪次` : "不是輪到此方";
    case "bad_placement": return `「${r.text}」不是棋盤佈局`;
    case "announcement_bound": return `報棋「${words(r.words)}」已完成，不能反悔（附表七 6.3(6)(a)）`;
    case "touched_piece": return `頭兩字已摸${kindOf(r.kind)}（${r.point}），須以此子走子`;
    case "out_of_order": return WAIT[r.wait] || "";
    case "nothing_to_repeat": return "沒有要複讀的報棋";
    case "no_such_board": return "此棋盤不在此台";
    case "board_step": return r.why?.error === "no_piece" ? `${r.why.point} 沒有棋子` : "手上沒有棋子可放";
    case "no_offer": return "沒有提和要回覆";
    case "offer_pending": return "已有提和未回覆";
    case "card": return r.why?.problem === "not_used" ? "此台不用卡牌"
      : r.why?.problem === "not_in_hand" ? `${CARD[r.why.card]}不在你手上` : "對手不是以卡牌提和";
    case "no_pending_check": return "沒有待確認的走子檢查";
    case "move_stands": return "着法已成立，須重新報棋（附表七 6.4(b)）";
    case "illegal_move": return `${r.mv} 不合法：${illegality(r.why)}`;
    case "official_draw_not_agreed": return "賽前雙方未同意第67條，不能判官和（第64(2)條）";
    case "nothing_to_rescind": return `沒有${KIND[r.kind]}可撤銷`;
    case "not_announcing": return "此局不用報棋（附表七 7.4(2)(a)）";
    case "nothing_to_press": return "沒有棋盤也沒有報棋，不用按鐘";
    case "already_sealed": return "繼續着法已封存";
    case "not_a_referee_command": return "這不是裁判指令";
    default: return "";
  }
}

const ERROR = {
  malformed: "訊息格式不正確",
  version: "協定版本不符：請重新載入頁面",
  bad_command: "指令的內容不正確",
  not_authenticated: "尚未登入座位",
  already_authenticated: "已經登入",
  bad_token: "連結無效：此座位不存在",
  revoked: "此座位的連結已被撤銷",
  wrong_endpoint: "此座位不能用這一頁",
  forbidden: "此座位不能這樣做",
  unknown_table: "沒有此台",
  storage: "未能儲存，甚麼也沒有改變",
  unavailable: "此台未在運行",
  resync: "錯過的事件讀不回來：以下是目前狀態",
  rate_limited: "指令太密：甚麼也沒有改變，請稍後再試",
  too_large: "訊息太大",
  not_connected: "未送出：未連線",
  connection_lost: "連線中斷，不確定是否送達，請看重新連線後的狀態",
};

/** A server error (or one of the page's own) by its code. */
export const errorCode = (code) => ERROR[code] || "";

/** A refusal or an error as one line; "" when accepted. */
export function answer(a) {
  if (!a || a.type === "ack") return "";
  if (a.type === "rejected") return rejection(a.rejection) || "被拒";
  return errorCode(a.code) || "錯誤";
}

const CHECK = {
  agree: "報棋與走子吻合",
  a: "走子檢查 (a)：報棋合法，走子不同：以該方用時把棋盤修正至報棋",
  b: "走子檢查 (b)：報棋非法，走子為所報子的合法着法：以走子為準，重新報棋，記錄違例",
  c: "走子檢查 (c)：報棋非法，走子非所報子或同為非法：還原棋盤，可改走別子，技術犯規",
  board_governs: "裁判代報：以走子為準",
  board_only: "無須報棋：只核對走子",
  sealed_move_broken: "與封存的繼續着法不同：還原棋盤，技術犯規",
  referee_ruling: "監局裁判裁定此着成立",
  corrected: "棋盤已修正至報棋",
};

/** The words of a check outcome. */
export const checkOutcome = (o) => CHECK[o] || "";

/** What a check compared: 報「炮二進四」，棋盤走 h2e2（炮二平五）. */
export function finding(ev) {
  const parts = [];
  if (ev.announced) parts.push(`報「${words(ev.announced.words, ev.side)}」${ev.announced.illegal ? `（非法：${illegality(ev.announced.illegal)}）` : ""}`);
  if (ev.board) parts.push(`棋盤走 ${ev.board}${ev.board_words ? `（${words(ev.board_words, ev.side)}）` : ""}`);
  return parts.join("，");
}

const CALL = {
  announce_for: "須代為報棋",
  board_divergence: "棋盤與對局不同",
  correction_pending: "待確認修正棋盤",
  repetition_warning: "須即時發出循環警告（第121(2)條）",
  verify_result: "結果須口頭核實（附表七 6.8、7.9）",
  draw_offer: "提和須在裁判面前（第123(2)(a)條）",
  touched_piece: "走子非所摸之子（第32、44條）",
};

const DECLINE = { declined: "拒絕", card_returned: "交還提和卡", touched_piece: "摸子即表示拒絕（第69(2)(d)條）" };
const CARD_MOVE = { handed: "交給", returned: "交還", exchanged: "交換給" };
const STEP = (s) => (s.step === "move" ? s.mv : s.step === "lift" ? `提起 ${s.point}` : s.step === "place" ? `放下 ${s.point}` : "裁判修正");
const PAUSE = { adjournment: "裁判暫停對局（第103條）", server_restart: "伺服器重新啟動：雙方棋鐘停止，等候裁判續賽" };

/** A card movement in words. */
export const cardText = (ev) => `${side(ev.owner)}的${CARD[ev.card]}${CARD_MOVE[ev.how]}${side(ev.holder)}`;

/** Both times of a report, the first said first. */
const times = (list) => (list || []).map((t) => `${side(t.side)} ${sayTime(t.ms)}`).join("，");

/** What an event says, in one line of text (the feeds, the card UI, the monitor). */
export function describe(ev) {
  const s = side(ev.side);
  switch (ev.type) {
    case "started": return "棋鐘開始，紅方先行";
    case "turn": return `輪到${s}（第 ${ev.ply} 着）`;
    case "clock": return "";
    case "word": return `${s}報：${ev.word ? word(ev.word, ev.side) : ev.text}${ev.possible ? "" : `（不可能：${unspeakable(ev.why)}）`}`;
    case "touched": return `${s}摸子：${kindOf(ev.kind, ev.side)}（${ev.point}）`;
    case "impossible": return `${s}「${words(ev.words, ev.side)}」不可能是任何着法，可以修正：${unspeakable(ev.why)}`;
    case "announced": return `${s}報棋完成：${words(ev.words, ev.side)}${ev.illegal ? `（非法：${illegality(ev.illegal)}）` : ""}`;
    case "repeated": return `${s}複讀：${ev.word ? word(ev.word) : ev.text || "確認"}${ev.mismatch ? "（不符，重來）" : ""}${ev.done ? "（完成）" : ""}`;
    case "repeat_due": return `${s}須複讀：${words(ev.words, ev.mover)}`;
    case "signalled": return `${s}示意：請代為報棋`;
    case "board": return `${boardName(ev.board)}：${STEP(ev.step)}`;
    case "board_diverges": return `${boardName(ev.board)}與對局不同：${ev.points.join("、")}`;
    case "board_agrees": return `${boardName(ev.board)}已與對局一致`;
    case "pressed": return `${s}按鐘`;
    case "checked": return [checkOutcome(ev.outcome), finding(ev)].filter(Boolean).join("。");
    case "violation": return `${s}${KIND[ev.kind]}：${ev.count}${ev.limit ? "／" + ev.limit : ""}（${violationReason(ev, ev.side)}）${ev.counted ? "" : "，同一輪次不重複計"}`;
    case "violation_removed": return `${s}${KIND[ev.kind]}撤銷，現為 ${ev.count}（${ev.why === "rescinded" ? "裁判撤銷" : "同一輪次的技術犯規已包括按鐘違規"}）`;
    case "moved": return `${s}：${move(ev.mv, ev.side)}`;
    case "restore_required": return `${s}須還原棋盤${ev.mv ? `（${ev.mv}）` : ""}`;
    case "correction_required": return `${s}須把棋盤修正為所報的「${words(ev.words, ev.side)}」（${ev.mv}）`;
    case "reannounce_required": return `${s}須重新報棋「${words(ev.words, ev.side)}」`;
    case "time_alert": return `報時：${times(ev.times)}`;
    case "time_report": return `時間：${times(ev.times)}`;
    case "draw_offered": return `${s}提和${ev.card ? "（交出提和卡）" : ""}`;
    case "draw_offer_stands": return `${s}的提和生效`;
    case "draw_declined": return `${s}不接受提和（${DECLINE[ev.how]}）`;
    case "card_moved": return cardText(ev);
    case "repetition_warning": return `循環局面警告（${article(ev.article)}）：${warning(ev.warning)}`;
    case "warning_issued": return `裁判警告${ev.side ? s : "雙方"}：${ev.repetition ? warning(ev.repetition) : ev.text}`;
    case "referee_needed": return `請裁判：${CALL[ev.call]}${ev.side ? `（${s}）` : ""}`;
    case "paused": return `暫停（續着方：${s}）：${PAUSE[ev.reason]}`;
    case "sealed": return `繼續着法已封存：${s} ${ev.mv}`;
    case "resumed": return "續賽";
    case "game_over": return `對局結束 ${result(ev)}`;
    case "result_verified": return `結果已口頭核實${ev.note ? "：" + ev.note : ""}`;
    default: return "";
  }
}

const WHY_FOR = {
  moves_first: "不懂傳統記譜法，已先走子：請監局裁判報出該着法，該方用自己的用時複讀一次後按鐘",
  referee_first: "不懂傳統記譜法：請監局裁判先報出該着法，該方用自己的用時複讀一次後按鐘",
};
const tally = (t, kind) => `${KIND[kind]} ${t.count}${t.limit ? "／" + t.limit : ""}`;

/** What a deaf player's side needs: the proxy or the referee announces (7.4(2)(d)). */
function deafCall(c) {
  const who = c.proxy ? "代理代為報棋並按鐘 (7.4(2)(d)(ii))" : "監局裁判代為報棋，該方再自行按鐘 (7.4(2)(d)(i))";
  return `${side(c.side)}${c.signalled ? "已走子示意" : "已走子"}：請${who}；以走子為準`;
}

/** The board move an announcement is for, when made: it governs (7.4(2)(f)(iii)). */
const madeMove = (c) => (c.mv ? `（棋盤：${c.mv}${c.words ? " " + words(c.words, c.side) : ""}）` : "");

/** One open call of a table, in the words a referee reads. */
export function call(c) {
  const s = side(c.side);
  const said = (w) => words(w, c.side);
  switch (c.kind) {
    case "check_correction": return `走子檢查 (a)：報棋「${said(c.announced)}」為合法着法，走子 ${c.played || "—"} 不同。${s}須以自己的用時把棋盤修正為 ${c.target}（${s}棋鐘仍在走）；修正後確認，或推翻檢查裁定成立的着法`;
    case "check_reannounce": return `走子檢查 (b)：報棋「${said(c.announced)}」非法，走子為所報子的合法着法：以走子 ${said(c.words)}（${c.stands}）為準，${s}須重新報棋後按鐘；已記${tally(c.tally, "recording")}`;
    case "check_restore":
      if (c.cause === "sealed_move_broken") return `走子 ${c.mv} 與續着記錄不符：還原棋盤，${s}須走繼續着法；已記${tally(c.tally, "technical")}`;
      if (c.cause === "illegal_board_move") return `非法走子 ${c.mv}：${s}須還原棋盤，另走合法着法`;
      return `走子檢查 (c)：報棋「${said(c.announced)}」非法，走子 ${c.mv} 非所報子或同為非法：${s}須還原棋盤，可改走別子；已記${tally(c.tally, "technical")}`;
    case "announce_for": return (c.why === "deaf" ? deafCall(c) : `${s}${WHY_FOR[c.why]}`) + madeMove(c);
    case "repetition_warning": return `循環局面達預警循環上限（第 ${c.ply} 着）：須即時警誡「${warning(c.warning)}」，否則不能按第 63 條裁決`;
    case "board_divergence": return `${boardName(c.board)}與對局不同（${c.points.join("、")}）：監局裁判須即時修正`;
    case "draw_offer": return `${s}${c.card ? "交出提和卡" : "提和"}（${c.stands ? `已生效，待${side(c.side === "red" ? "black" : "red")}接受或拒絕` : "本輪結束後生效"}）`;
    case "paused": return c.reason === "server_restart"
      ? "伺服器曾重新啟動：雙方棋鐘已停，毋須封棋；核實棋盤後續賽"
      : `對局暫停，續着方為${s}：${c.sealed ? "繼續着法已記錄，棋鐘已停" : `${s}須以自己的用時決定繼續着法 (103(1))`}；恢復時續賽`;
    case "verify_result": return `對局結束 ${SCORE[c.outcome]} ${OUTCOME[c.outcome]}：${endCause(c)}。結果無須簽署，須口頭核實並記錄`;
    default: return "";
  }
}
