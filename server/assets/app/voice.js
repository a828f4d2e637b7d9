// A page's voice for screen readers: two live regions (polite and assertive), a message said
// once, held while the player types or a dialog asks him something, and kept to be recalled.

import { t } from "./i18n.js";

/**
 * A live region that reads every message, even the same text twice (lichess nvui habit): the
 * region is emptied, then refilled a moment later, alternately with and without a trailing
 * no-break space, so the text always changes. Messages that come in one burst are read
 * together rather than each replacing the one before it unread.
 */
function liveRegion(node) {
  let flip = false;
  let queue = [];
  let shown = { text: "", at: 0 };
  const say = (text) => {
    if (!text) return;
    if (!queue.length) {
      node.textContent = "";
      setTimeout(() => {
        if (!queue.length) return;
        flip = !flip;
        const joined = queue.join(t("。", ". "));
        node.replaceChildren(...inLanguages(joined + (flip ? "" : "\u00a0")));
        shown = { text: joined, at: performance.now() };
        queue = [];
      }, 30);
    }
    queue.push(text);
  };
  /** Takes back what this region was given and may not have been read yet (still queued,
   * or shown less than `ms` ago): its words go with another message. The region is emptied
   * either way: what it showed earlier was read, and nothing stale stays to be read again
   * (under load a verdict came 0.6 s after the word before it, and that word stayed). */
  say.take = (ms) => {
    const recent = performance.now() - shown.at < ms && shown.text ? [shown.text] : [];
    const taken = [...recent, ...queue.splice(0)];
    node.textContent = "";
    shown = { text: "", at: 0 };
    return taken;
  };
  return say;
}

/** How long a polite message may wait for its reading before an assertive one would drop
 * it (WAI-ARIA 1.2: an assertive change may clear the queued polite speech). */
const POLITE_READ_MS = 600;

/**
 * The page's voice for screen readers: `say(text, urgent)` reads a message once, in exactly
 * one live region — the assertive one when `urgent`, else the polite one. Feeds, banners and
 * status lines are not live regions, so nothing is read twice. One voice at a time: an
 * urgent message takes with it the polite words given just before, said
 * after its own, so a screen reader that drops queued polite speech loses nothing.
 *
 * A screen reader stops speaking, and drops what it had queued, at every key the player
 * presses (Orca does so for live regions too): what comes while he types, or while a dialog
 * asks him something, is held and said together once he has paused for `quietMs` (Enter
 * ends the typing at once), so that his opponent's words are not lost while he thinks at
 * the keyboard. Everything said is kept (`say.recall`), for the keys that step back.
 */
export function announcer(polite, assertive, { quietMs = QUIET_MS } = {}) {
  const p = liveRegion(polite);
  const a = liveRegion(assertive);
  const said = [];
  const held = [];
  let typedAt = -Infinity;
  let timer = null;
  let at = null;
  const busy = () => performance.now() - typedAt < quietMs || !!document.querySelector("dialog[open]");
  const speak = (text, urgent) => (urgent ? a([text, ...p.take(POLITE_READ_MS)].join(t("。", ". "))) : p(text));
  /** Says what was held, in order, with `then` after it, when nothing keeps it back. */
  const flush = (then = null) => {
    const batch = held.splice(0);
    if (then) batch.push(then);
    if (batch.length) speak(batch.map((m) => m.text).join(t("。", ". ")), batch.some((m) => m.urgent));
  };
  const release = () => {
    timer = null;
    if (busy()) {
      timer = setTimeout(release, HOLD_POLL_MS);
      return;
    }
    flush();
  };
  document.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      // Enter ends the typing: what was held is said now, before his command's answer.
      typedAt = -Infinity;
      if (!busy()) flush();
    } else if (typingKey(e)) typedAt = performance.now();
  }, true);
  const say = (text, urgent = false) => {
    if (!text) return;
    said.push(text);
    if (said.length > HISTORY) said.shift();
    at = null;
    if (!busy()) return flush({ text, urgent });
    held.push({ text, urgent });
    if (!timer) timer = setTimeout(release, HOLD_POLL_MS);
  };
  /** The message `step` before (-1) or after (+1) the one last recalled, starting from the
   * newest, said again at once; null when there is none that way. */
  say.recall = (step) => {
    if (!said.length) return null;
    const from = at ?? said.length;
    const to = Math.min(said.length - 1, Math.max(0, from + step));
    at = to;
    const edge = step < 0 ? (to === 0 ? t("（最早）", " (earliest)") : "") : (to === said.length - 1 ? t("（最新）", " (latest)") : "");
    const text = `${said[to]}${edge}`;
    speak(text, true);
    return text;
  };
  return say;
}

/** A message as nodes: on a page in English, each run of Chinese (the notation, names) in a
 * span marked `lang="zh-Hant"`, so that a screen reader reads it with a Chinese voice, not the
 * English one; on a Chinese page, the text as it is. */
function inLanguages(text) {
  if (!document.documentElement.lang.startsWith("en")) return [text];
  return text.split(/([\u3400-\u9fff\uff01-\uff5e「」]+)/u).filter(Boolean)
    .map((part) => (/[\u3400-\u9fff]/u.test(part) ? Object.assign(document.createElement("span"), { lang: "zh-Hant", textContent: part }) : part));
}

/** How long a page waits after the player's last typed key before it speaks. */
const QUIET_MS = 1000;
/** How often held messages look for a pause to be said in. */
const HOLD_POLL_MS = 200;
/** How many messages a page keeps to be recalled. */
const HISTORY = 200;

/** Whether a key press is typing (a character, a deletion, an input method's key), which a
 * screen reader echoes and which stops its speech. */
const typingKey = (e) => !e.ctrlKey && !e.metaKey && !e.altKey
  && (e.key.length === 1 || ["Backspace", "Delete", "Process"].includes(e.key) || e.isComposing);

/** Empties the page's two live regions (the announcer's, outside any dialog): a modal
 * dialog makes them inert, and when it closes a screen reader reads what they still hold as
 * if it were new. */
export function hushLiveRegions() {
  for (const id of ["live", "live-polite"]) {
    const node = document.getElementById(id);
    if (node) node.textContent = "";
  }
}
