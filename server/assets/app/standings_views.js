// What the standings page draws from /api/events/N/standings.json: the
// pairings of a round, the standings and the crosstable, each as a real table (caption,
// column headers, the player's name as the row header) or as a text view, a list a screen
// reader reads line by line ("第一台：王小明（紅）勝 李大華"). Results show the points the
// event's rules give them (黃氏計分法: 不戰而勝 12, 缺席 0).

import { BOARD_RESULT, el, t } from "./common.js";

/** A result as shown ("1-0") and as read ("紅勝"). */
const RESULTS = BOARD_RESULT;

/** A player's result in the crosstable: the short mark and the word read. */
const MARKS = {
  win: [t("勝", "W"), t("勝", "won")],
  forfeit_win: [t("不戰勝", "W+"), t("不戰而勝", "won without play")],
  draw: [t("和", "D"), t("和", "drew")],
  forced_draw: [t("強制和", "FD"), t("強制和", "forced draw")],
  loss: [t("負", "L"), t("負", "lost")],
  absent: [t("缺席", "A"), t("缺席", "absent")],
  bye: [t("輪空", "bye"), t("輪空", "bye")],
  half_bye: [t("半分", "½"), t("半分輪空（遲到賽員）", "half-point bye (late entrant)")],
};

const COLOUR = { red: t("紅", "red"), black: t("黑", "black") };
const COLOUR_MARK = { red: t("紅", "R"), black: t("黑", "B") };

/** A label of the JSON ({zh, en}) in the page's language. */
const label = (l) => t(l.zh, l.en);

const DIGITS = "〇一二三四五六七八九";

/** A number as Chinese counts it (一 to 九十九), digits beyond. */
export function zhNumber(n) {
  if (n < 10) return DIGITS[n];
  if (n >= 100) return String(n);
  const tens = Math.floor(n / 10);
  return `${tens > 1 ? DIGITS[tens] : ""}十${n % 10 ? DIGITS[n % 10] : ""}`;
}

const boardName = (n) => t(`第${zhNumber(n)}台`, `Board ${n}`);
const roundName = (n) => t(`第${n}輪`, `Round ${n}`);

/** A withdrawn player's mark (89(2): his results stand, he is paired no more). */
const WITHDRAWN = () => t("（已退出，第89(2)條）", " (withdrew, 89(2))");

function player(p) {
  const club = p.club ? el("span", { class: "club" }, ` (${p.club})`) : null;
  return [el("bdi", {}, p.name), club];
}

/** Visible `shown`, read as `read`. */
const said = (shown, read) => [el("span", { "aria-hidden": "true" }, shown), el("span", { class: "visually-hidden" }, read)];

const head = (cells) => el("thead", {}, el("tr", {}, ...cells.map((h) => el("th", { scope: "col" }, h))));

function table(cls, caption, headings, rows) {
  return el("table", { class: `standings ${cls}` }, el("caption", {}, caption), head(headings), el("tbody", {}, ...rows));
}

const notVerified = () => t("（未核實）", " (not yet verified)");

function result(b) {
  if (!b.black) return t("輪空", "bye");
  const r = RESULTS[b.result];
  if (!r) return b.started ? t("對局中", "in play") : t("未開始", "not started");
  return [...said(r[0], r[1]), b.verified ? "" : notVerified()];
}

function points(b) {
  if (!b.red_points) return "";
  if (!b.black) return b.red_points;
  return said(`${b.red_points} : ${b.black_points}`,
    t(`紅方${b.red_points}分，黑方${b.black_points}分`, `red ${b.red_points}, black ${b.black_points}`));
}

/** The pairings of one round as a table; `current` marks the round being played. */
export function pairingsTable(round, current) {
  const caption = current
    ? t(`第${round.round}輪配對（本輪）`, `Pairings, round ${round.round} (current)`)
    : t(`第${round.round}輪配對`, `Pairings, round ${round.round}`);
  const rows = round.boards.map((b) => el("tr", {},
    // A bye is played at no board.
    el("td", { class: "num" }, b.black ? String(b.board) : "—"),
    el("th", { scope: "row" }, ...player(b.red)),
    el("td", {}, result(b)),
    el("td", {}, ...(b.black ? player(b.black) : ["—"])),
    el("td", { class: "num" }, points(b)),
  ));
  return table("pairings", caption,
    [t("台", "Board"), t("紅方", "Red"), t("結果", "Result"), t("黑方", "Black"), t("得分", "Points")], rows);
}

