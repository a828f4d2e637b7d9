// The pages' words for a refused command and for the server's errors: why the arbiter
// refused (each rejection's reason, with its article), what an error code means, and a
// seat's own refusal in the keypad's words (the shared phrasebook). Moved out of text.js,
// which it draws on; no DOM here either (the tests format every sample refusal in Node).

import { t } from "./i18n.js";
import { CARD, KIND, cap, illegality, kindOf, phrase, side, words } from "./text.js";

const ACT = {
  start_clocks: t("開鐘。由不走子的一方按鐘（第95(3)條）", "start the clocks. The side that does not move presses the clock (art. 95(3))"),
  announce_as_proxy: t("代為報棋。代理只為不能報棋的賽員報棋（附表七 7.4(2)(d)(ii)）",
    "announce for a player. A proxy announces only for a player who cannot announce (Schedule 7, 7.4(2)(d)(ii))"),
  announce_for_deaf: t("報棋。聾啞賽員示意後由裁判或代理報棋（附表七 7.4(2)(d)）",
    "announce. After a deaf player signals, the referee or the proxy announces (Schedule 7, 7.4(2)(d))"),
  repeat: t("複讀。由賽員複讀", "read back. The player reads back"),
  confirm_repeat: t("確認。裁判的報棋須口頭複讀（附表七 6.3(7)）", "confirm. The referee's announcement must be read back aloud (Schedule 7, 6.3(7))"),
  operate_other_board: t("操作對方的棋盤。附表七 7.4(2)(g)(i)", "operate the opponent's board. Schedule 7, 7.4(2)(g)(i)"),
  referee: t("作裁判的動作", "act as the referee"),
  offer: t("代提和或認負。提和、接受或拒絕和棋、認負只由賽員本人（第69條）", "offer a draw or resign for the player. Only the player in person offers, accepts or declines a draw, or resigns (art. 69)"),
};

const WAIT = {
  referee_first: t("須由裁判先報棋。賽員然後複讀（附表七 6.3(7)、7.4(2)(c)）",
    "The referee announces first. Then the player reads back (Schedule 7, 6.3(7), 7.4(2)(c))"),
  correct_board: t("報棋已不能反悔。先把棋盤修正至報棋（附表七 6.4(a)）",
    "The announcement can no longer be withdrawn. First correct the board to the announcement (Schedule 7, 6.4(a))"),
  move_first: t("須先走子，然後報棋。附表七 7.4(2)(c)-(d)", "Move first, then announce. Schedule 7, 7.4(2)(c)-(d)"),
  own_turn: t("只能在自己的輪次提和。第69(2)(b)條", "A draw can be offered only in one's own turn. Art. 69(2)(b)"),
  offer_not_valid_yet: t("提和在對方輪次結束後才生效。第69(2)(b)條", "The draw offer takes effect only when the opponent's turn ends. Art. 69(2)(b)"),
};

