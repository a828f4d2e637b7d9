// The language of the pages: 繁體中文, 简体中文 or English, chosen on every
// page and remembered per device. Traditional Chinese is the pages' own text; Simplified is
// made from it character by character (app/hans.js), for everything drawn, as it is drawn;
// English comes from `t(hant, en)` in the scripts and `data-en` in the HTML. In English, any
// Chinese left (notation: 炮二平五, names, words not yet translated) is marked `lang="zh-Hant"`
// so that a screen reader reads it with a Chinese voice.

import { HANS } from "./hans.js";

/** The languages offered: code and name (each in itself). */
export const LANGS = [["zh-Hant", "繁體中文"], ["zh-Hans", "简体中文"], ["en", "English"]];
const KEY = "baoqi-lang";

/** The device's choice, else its browser's language, else Traditional Chinese. */
function chosen() {
  const saved = globalThis.localStorage?.getItem(KEY);
  if (LANGS.some(([code]) => code === saved)) return saved;
  const wanted = typeof document === "undefined" ? [] : globalThis.navigator?.languages || [];
  for (const l of wanted) {
    if (/^zh-(CN|SG|Hans)/i.test(l)) return "zh-Hans";
    if (/^zh/i.test(l)) return "zh-Hant";
    if (/^en/i.test(l)) return "en";
  }
  return "zh-Hant";
}

/** The language of this page. */
export const lang = chosen();

/** `text` in Simplified characters. */
export function hans(text) {
  let out = "";
  for (const c of text) out += HANS[c] || c;
  return out;
}

/** The text for the page's language: `hant` (Traditional, converted for Simplified) or `en`. */
export function t(hant, en) {
  if (lang === "en") return en;
  return lang === "zh-Hans" ? hans(hant) : hant;
}

const CJK = /[\u3400-\u9fff\uff01-\uff5e]/;
const CJK_RUN = /[\u3400-\u9fff\u3000-\u303f\uff01-\uff5e]+/g;

/** Rewrites one text node for the page's language: Simplified characters, or (English) its
 * Chinese runs put in `lang="zh-Hant"` spans. */
function textNode(node) {
  const text = node.data;
  if (!CJK.test(text)) return;
  if (lang === "zh-Hans") {
    const s = hans(text);
    if (s !== text) node.data = s;
    return;
  }
  const parent = node.parentElement;
  if (!parent || parent.closest("[lang='zh-Hant'], script, style, option")) return;
  // All Chinese in an element that holds nothing else, or any text of a drawing: the element
  // says so.
  if (parent instanceof SVGElement || (!text.replace(CJK_RUN, "").trim() && parent.childNodes.length === 1)) {
    parent.setAttribute("lang", "zh-Hant");
    return;
  }
  const parts = document.createDocumentFragment();
  let at = 0;
  for (const m of text.matchAll(CJK_RUN)) {
    if (m.index > at) parts.append(text.slice(at, m.index));
    const span = document.createElement("span");
    span.lang = "zh-Hant";
    span.textContent = m[0];
    parts.append(span);
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.append(text.slice(at));
  node.replaceWith(parts);
}

const ATTRS = ["aria-label", "title", "placeholder"];

/** Simplified characters in an element's labels (English labels come from `t`). */
function attributes(elem) {
  if (lang !== "zh-Hans") return;
  for (const a of ATTRS) {
    const v = elem.getAttribute?.(a);
    if (v && CJK.test(v)) {
      const s = hans(v);
      if (s !== v) elem.setAttribute(a, s);
    }
  }
}

/** Applies the language to `root` and everything under it. */
function apply(root) {
  if (root.nodeType === Node.TEXT_NODE) { textNode(root); return; }
  if (root.nodeType !== Node.ELEMENT_NODE) return;
  attributes(root);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  const texts = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.nodeType === Node.TEXT_NODE) texts.push(n);
    else attributes(n);
  }
  texts.forEach(textNode);
}

/** The static HTML in English: each `[data-en]` element's text (or `data-en-label`, its
 * aria-label) replaced. */
function english() {
  for (const e of document.querySelectorAll("[data-en]")) e.textContent = e.dataset.en;
  for (const e of document.querySelectorAll("[data-en-label]")) e.setAttribute("aria-label", e.dataset.enLabel);
  if (document.body.dataset.enTitle) document.title = document.body.dataset.enTitle;
}

/** The language menu: a choice reloads the page in that language. */
function picker() {
  const select = document.createElement("select");
  select.id = "lang";
  for (const [code, name] of LANGS) {
    const o = new Option(name, code, false, code === lang);
    o.lang = code;
    select.append(o);
  }
  select.addEventListener("change", () => {
    localStorage.setItem(KEY, select.value);
    location.reload();
  });
  const label = document.createElement("label");
  label.append(t("語言 ", "Language "), select);
  // A landmark of its own: everything on a page is in one.
  const footer = document.createElement("footer");
  footer.className = "lang-pick";
  footer.append(label);
  return footer;
}

/** Puts the page in its language: `<html lang>`, the menu, the static text,
 * and everything drawn later (watched as it is drawn). */
export function localize() {
  document.documentElement.lang = lang;
  // Last in the page, so that it is the last tab stop (a rare choice should not stand between
  // a keyboard user and the game); drawn at the top right.
  document.body.append(picker());
  if (lang === "zh-Hant") return;
  if (lang === "en") english();
  if (lang === "zh-Hans") document.title = hans(document.title);
  apply(document.body);
  new MutationObserver((changes) => {
    for (const c of changes) {
      if (c.type === "characterData") textNode(c.target);
      else if (c.type === "attributes") attributes(c.target);
      else c.addedNodes.forEach(apply);
    }
  }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ATTRS });
}