/** Names in the order a Chinese list is read by: the strokes of the surname first (Hong Kong
 * and Taiwan's order; Traditional Chinese's default collation). */
const byStrokes = new Intl.Collator(["zh-Hant-u-co-stroke", "zh-Hant"]);

/** "Find your board": every player of `round`, by the strokes of his name, with his board,
 * his colour and his opponent (a bye: 輪空). */
export function findTable(round) {
  const seats = round.boards.flatMap((b) => (b.black
    ? [{ p: b.red, board: b.board, colour: t("紅", "red"), other: b.black }, { p: b.black, board: b.board, colour: t("黑", "black"), other: b.red }]
    : [{ p: b.red, board: null }]));
  seats.sort((x, y) => byStrokes.compare(x.p.name, y.p.name) || x.p.id - y.p.id);
  const rows = seats.map((s) => el("tr", {},
    el("th", { scope: "row" }, ...player(s.p)),
    el("td", { class: "num" }, s.board === null ? t("輪空", "bye") : String(s.board)),
    el("td", {}, s.colour ?? "—"),
    el("td", {}, ...(s.other ? player(s.other) : ["—"]))));
  return table("find", t(`第${round.round}輪：找座位（按姓名筆畫）`, `Round ${round.round}: find your board (by name)`),
    [t("姓名", "Name"), t("台", "Board"), t("執", "Colour"), t("對手", "Opponent")], rows);
}

/** The table cards of `round`: one for each board played (a bye has none), its number large,
 * the round, and who plays red and black. */
export function tableCards(round) {
  return round.boards.filter((b) => b.black).map((b) => el("article", { class: "board-card", "aria-label": t(`第${b.board}台`, `Board ${b.board}`) },
    el("p", { class: "card-board" }, t(`第${b.board}台`, `Board ${b.board}`)),
    el("p", { class: "card-round" }, t(`第${round.round}輪`, `Round ${round.round}`)),
    el("p", { class: "card-side" }, t("紅方　", "Red: "), ...player(b.red)),
    el("p", { class: "card-side" }, t("黑方　", "Black: "), ...player(b.black))));
}

/** How many rounds (回合) a printed scoresheet has room for on its page. */
const SHEET_ROUNDS = 40;

/** The scoresheets of `round` for event `name` (84(2), 附表四 第三部份): for each board played,
 * what can be printed before the game (the event, round, board, players, page), the rest
 * with room to write (date, venue, each 回合's moves and clock times, the end, signatures). */
export function scoresheets(round, name) {
  const blank = (label) => el("p", {}, `${label}${t("：", ": ")}`, el("span", { class: "fill" }, ""));
  return round.boards.filter((b) => b.black).map((b) => el("article", { class: "score-sheet", "aria-label": t(`第${b.board}台着法記錄表`, `Scoresheet, board ${b.board}`) },
    el("h3", {}, t(`${name}\u3000着法記錄表`, `${name}: scoresheet`)),
    el("p", {}, t(`對賽輪數：第${round.round}輪\u3000對賽枱號：第${b.board}台\u3000頁數：第 1 頁`, `Round ${round.round}   Board ${b.board}   Page 1`)),
    el("p", {}, t("紅方：", "Red: "), ...player(b.red), t("　黑方：", "   Black: "), ...player(b.black)),
    blank(t("對賽日期", "Date")), blank(t("比賽地點", "Venue")),
    el("table", { class: "sheet-moves" },
      el("thead", {}, el("tr", {}, ...[t("回合", "No."), t("紅方着法", "Red"), t("鐘面時間", "Clock"), t("黑方着法", "Black"), t("鐘面時間", "Clock")]
        .map((h) => el("th", { scope: "col" }, h)))),
      el("tbody", {}, ...Array.from({ length: SHEET_ROUNDS }, (_, i) => el("tr", {},
        el("th", { scope: "row" }, String(i + 1)), el("td", {}, ""), el("td", {}, ""), el("td", {}, ""), el("td", {}, ""))))),
    blank(t("終局原因", "How the game ended")),
    blank(t("紅方簽署", "Red's signature")), blank(t("黑方簽署", "Black's signature")),
    blank(t("終局裁判姓名", "Referee")), blank(t("終局裁判簽署", "Referee's signature"))));
}

