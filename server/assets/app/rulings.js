// The referee's rulings on the monitor: one dialog each, its fields filled from the table's
// open call where there is one, confirmed, then sent to the table, logged and said; each with
// its key (the monitor's buttons and keyboard). A call's button opens the ruling that
// settles it.

import {
  $, el, t, SIDE, KIND, answerText, boardName, hushLiveRegions, typedWords, warning, words,
} from "./common.js";

/** The shortcut of the ruling that settles each kind of open call (arbiter `CallAction`). */
export const CALL_KEYS = { confirm_check: "k", announce_for: "a", issue_warning: "w", correct_board: "b", resume: "p", verify_result: "y" };
export const CALL_LABELS = {
  confirm_check: t("確認檢查", "Confirm"), announce_for: t("代為報棋", "Announce"), issue_warning: t("發出此警告", "Issue"),
  correct_board: t("修正棋盤", "Correct"), resume: t("續賽", "Resume"), verify_result: t("核實結果", "Verify"),
};

/**
 * The rulings of a monitor `m`: `m.conn` its connection, `m.current()` the table chosen,
 * `m.snap()` its snapshot, `m.checked()` its last move check, `m.name(id)` a table's name,
 * `m.log(text)` the rulings log, `m.say(text, urgent)` the live regions, `m.showSheet()`
 * the scoresheet. Returns the actions (`{ key, label, run }`) and `runCall(call)`.
 */
