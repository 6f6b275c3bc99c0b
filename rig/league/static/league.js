// The league page: polls GET /api/league and draws standings, games and table health. Read-only.
"use strict";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value; else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

function ago(seconds) {
  const s = Math.max(0, Date.now() / 1000 - seconds);
  return s < 60 ? `${Math.round(s)} s ago` : s < 3600 ? `${Math.round(s / 60)} min ago` : `${Math.round(s / 3600)} h ago`;
}

function game(g) {
  const order = [...g.players].sort((a, b) => (g.totals[b] || 0) - (g.totals[a] || 0));
  const scores = order.map((p) => el("span", { class: p === g.winner ? "winner" : "" }, `${p} ${g.totals[p] || 0}`));
  const what = g.status === "playing" ? `turn ${g.turns + 1}` : g.status === "over" ? `won by ${g.winner}` : g.status;
  return el("div", { class: "game", "data-table": g.table },
    el("div", { class: "head" }, `${g.table} · game ${g.id} · ${g.game} · ${what}`),
    el("div", { class: "scores" }, ...scores));
}

// The table's whole log against the league's copy (its digest): same, differs (and where), or not yet known.
function logCell(check) {
  const look = { same: ["✓ same", "ok"], differs: ["differs", "bad"], checking: ["checking", ""] }[check.state] || ["—", ""];
  const cell = el("td", { class: `log ${look[1]}`, title: check.text }, look[0]);
  if (check.state === "differs") cell.append(el("div", { class: "why" }, check.text));
  return cell;
}

function draw(data) {
  const link = document.getElementById("link");
  link.className = data.league.connected ? "link on" : "link";
  link.title = data.league.connected ? `connected to ${data.league.broker}` : (data.league.error || "broker away");
  const events = data.tables.reduce((n, t) => n + t.have, 0);
  document.getElementById("summary").textContent =
    `${data.tables.length} tables · ${data.playing.length} games playing · ${data.standings.length} players · ${events} events`;
  document.querySelector("#standings tbody").replaceChildren(...data.standings.map((r) =>
    el("tr", { class: r.rank === 1 ? "first" : "" }, el("td", {}, r.rank), el("td", {}, r.name), el("td", {}, r.wins),
      el("td", {}, r.points), el("td", {}, r.games), el("td", {}, r.best))));
  const none = (text) => el("div", { class: "empty" }, text);
  document.getElementById("playing").replaceChildren(...(data.playing.length ? data.playing.map(game) : [none("no game in progress")]));
  document.getElementById("finished").replaceChildren(...(data.finished.length ? data.finished.slice(0, 8).map(game) : [none("none yet")]));
  document.querySelector("#tables tbody").replaceChildren(...data.tables.map((t) => {
    const online = t.online === null ? ["?", "warn"] : t.online ? ["online", "ok"] : ["offline", "bad"];
    return el("tr", { "data-table": t.table }, el("td", {}, t.table), el("td", { class: online[1] }, online[0]),
      el("td", {}, t.have), el("td", { class: t.missing ? "warn" : "" }, t.missing + (t.rejected ? ` · ${t.rejected} refused` : "")),
      logCell(t.log), el("td", {}, ago(t.last_seen)));
  }));
  document.getElementById("rejects").replaceChildren(...data.rejects.slice(0, 3).map((r) => el("div", {}, `ignored: ${r.reason}`)));
}

async function poll() {
  try {
    const response = await fetch("/api/league", { cache: "no-store" });
    if (response.ok) draw(await response.json());
  } catch (err) {
    document.getElementById("link").className = "link";
  }
}

poll();
setInterval(poll, 1500);