/** One board as a sentence: "第一台：王小明（紅）勝 李大華（13：2）". */
export function boardLine(b) {
  const red = b.red.name;
  const black = b.black?.name;
  const pts = b.red_points && b.black ? t(`（${b.red_points}：${b.black_points}）`, ` (${b.red_points}–${b.black_points})`) : "";
  const what = {
    red_wins: t(`${red}（紅）勝 ${black}`, `${red} (red) beat ${black}`),
    black_wins: t(`${red}（紅）負 ${black}`, `${red} (red) lost to ${black}`),
    draw: t(`${red}（紅）和 ${black}`, `${red} (red) drew with ${black}`),
    forced_draw: t(`${red}（紅）強制和 ${black}`, `${red} (red) forced draw with ${black}`),
    both_lose: t(`${red}（紅）與 ${black} 雙負`, `${red} (red) and ${black} both lose`),
    red_absent: t(`${red}（紅）缺席，${black} 不戰而勝`, `${red} (red) absent, ${black} wins without play`),
    black_absent: t(`${red}（紅）不戰而勝，${black} 缺席`, `${red} (red) wins without play, ${black} absent`),
    both_absent: t(`${red}（紅）與 ${black} 雙方缺席`, `${red} (red) and ${black} both absent`),
  }[b.result];
  let text;
  // A bye is played at no board: it is said without one.
  if (!b.black) return t(`${red} 輪空（${b.red_points}分）`, `${red} has a bye (${b.red_points})`);
  if (!what && b.started) text = t(`${red}（紅）對 ${black}，對局中`, `${red} (red) v ${black}, in play`);
  else if (!what) text = t(`${red}（紅）對 ${black}，未開始`, `${red} (red) v ${black}, not started`);
  else text = what + pts + (b.verified ? "" : notVerified());
  return `${boardName(b.board)}${t("：", ": ")}${text}`;
}

/** The pairings of one round as a list of sentences. */
export function pairingsText(round, current) {
  const title = current ? t(`第${round.round}輪配對（本輪）`, `Pairings, round ${round.round} (current)`)
    : t(`第${round.round}輪配對`, `Pairings, round ${round.round}`);
  return [el("h3", {}, title), el("ul", { class: "text-view" }, ...round.boards.map((b) => el("li", {}, boardLine(b))))];
}

function standingsCaption(s) {
  const round = s.rounds_complete;
  return round
    ? t(`名次（第${round}輪後）`, `Standings after round ${round}`)
    : t("名次（未有完成的輪次）", "Standings (no round complete yet)");
}

const place = (l) => (l.shared ? `${l.place}=` : String(l.place));

/** Tie-break `i` of line `l` as written, "" where it does not apply (`every_tiebreak`'s
 * null). */
const tiebreakAt = (l, i) => l.every_tiebreak[i] ?? "";

/** The standings as a table. */
export function standingsTable(s) {
  const rows = s.lines.map((l) => el("tr", {},
    el("td", { class: "num" }, place(l)),
    el("td", { class: "num" }, String(l.player.id)),
    el("th", { scope: "row" }, ...player(l.player), l.withdrawn ? el("span", { class: "club" }, WITHDRAWN()) : ""),
    el("td", { class: "num" }, l.score),
    // Every tie-break's value, as the CSV has them: blank only where one does not apply
    // (head-to-head among players who have not all met, a club for a player without one).
    ...s.tiebreaks.map((_, i) => el("td", { class: "num" }, tiebreakAt(l, i))),
  ));
  return table("ranking", standingsCaption(s),
    [t("名次", "Place"), t("編號", "No."), t("姓名", "Name"), t("積分", "Score"), ...s.tiebreaks.map(label)], rows);
}

/** The standings as a list: "第1名：王小明（視障協會），積分 26，對手分 52". */
export function standingsText(s) {
  const items = s.lines.map((l) => {
    const club = l.player.club ? t(`（${l.player.club}）`, ` (${l.player.club})`) : "";
    // The tie-breaks the player's place needed (a list heard is kept short), each only
    // where it applies.
    const breaks = s.tiebreaks.map((tb, i) => (i < l.tiebreaks.length && tiebreakAt(l, i) ? `${t("，", ", ")}${label(tb)} ${tiebreakAt(l, i)}` : ""));
    const shared = l.shared ? t("（並列）", " (shared)") : "";
    return el("li", {}, t(`第${l.place}名${shared}：`, `Place ${l.place}${shared}: `) + l.player.name + club
      + (l.withdrawn ? WITHDRAWN() : "") + t(`，積分 ${l.score}`, `, score ${l.score}`) + breaks.join(""));
  });
  return [el("h3", {}, standingsCaption(s)), el("ul", { class: "text-view" }, ...items)];
}

