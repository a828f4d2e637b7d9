// Game recordings on the referee monitor (建議每局對賽設錄音設備, 附表七 part 6): each seat's
// recorder status in words (never colour alone), an <audio controls> player per uploaded
// recording, and seeking from the scoresheet: the recording is aligned with the event log,
// so move N is heard at (its event-log time − the recording's offset) seconds.
//
// The recordings and the event log are the referee's: they are fetched with
// the monitor's token as `Authorization: Bearer` (the token stays in the URL's fragment, which
// no server sees), so a player gets the audio as a Blob, and a download saves that Blob.

import { el, SIDE, t, token } from "./common.js";

const statuses = new Map(); // table -> { red, black } as the server sends them
const players = new Map(); // `${table}:${n}` -> <audio>, kept across re-renders (playback goes on)
const times = new Map(); // table -> Promise of its moveTimes, until its next `moved` event
const blobs = new Map(); // `${table}:${n}` -> Promise of an object URL of the recording

/** A GET of a referee's resource with the monitor's token; rejects with the server's reason. */
async function refereeFetch(url) {
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token()}` } });
  if (!res.ok) {
    let reason = res.statusText;
    try { reason = (await res.json()).error || reason; } catch { /* not JSON */ }
    throw new Error(`${res.status} ${reason}`);
  }
  return res;
}

/** An object URL of recording `n` of the table, fetched once (a failed fetch is retried on
 * the next ask). */
function recordingUrl(table, n) {
  const key = `${table}:${n}`;
  if (!blobs.has(key)) {
    const load = refereeFetch(`/api/tables/${table}/recordings/${n}.wav`)
      .then((res) => res.blob())
      .then((blob) => URL.createObjectURL(blob));
    blobs.set(key, load);
    load.catch(() => { if (blobs.get(key) === load) blobs.delete(key); });
  }
  return blobs.get(key);
}

/** Saves recording `n` of the table under `name` (from the Blob the player holds). */
async function save(table, n, name) {
  const a = el("a", { href: await recordingUrl(table, n), download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
}

/**
 * Remembers a table's recording status (from a `state` or a `recording` message); returns
 * what the referee should hear: the seats that just turned uploaded, failed or missing.
 */
export function setRecording(table, seats) {
  if (!seats) return [];
  const before = statuses.get(table);
  statuses.set(table, seats);
  if (!before) return [];
  return ["red", "black"]
    .filter((s) => seats[s]?.state !== before[s]?.state && ["uploaded", "failed", "missing"].includes(seats[s]?.state))
    .map((s) => `${SIDE[s]}${statusText(seats[s])}`);
}

function mmss(ms) {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** One seat's status in words, in the page's language. */
function statusText(st) {
  switch (st?.state) {
    case "recording":
      return st.microphone ? t("錄音中（連咪高峰）", "recording (with microphone)") : t("錄音中（只錄播報）", "recording (speech only)");
    case "uploaded":
      return t(`已上載：${mmss(st.duration_ms)}，${(st.bytes / 1048576).toFixed(1)} MB（第 ${st.n} 段）`,
        `uploaded: ${mmss(st.duration_ms)}, ${(st.bytes / 1048576).toFixed(1)} MB (part ${st.n})`);
    case "failed":
      return `${t("上載失敗：", "upload failed: ")}${st.reason || t("原因不明", "no reason given")}`;
    case "missing":
      return t("錄音缺失：對局已結束，未收到錄音", "missing: the game is over and no recording came");
    default:
      return t("未錄音", "not recording");
  }
}

const BRIEF = {
  recording: t("錄音中", " recording"), uploaded: t("已上載", " uploaded"),
  failed: t("上載失敗", " upload failed"), missing: t("錄音缺失", " missing"),
};

/** A table's recording status in a few words, for the hall view's tile ("" when nothing is
 * recorded); a failure or a missing recording is marked ✗. */
export function recordingBrief(table) {
  const seats = statuses.get(table) || {};
  const parts = ["red", "black"].filter((s) => BRIEF[seats[s]?.state])
    .map((s) => `${t(SIDE[s][0], SIDE[s])}${BRIEF[seats[s].state]}${["failed", "missing"].includes(seats[s].state) ? " ✗" : ""}`);
  return parts.length ? `${t("錄音：", "Recording: ")}${parts.join(t("，", ", "))}` : "";
}

function uploaded(table) {
  const seats = statuses.get(table) || {};
  return ["red", "black"].filter((s) => seats[s]?.state === "uploaded").map((side) => ({ side, ...seats[side] }));
}

function player(table, tableName, rec) {
  const key = `${table}:${rec.n}`;
  let audio = players.get(key);
  if (!audio) {
    audio = el("audio", {
      controls: true, preload: "metadata",
      "aria-label": `${tableName} ${t(`${SIDE[rec.side]}錄音`, `recording of ${SIDE[rec.side]}`)}`,
      "data-offset": rec.event_log_offset_ms, "data-side": rec.side,
    });
    recordingUrl(table, rec.n).then((url) => { audio.src = url; }, (e) => {
      audio.setAttribute("aria-description", `${t("錄音無法載入：", "the recording cannot be loaded: ")}${e.message}`);
    });
    players.set(key, audio);
  }
  return audio;
}

/** The recording part of a table card: status per seat, players, download links. */
export function recordingView(table, tableName) {
  const seats = statuses.get(table);
  const list = el("ul", { class: "recording", "aria-label": t("錄音狀態", "recording status") },
    ["red", "black"].map((side) => el("li", {}, `${SIDE[side]}${t("：", ": ")}${seats ? statusText(seats[side]) : t("伺服器未提供狀態", "not reported")}`)));
  const recs = uploaded(table);
  return el("div", { class: "recording-box", "data-table": table },
    el("p", {}, el("strong", {}, t("錄音", "Recording"))), list,
    recs.map((rec) => el("p", { class: "row" }, player(table, tableName, rec), " ",
      el("button", { type: "button", class: "download", onclick: () => save(table, rec.n, `table-${table}-${rec.side}-${rec.n}.wav`) },
        t(`下載${SIDE[rec.side]}錄音`, `Download ${SIDE[rec.side]}'s recording`)))));
}

