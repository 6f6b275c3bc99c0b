// The page's language (rig/i18n: one gettext catalogue per language, shared with the command line),
// for every page of the rig (the scoreboard, the calibration page, the league): the catalogue is
// embedded by the server (<script id="rig-i18n">). rigI18n.t("{name}'s turn", { name }) and
// rigI18n.nt("{n} turn", "{n} turns", n) translate (the scoreboard's rig is this object); num and date
// format with Intl in the page's locale; the EN/DE switch (a button marked data-lang-switch).
"use strict";

// The page's language and its catalogue, embedded by the server (rig/i18n: one gettext catalogue per
// language, the same the command line uses). rig.t("{name}'s turn", { name }) and
// rig.nt("{n} turn", "{n} turns", n) translate; rig.num and rig.date format with Intl in the page's locale.
const RIG_I18N = (() => {
  const node = document.getElementById("rig-i18n");
  try { return JSON.parse(node ? node.textContent : "{}"); } catch (err) { return {}; }
})();
RIG_I18N.lang = RIG_I18N.lang || document.documentElement.lang || "en";
RIG_I18N.messages = RIG_I18N.messages || {};
const RIG_PLURALS = new Intl.PluralRules(RIG_I18N.lang);
// what the rules core says in English, matched whole by the catalogue's patterns (each game's text_patterns, rig/display/texts.py)
const RIG_PATTERNS = (RIG_I18N.patterns || []).map(([source, text]) => {
  try { return [new RegExp(`^(?:${source})$`), text]; } catch (err) { return null; }
}).filter(Boolean);
const rigFill = (text, values) => (values ? text.replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all)) : text);

const rigI18n = {
  lang: RIG_I18N.lang,
  t(id, values) {
    const text = RIG_I18N.messages[id];
    if (typeof text === "string") return rigFill(text, values);
    if (!values && typeof id === "string") {
      for (const [pattern, message] of RIG_PATTERNS) {
        const found = pattern.exec(id);
        if (!found) continue;
        const groups = {};
        for (const [key, value] of Object.entries(found.groups || {})) groups[key] = value === undefined ? "" : rigI18n.said(value);
        const said = rigFill(message, groups);
        // "Was that …?" as a notice says it: capitalised as the English was
        return id[0] && id[0] !== id[0].toLowerCase() ? said.charAt(0).toUpperCase() + said.slice(1) : said;
      }
    }
    return rigFill(id, values);
  },
  // a value inside a text said in English: a decimal number in the page's form (2.7 -> 2,7), else translated
  said(value) {
    const decimal = /^[-+]?\d+\.(\d+)$/.exec(value);
    return decimal ? rigI18n.num(Number(value), decimal[1].length) : rigI18n.t(value);
  },
  nt(one, many, n, values) {
    const forms = RIG_I18N.messages[one];
    const form = RIG_PLURALS.select(n) === "one" ? 0 : 1;
    const text = Array.isArray(forms) ? forms[Math.min(form, forms.length - 1)] : (form === 0 ? one : many);
    return rigFill(text, Object.assign({ n: rigI18n.num(n) }, values || {}));
  },
  // 272,0 in German, 272.0 in English (digits: fixed decimals)
  num(value, digits) {
    const opts = digits === undefined ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits };
    return new Intl.NumberFormat(rigI18n.lang, opts).format(value);
  },
  // 25.11.2026 / 25 Nov 2026 (time: with the hour and minute)
  date(value, time) {
    const when = value instanceof Date ? value : new Date(String(value).replace(" ", "T"));
    if (Number.isNaN(when.getTime())) return String(value);
    const opts = time ? { dateStyle: "medium", timeStyle: "short" } : { dateStyle: "medium" };
    return new Intl.DateTimeFormat(rigI18n.lang === "en" ? "en-GB" : rigI18n.lang, opts).format(when);
  },
  // the viewer's own choice (the switch): kept in localStorage, told the server by a cookie
  setLanguage(lang) {
    try { localStorage.setItem("rig-lang", lang); } catch (err) { /* private mode: the cookie still says it */ }
    document.cookie = `rig-lang=${lang}; path=/; max-age=31536000; samesite=strict`;
    location.reload();
  },
};

// A choice made on this device before (localStorage) that the server did not render (its cookie gone):
// tell it and show the page again in that language.
(() => {
  let chosen = null;
  try { chosen = localStorage.getItem("rig-lang"); } catch (err) { chosen = null; }
  const offered = RIG_I18N.languages || {};
  if (chosen && chosen !== rigI18n.lang && offered[chosen] && !document.cookie.includes(`rig-lang=${chosen}`)) {
    rigI18n.setLanguage(chosen);
  }
})();

// The language switch (a button marked data-lang-switch): the other language's name, a tap changes it.
document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("[data-lang-switch]")) {
    const codes = Object.keys(RIG_I18N.languages || { en: "English", de: "Deutsch" });
    const next = codes[(codes.indexOf(rigI18n.lang) + 1) % codes.length];
    button.textContent = next.toUpperCase();
    button.title = (RIG_I18N.languages || {})[next] || next;
    button.lang = next;
    button.addEventListener("click", () => rigI18n.setLanguage(next));
  }
});