/** Each crosstable row with its player's line of the standings and its number (1 first). */
function crossRows(s) {
  const lines = new Map(s.lines.map((l) => [l.player.id, l]));
  return s.crosstable.map((r, i) => ({ ...r, no: i + 1, line: lines.get(r.player) }));
}

/** What a cell says in full: "第1輪：執紅對 李大華（3），勝，13分". */
function cellWords(c, who) {
  const mark = MARKS[c.result]?.[1] ?? t("未有結果", "no result yet");
  const pts = c.points ? t(`，${c.points}分`, `, ${c.points} points`) : "";
  if (!c.opponent) return mark + pts;
  const opp = who.get(c.opponent);
  return t(`執${COLOUR[c.colour]}對 ${opp.line.player.name}（${opp.no}），${mark}${pts}`,
    `${COLOUR[c.colour]} against ${opp.line.player.name} (${opp.no}), ${mark}${pts}`);
}

/** A cell drawn short: the opponent's number (by rounds, not in the grid, whose column
 * says it), the colour and the result ("3紅勝"), then the points. */
function cellShort(c, who, grid) {
  const mark = MARKS[c.result]?.[0] ?? "…";
  if (!c.opponent) return mark;
  return `${grid ? "" : who.get(c.opponent).no}${COLOUR_MARK[c.colour]}${mark}`;
}

function crossCell(cells, who, grid) {
  if (!cells.length) return el("td", {}, said("—", t("未有對局", "not paired")));
  const shown = cells.map((c) => [cellShort(c, who, grid), c.points ? el("span", { class: "pts" }, c.points) : null]);
  const read = cells.map((c) => (c.opponent && !grid ? "" : roundName(c.round) + t("：", ": ")) + cellWords(c, who)).join(t("；", "; "));
  return el("td", { class: "cross" }, el("span", { "aria-hidden": "true" }, ...shown.flatMap((s, i) => (i ? [" / ", ...s] : s))),
    el("span", { class: "visually-hidden" }, read));
}

const isRoundRobin = (s) => s.system === "round_robin" || s.system === "double_round_robin";

/** The crosstable as a table: a Swiss by rounds, a round robin as the full grid. */
export function crossTable(s) {
  const rows = crossRows(s);
  const who = new Map(rows.map((r) => [r.player, r]));
  const grid = isRoundRobin(s);
  const columns = grid
    ? rows.map((r) => [String(r.no), el("span", { class: "visually-hidden" }, ` ${r.line.player.name}`)])
    : s.rounds.map((r) => roundName(r.round));
  const body = rows.map((r) => el("tr", {},
    el("td", { class: "num" }, String(r.no)),
    el("th", { scope: "row" }, ...player(r.line.player)),
    ...(grid
      ? rows.map((o) => (o.player === r.player
        ? el("td", { class: "self" }, said("×", t("自己", "self")))
        : crossCell(r.cells.filter((c) => c.opponent === o.player), who, true)))
      : s.rounds.map((round) => crossCell(r.cells.filter((c) => c.round === round.round), who, false))),
    el("td", { class: "num" }, r.line.score),
  ));
  const caption = grid ? t("交叉表（各棋手對各棋手）", "Crosstable (each player against each)")
    : t("交叉表（逐輪：對手序號、執子、結果、得分）", "Crosstable (by round: opponent's number, colour, result, points)");
  return [table("crosstable", caption, [t("序", "No."), t("姓名", "Name"), ...columns, t("積分", "Score")], body),
    el("p", { class: "legend", "aria-hidden": "true" }, legend(grid))];
}

/** What the short cells mean (a screen reader reads each cell in full instead). */
function legend(grid) {
  const cells = grid ? t("格內：執子、結果，下為得分；", "In a cell: colour, result, points below; ")
    : t("格內：對手序號、執子、結果，下為得分；", "In a cell: opponent's number, colour, result, points below; ");
  const marks = Object.values(MARKS).map(([short, word]) => (short === word ? short : t(`${short}（${word}）`, `${short} ${word}`))).join(t("、", ", "));
  return cells + t("紅、黑：執子；", "R red, B black; ") + marks + t("；… 對局中。", "; … in play.");
}