export function rulings(m) {
  /** The first open call of the current table asking for `action`. */
  const openCall = (action) => (m.snap()?.calls || []).find((c) => c.action === action);

  /** The words of the move an announce-for call has on the player's board, in his characters
   * ("" before the move is made). */
  const boardWords = (c) => (c?.words ? words(c.words, c.side) : "");

  function field(label, input) {
    return el("p", {}, el("label", {}, label, " ", input));
  }
  function sideSelect(id, withNone) {
    return el("select", { id }, withNone ? el("option", { value: "" }, t("雙方", "both")) : null,
      el("option", { value: "red" }, t("紅方", "red")), el("option", { value: "black" }, t("黑方", "black")));
  }

  /** Opens the ruling dialog; `build()` returns the fields, `make()` the command or null. */
  function ruling(title, fields, make, summary) {
    const table = m.current();
    if (!table) return;
    const d = $("dlg");
    $("dlg-title").textContent = `${title} — ${m.name(table)}`;
    $("dlg-fields").replaceChildren(...fields);
    const upd = () => { $("dlg-summary").textContent = `${t("將要：", "About to: ")}${summary()}`; };
    $("dlg-fields").oninput = upd;
    upd();
    $("dlg-form").onsubmit = async (e) => {
      e.preventDefault();
      const command = make();
      const what = summary();
      d.close();
      if (!command) return;
      $("answer").textContent = `${what}${t("：傳送中…", ": sending…")}`;
      const cmds = Array.isArray(command) ? command : [command];
      let result = t("已接受", "accepted");
      for (const c of cmds) {
        const refused = answerText(await m.conn.command(c, table));
        if (refused) { result = `${t("被拒：", "refused: ")}${refused}`; break; }
      }
      const colon = t("：", ": ");
      $("answer").textContent = `${what}${colon}${result}`;
      m.log(`${m.name(table)}${colon}${what} — ${result}`);
      m.say(`${what}${colon}${result}`, result !== t("已接受", "accepted"));
    };
    $("dlg-no").onclick = () => d.close();
    hushLiveRegions();
    d.showModal();
    const first = d.querySelector("#dlg-fields input, #dlg-fields select") || $("dlg-yes");
    first.focus();
    // What the server filled in is selected: Enter confirms it, typing replaces it.
    if (first instanceof HTMLInputElement) first.select();
  }


  function issueWarning(call) {
    const side = call?.side || "";
    const due = call?.warning ? warning(call.warning) : "";
    ruling(t("發出警告", "Issue a warning"),
      [field(t("對象", "Side"), sideSelect("f-side", true)), field(t("警告字句", "Words"), el("input", { id: "f-text", size: 36, value: due }))],
      // A due 61 warning given in its own words settles it (121(2)); other words are a 口頭警告.
      () => ($("f-text").value === due && call?.warning
        ? { type: "issue_warning", side: $("f-side").value || null, repetition: call.warning }
        : { type: "issue_warning", side: $("f-side").value || null, text: $("f-text").value }),
      () => t(`警告${$("f-side").value ? SIDE[$("f-side").value] : "雙方"}「${$("f-text").value}」`,
        `warn ${$("f-side").value ? SIDE[$("f-side").value] : "both sides"}: “${$("f-text").value}”`));
    $("f-side").value = side;
    $("dlg-fields").dispatchEvent(new Event("input"));
  }

  /** 7.4(2)(g)(iv): sets a board to a placement (by default the game's, or a call's). */
  function correctBoard(board, placement) {
    const boards = m.snap()?.boards || [];
    ruling(t("修正棋盤", "Correct a board"),
      [field(t("棋盤", "Board"), el("select", { id: "f-board" }, ...(boards.length ? boards : [{ board: "regular" }, { board: "vi" }])
        .map((b) => el("option", { value: b.board }, boardName(b.board))))),
      field(t("FEN 佈局", "Placement"), el("input", { id: "f-place", size: 44, value: placement || (m.snap()?.fen || "").split(" ")[0] }))],
      () => ({ type: "correct_board", board: $("f-board").value, placement: $("f-place").value.trim() }),
      () => t(`把${boardName($("f-board").value)}修正為 ${$("f-place").value}`, `set the ${boardName($("f-board").value)} to ${$("f-place").value}`));
    if (board) { $("f-board").value = board; $("dlg-fields").dispatchEvent(new Event("input")); }
  }

  const ACTIONS = [
    { key: "s", label: t("開鐘", "Start"), run: () => ruling(t("開鐘", "Start the clocks"), [], () => ({ type: "start" }), () => t("開始棋鐘", "start the clocks")) },
    { key: "k", label: t("確認檢查", "Confirm check"), run: () => ruling(t("確認走子檢查／棋盤已修正", "Confirm the check"), [], () => ({ type: "confirm_check" }), () => t(`確認走子檢查結果${m.snap()?.pending?.correction ? "：棋盤已修正至 " + m.snap().pending.correction : ""}`,
      `confirm the check${m.snap()?.pending?.correction ? ": the board is set to " + m.snap().pending.correction : ""}`)) },
    { key: "o", label: t("推翻檢查", "Override check"), run: () => ruling(t("推翻走子檢查", "Override the check"),
      [field(t("成立的着法", "ICCS move"), el("input", { id: "f-mv", size: 6, value: m.checked()?.board || "" }))],
      () => ({ type: "override_check", mv: $("f-mv").value.trim() }), () => t(`裁定着法 ${$("f-mv").value} 成立`, `rule that ${$("f-mv").value} stands`)) },
    { key: "b", label: t("修正棋盤", "Correct board"), run: () => { const c = openCall("correct_board"); correctBoard(c?.board, c?.placement); } },
    { key: "v", label: t("記錄違例", "Record violation"), run: () => ruling(t("記錄違例", "Record a violation"),
      [field(t("方", "Side"), sideSelect("f-side")), field(t("種類", "Kind"), el("select", { id: "f-kind" }, Object.entries(KIND).map(([k, v]) => el("option", { value: k }, v)))),
        field(t("原因", "Note"), el("input", { id: "f-note", size: 30 }))],
      () => ({ type: "record_violation", side: $("f-side").value, kind: $("f-kind").value, note: $("f-note").value }),
      () => `${SIDE[$("f-side").value]}${t("", " ")}${KIND[$("f-kind").value]}${$("f-note").value ? t("：", ": ") + $("f-note").value : ""}`) },
    { key: "x", label: t("撤銷違例", "Rescind violation"), run: () => ruling(t("撤銷違例", "Rescind a violation"),
      [field(t("方", "Side"), sideSelect("f-side")), field(t("種類", "Kind"), el("select", { id: "f-kind" }, Object.entries(KIND).map(([k, v]) => el("option", { value: k }, v))))],
      () => ({ type: "rescind_violation", side: $("f-side").value, kind: $("f-kind").value }),
      () => t(`撤銷${SIDE[$("f-side").value]}一次${KIND[$("f-kind").value]}`, `rescind one ${KIND[$("f-kind").value]} of ${SIDE[$("f-side").value]}`)) },
    { key: "w", label: t("發出警告", "Issue warning"), run: () => issueWarning(openCall("issue_warning")) },
    { key: "a", label: t("代為報棋", "Announce for a player"), run: () => ruling(t("代為報棋", "Announce for the player"),
      // Filled with the words of the move on the player's board, when it is made: the board
      // move governs (7.4(2)(f)(iii)); the referee checks and confirms, or corrects.
      [field(t("四字（例：炮 8 平 5）", "Words (e.g. 炮 8 平 5)"), el("input", { id: "f-words", size: 16, value: boardWords(openCall("announce_for")) }))],
      () => typedWords($("f-words").value).map((text) => ({ type: "word", text })),
      () => t(`代${SIDE[m.snap()?.to_move] || ""}報「${$("f-words").value}」`, `announce for ${SIDE[m.snap()?.to_move] || ""}: “${$("f-words").value}”`)) },
    { key: "j", label: t("判決", "Adjudicate"), run: () => ruling(t("判決", "Adjudicate"),
      [field(t("結果", "Result"), el("select", { id: "f-res" }, el("option", { value: "red" }, t("紅方勝", "red wins")), el("option", { value: "black" }, t("黑方勝", "black wins")),
        el("option", { value: "draw" }, t("和局", "draw")), el("option", { value: "both" }, t("雙負", "both lose")), el("option", { value: "official" }, t("官和（第67條）", "official draw (67)")))),
      field(t("原因", "Reason"), el("input", { id: "f-reason", size: 30 })), field(t("條文", "Article"), el("input", { id: "f-art", size: 8, value: "70(1)" }))],
      () => ($("f-res").value === "official" ? { type: "adjudicate", ruling: "official_draw" } : {
        type: "adjudicate", ruling: "result", winner: ["red", "black"].includes($("f-res").value) ? $("f-res").value : null,
        both_lose: $("f-res").value === "both", reason: $("f-reason").value, article: $("f-art").value,
      }), () => t(`判${$("f-res").selectedOptions[0]?.textContent}：${$("f-reason").value}（${$("f-art").value}）`,
        `rule ${$("f-res").selectedOptions[0]?.textContent}: ${$("f-reason").value} (${$("f-art").value})`)) },
    { key: "y", label: t("核實結果", "Verify result"), run: () => ruling(t("口頭核實結果", "Record the oral verification"),
      [field(t("雙方所說", "What was said"), el("input", { id: "f-note", size: 30 }))],
      () => ({ type: "verify_result", note: $("f-note").value }), () => t(`記錄口頭核實「${$("f-note").value}」`, `record the oral verification “${$("f-note").value}”`)) },
    { key: "p", label: t("暫停／續賽", "Pause/resume"), run: () => {
      const paused = m.snap()?.phase === "paused";
      ruling(paused ? t("續賽", "Resume") : t("暫停", "Pause"), [], () => ({ type: paused ? "resume" : "pause" }), () => (paused ? t("續賽", "resume") : t("暫停對局", "pause the game")));
    } },
    { key: "r", label: t("記錄表", "Scoresheet"), run: () => m.showSheet() },
  ];

  /** Opens the ruling of a call, its fields filled from the call. */
  function runCall(c) {
    if (c.action === "issue_warning") issueWarning(c);
    else if (c.action === "correct_board") correctBoard(c.board, c.placement);
    else ACTIONS.find((a) => a.key === CALL_KEYS[c.action])?.run();
  }

  return { actions: ACTIONS, runCall };
}