/** The event-log time of each ply of a table (the last `moved` of that ply counts), fetched
 * once and kept until the table's next move (`forgetMoveTimes`). */
function moveTimes(table) {
  if (!times.has(table)) {
    const load = (async () => {
      const log = await (await refereeFetch(`/api/tables/${table}/log.json`)).json();
      const at = new Map();
      for (const entry of log) {
        for (const [, ev] of entry.events) if (ev.type === "moved") at.set(ev.ply, entry.at);
      }
      return at;
    })();
    times.set(table, load);
    load.catch(() => { if (times.get(table) === load) times.delete(table); });
  }
  return times.get(table);
}

/** A `moved` event of the table: the move times kept for it are out of date. */
export function forgetMoveTimes(table) {
  times.delete(table);
}

/** Seeks the table's recording to move `ply`; resolves with what to tell the referee. */
async function seekToMove(table, ply) {
  const recs = uploaded(table);
  if (!recs.length) return t("這一台沒有錄音", "no recording");
  let at;
  try {
    at = (await moveTimes(table)).get(ply);
  } catch (e) {
    return `${t("無法讀取對局記錄：", "the event log cannot be read: ")}${e.message}`;
  }
  if (at === undefined) return t(`找不到第 ${ply} 着的時間`, `no time for move ${ply}`);
  // The recording that covers the moment, else the first one.
  const rec = recs.find((r) => at >= r.event_log_offset_ms && at <= r.event_log_offset_ms + r.duration_ms) || recs[0];
  const audio = players.get(`${table}:${rec.n}`);
  if (!audio) return t("錄音播放器未就緒", "the player is not ready");
  const seconds = Math.max(0, (at - rec.event_log_offset_ms) / 1000);
  audio.currentTime = seconds;
  audio.play().catch(() => {});
  return t(`${SIDE[rec.side]}錄音跳至第 ${ply} 着（${mmss(seconds * 1000)}）`, `${SIDE[rec.side]}'s recording at move ${ply} (${mmss(seconds * 1000)})`);
}

/** The scoresheet's extra column header when the table has a recording. */
export function seekHeader(table) {
  return uploaded(table).length ? [el("th", { scope: "col" }, t("錄音", "Audio"))] : [];
}

/** The scoresheet's extra cell for move `m`: a button that seeks the recording there. */
export function seekCell(table, m, say) {
  if (!uploaded(table).length) return [];
  return [el("td", {}, el("button", {
    type: "button", class: "seek", "data-ply": m.ply,
    onclick: async () => say(await seekToMove(table, m.ply)),
  }, t(`▶ 第 ${m.ply} 着`, `▶ move ${m.ply}`)))];
}