/** The crosstable as a list: each player, then each of his rounds on its own line. */
export function crossText(s) {
  const rows = crossRows(s);
  const who = new Map(rows.map((r) => [r.player, r]));
  const items = rows.map((r) => el("li", {},
    t(`${r.no}. ${r.line.player.name}，積分 ${r.line.score}`, `${r.no}. ${r.line.player.name}, score ${r.line.score}`),
    el("ul", {}, ...r.cells.map((c) => el("li", {}, roundName(c.round) + t("：", ": ") + cellWords(c, who)))),
  ));
  return [el("h3", {}, t("交叉表", "Crosstable")), el("ul", { class: "text-view" }, ...items)];
}

/** The categories of 7.2(1) in the order the prizes are listed, as the JSON names them. */
const CATEGORIES = [
  ["blind", "全失明", "Fully blind"],
  ["partially_sighted", "部份失明", "Partially sighted"],
  ["deaf", "聾啞", "Deaf"],
  ["physical", "肢體傷殘", "Physically disabled"],
  ["sighted", "健視", "Sighted"],
];

/** How many of each category the prize view lists. */
const PRIZE_PLACES = 3;

/** A player's categories; none is 健視. */
const categoriesOf = (l) => (l.categories?.length ? l.categories : ["sighted"]);

/** One player of a category's list: "第2名 陳大文（盲人會），積分 3，等級分 1850". */
function prizeLine(l) {
  const club = l.player.club ? t(`（${l.player.club}）`, ` (${l.player.club})`) : "";
  const rating = l.rating ? t(`，等級分 ${l.rating}`, `, rating ${l.rating}`) : "";
  const withdrawn = l.withdrawn ? t("（已退出）", " (withdrawn)") : "";
  return el("li", {}, t(`第${l.place}名 `, `Place ${l.place}: `) + l.player.name + club
    + t(`，積分 ${l.score}`, `, score ${l.score}`) + rating + withdrawn);
}

/**
 * The category prizes (組別獎): for each category present in the
 * standings, its best-placed players in the standings' order (a player of several
 * categories is in each list). Lists, so that a screen reader reads them as they are shown.
 */
export function categoryPrizes(s) {
  const lists = CATEGORIES.map(([key, zh, en]) => {
    const best = s.lines.filter((l) => categoriesOf(l).includes(key)).slice(0, PRIZE_PLACES);
    if (!best.length) return [];
    return [el("h3", {}, t(zh, en)), el("ol", { class: "text-view" }, ...best.map(prizeLine))];
  }).flat();
  return lists.length ? lists : [el("p", {}, t("未有名次", "No standings yet"))];
}

/** One prize of a list: 「第1獎 #3 陳大文（盲人會），名次 2」. */
function prizeItem(p) {
  const club = p.player.club ? t(`（${p.player.club}）`, ` (${p.player.club})`) : "";
  return el("li", {}, t(`第${p.prize}獎 #${p.player.id} ${p.player.name}${club}，名次 ${p.place}`,
    `Prize ${p.prize}: #${p.player.id} ${p.player.name}${club}, place ${p.place}`));
}

/**
 * The event's prize lists (獎項), in the order the organiser set them: each prize with its
 * winner and his place, one prize per player; a prize nobody else may take is 從缺. Said
 * final once every round is; before, the winners if the event ended now.
 */
export function prizeLists(s) {
  const over = s.rounds_total && s.rounds_complete >= s.rounds_total;
  const when = over
    ? t(`最終結果（第${s.rounds_complete}輪後）`, `Final, after round ${s.rounds_complete}`)
    : t("比賽未完：以下為如現在結束的得獎者", "Not final: the winners if the event ended now");
  const lists = s.prizes.map((list) => {
    const vacant = Array.from({ length: list.places - list.prizes.length }, (_, i) =>
      el("li", {}, t(`第${list.prizes.length + i + 1}獎 從缺（再無合資格賽員）`, `Prize ${list.prizes.length + i + 1}: not awarded (no one else may take it)`)));
    return [el("h3", {}, t(`${list.name}（${list.places}名）`, `${list.name} (${list.places})`)),
      el("ul", { class: "text-view prize-list" }, ...list.prizes.map(prizeItem), ...vacant)];
  });
  return [el("p", { class: "prizes-when" }, when), ...lists.flat()];
}