/** Why the arbiter refused a command. */
export function rejection(r) {
  switch (r?.reason) {
    case "not_started": return phrase("refused.not_started");
    case "already_started": return t("對局已開始", "The game has already started");
    case "game_over": return t("對局已結束", "The game is over");
    case "paused": return phrase("refused.paused");
    case "not_paused": return t("對局並未暫停", "The game is not paused");
    case "not_over": return t("對局未結束", "The game is not over");
    case "not_allowed": {
      const act = ACT[r.act] || "";
      return t(`不可${act}`, act ? `Not allowed to ${act}` : "Not allowed");
    }
    case "no_proxy": return t("此方沒有預先指定代理", "No proxy was designated in advance for this side");
    case "not_your_turn": return r.side ? t(`不是${side(r.side)}的輪次`, `It is not ${side(r.side)}'s turn`) : t("不是輪到此方", "It is not this side's turn");
    case "bad_placement": return t(`「${r.text}」不是棋盤佈局`, `"${r.text}" is not a board placement`);
    case "announcement_bound": return t(`已報「${words(r.words)}」，不能反悔。附表七 6.3(6)(a)`,
      `"${words(r.words)}" is announced and cannot be withdrawn. Schedule 7, 6.3(6)(a)`);
    case "touched_piece": return t(`須走所摸之子：${kindOf(r.kind)}。頭兩字已摸${kindOf(r.kind)}（${r.point}）`,
      `The touched piece must be moved: the ${kindOf(r.kind)}. The first two words touched it (${r.point})`);
    case "out_of_order": return WAIT[r.wait] || "";
    case "nothing_to_repeat": return t("沒有要複讀的報棋", "There is no announcement to read back");
    case "no_such_board": return t("此棋盤不在此台", "This board is not at this table");
    case "board_step": return r.why?.error === "no_piece" ? t(`${r.why.point} 沒有棋子`, `No piece on ${r.why.point}`) : t("手上沒有棋子可放", "No piece in hand to place");
    case "no_offer": return t("沒有提和要回覆", "There is no draw offer to answer");
    case "offer_pending": return t("已有提和未回覆", "A draw offer is still unanswered");
    case "card": return r.why?.problem === "not_used" ? t("此台不用卡牌", "This table does not use cards")
      : r.why?.problem === "not_in_hand" ? t(`${CARD[r.why.card]}不在你手上`, `The ${CARD[r.why.card]} is not in your hand`)
        : t("對手不是以卡牌提和", "The opponent did not offer the draw by card");
    case "no_pending_check": return t("沒有待確認的走子檢查", "No move check is waiting for confirmation");
    case "move_stands": return t("着法已成立，須重新報棋。附表七 6.4(b)", "The move stands: announce it again. Schedule 7, 6.4(b)");
    case "illegal_move": return t(`${r.mv} 不合法。${illegality(r.why)}`, `${r.mv} is illegal. ${cap(illegality(r.why))}`);
    case "official_draw_not_agreed": return t("不能判官和。賽前雙方未同意第67條（第64(2)條）",
      "No official draw can be declared. The players did not agree to art. 67 before the game (art. 64(2))");
    case "nothing_to_rescind": return t(`沒有${KIND[r.kind]}可撤銷`, `No ${KIND[r.kind]} to rescind`);
    case "not_announcing": return t("此局不用報棋（附表七 7.4(2)(a)）", "This game is played without announcements (Schedule 7, 7.4(2)(a))");
    case "nothing_to_press": return t("沒有棋盤也沒有報棋，不用按鐘", "No board and no announcement: there is no clock to press");
    case "already_sealed": return t("繼續着法已封存", "The sealed move is already recorded");
    case "not_a_referee_command": return t("這不是裁判指令", "This is not a referee command");
    default: return "";
  }
}

const ERROR = {
  malformed: t("訊息格式不正確", "The message is malformed"),
  version: t("協定版本不符：請重新載入頁面", "Protocol version mismatch: please reload the page"),
  bad_command: t("指令的內容不正確", "The command's content is invalid"),
  not_authenticated: t("尚未登入座位", "Not signed in to a seat yet"),
  already_authenticated: t("已經登入", "Already signed in"),
  bad_token: t("連結無效：此座位不存在", "Invalid link: this seat does not exist"),
  revoked: t("此座位的連結已被撤銷", "This seat's link has been revoked"),
  wrong_endpoint: t("此座位不能用這一頁", "This seat cannot use this page"),
  forbidden: t("此座位不能這樣做", "This seat may not do that"),
  unknown_table: t("沒有此台", "No such table"),
  storage: t("未能儲存，甚麼也沒有改變", "Could not save: nothing has changed"),
  unavailable: phrase("conn.table_away"),
  resync: t("錯過的事件讀不回來：以下是目前狀態", "Missed events cannot be read back: this is the current state"),
  rate_limited: t("指令太密：甚麼也沒有改變，請稍後再試", "Too many commands: nothing has changed, please try again shortly"),
  too_large: t("訊息太大", "The message is too large"),
  not_connected: phrase("conn.not_sent"),
  connection_lost: t("連線中斷，不確定是否送達，請看重新連線後的狀態", "Connection lost: it is not certain the command arrived; see the state after reconnecting"),
};

/** A server error (or one of the page's own) by its code. */
export const errorCode = (code) => ERROR[code] || "";

/** A refusal or an error as one line; "" when accepted. */
export function answer(a) {
  if (!a || a.type === "ack") return "";
  if (a.type === "rejected") return rejection(a.rejection) || t("被拒", "Refused");
  return errorCode(a.code) || t("錯誤", "Error");
}

/** The answer to a command as the seat of side `me` that sent it hears it: his own
 * out-of-turn refusal in the second person and the keypad's words (「現在不是你的輪次」, not
 * his side's name); anything else as `answer` says it. */
export function answerFor(a, me) {
  const r = a?.rejection;
  if (a?.type === "rejected" && r?.reason === "not_your_turn" && r.side && r.side === me) {
    return phrase("refused.not_your_turn");
  }
  return answer(a);
}
