// The league link on the scoreboard: shown only when the rig publishes to a league ([league] in the
// config): GET /api/rig carries {"league": {connected, waiting, error, ...}}. Separate from app.js.
"use strict";

(function () {
  let badge = null;

  function show(link) {
    document.body.dataset.league = link ? "linked" : "none";  // the first answer is in (tests wait on it)
    if (!link) { if (badge) badge.hidden = true; return; }
    if (!badge) {
      badge = document.createElement("div");
      badge.id = "league-link";
      badge.className = "league-link";
      badge.setAttribute("role", "status");
      (document.querySelector("header.bar") || document.body).append(badge);
    }
    badge.hidden = false;
    let text, kind;
    if (link.connected && !link.error) {
      kind = link.waiting ? "sending" : "ok";
      text = link.waiting ? `League: sending ${link.waiting}` : "League ✓";
    } else {
      kind = "away";
      text = link.waiting ? `League offline · ${link.waiting} waiting` : "League offline";
    }
    badge.textContent = text;
    badge.dataset.state = kind;
    badge.title = link.error || `${link.table} → ${link.broker}: ${link.acked} of ${link.logged} events acknowledged`
      + (kind === "away" ? " (the game goes on; nothing is lost)" : "");
  }

  async function poll() {
    try {
      const response = await fetch("/api/rig", { cache: "no-store" });
      if (response.ok) show((await response.json()).league);
    } catch (err) { /* the rig's own page shows that it is away */ }
  }

  poll();
  setInterval(poll, 2000);
})();
