// gate's approval page: pending calls arrive over the WebSocket as `approval_needed` (with
// gate's presentation in `view`, the lines of its terminal prompt as styled pieces) and leave
// with `resolved`. Answers go back as tool_approval's `{approved, scope, mode, feedback, id}`.
// Everything is built with textContent: nothing the agent sent is ever read as HTML.
"use strict";
(function () {
  const token = new URLSearchParams(location.search).get("token") || "";
  const port = document.querySelector('meta[name="gate-ws-port"]').content;
  const calls = new Map();
  // For the benchmark and the tests: how long the page takes to apply one message.
  const stats = { updates: 0, lastMs: 0, maxMs: 0, totalMs: 0, openAt: 0, lastAt: 0 };
  window.gateStats = stats;
  let ws = null;
  let retry = 500;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function setStatus(text, up) {
    const s = document.getElementById("status");
    s.textContent = text;
    s.className = up ? "up" : "down";
  }

  function banner(text) {
    const b = document.getElementById("banner");
    b.textContent = text;
    b.hidden = !text;
  }

  function counted() {
    const n = calls.size;
    document.getElementById("count").textContent = n + " waiting";
    document.getElementById("empty").hidden = n > 0;
    document.title = n > 0 ? "(" + n + ") gate: approvals" : "gate: approvals";
  }

  function logLine(text) {
    const log = document.getElementById("log");
    log.insertBefore(el("li", "", text), log.firstChild);
    while (log.children.length > 20) log.removeChild(log.lastChild);
  }

  function send(card, answer) {
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      banner("Not connected to gate: the answer was not sent.");
      return;
    }
    answer.id = card.dataset.id;
    ws.send(JSON.stringify(answer));
    card.classList.add("sent");
    card.querySelectorAll("button").forEach((b) => (b.disabled = true));
  }

  function view(lines) {
    const v = el("div", "view");
    for (const line of lines || []) {
      const l = el("div", "line");
      for (const [style, text] of line) l.appendChild(el("span", "s-" + style, text));
      v.appendChild(l);
    }
    return v;
  }

  function addCall(m) {
    if (calls.has(m.id)) return;
    const card = el("section", "call");
    card.dataset.id = m.id;
    card.dataset.tool = m.tool;
    card.appendChild(view(m.view));
    const answers = el("div", "answers");
    const button = (cls, text, answer) => {
      const b = el("button", cls, text);
      b.type = "button";
      b.addEventListener("click", () => send(card, answer()));
      answers.appendChild(b);
      return b;
    };
    const always = m.always || [];
    button("once", "Approve once", () => ({ approved: true, scope: "once" }));
    button("session", "Approve for this session", () => ({ approved: true, scope: "session" }));
    button("always", "Approve always", () => ({ approved: true, scope: "always" }));
    const pats = el("div", "patterns");
    if (always.length) {
      pats.appendChild(document.createTextNode("session and always store: "));
      always.forEach((p, i) => {
        if (i) pats.appendChild(document.createTextNode(", "));
        pats.appendChild(el("code", "pattern", p));
      });
      pats.appendChild(document.createTextNode(" (always keeps them in .gate/approvals.yaml)"));
    } else {
      pats.textContent = "nothing can be stored for this call: session and always approve it once";
    }
    answers.appendChild(pats);
    const row = el("div", "reject-row");
    const fb = el("textarea", "feedback");
    fb.placeholder = "feedback for the agent (optional)";
    fb.maxLength = 4096;
    row.appendChild(fb);
    answers.appendChild(row);
    const feedback = () => fb.value.trim() || undefined;
    const reject = button("reject", "Reject", () => ({ approved: false, mode: "reject_soft", feedback: feedback() }));
    const stop = button("stop", "Reject and stop the batch", () => ({ approved: false, mode: "reject_hard", feedback: feedback() }));
    row.appendChild(reject);
    row.appendChild(stop);
    card.appendChild(answers);
    calls.set(m.id, card);
    document.getElementById("calls").appendChild(card);
  }

  const how = {
    page: "answered in a web page",
    terminal: "answered at the terminal",
    timeout: "nobody answered in time",
    agent_exited: "the agent exited",
  };

  function resolved(m) {
    const card = calls.get(m.id);
    if (!card) return;
    calls.delete(m.id);
    card.remove();
    const what = m.answer ? m.answer.replace("_", " ") : "withdrawn";
    logLine((card.dataset.tool || "") + " (request " + m.id + "): " + what + ", " + (how[m.by] || m.by));
  }

  function handle(m) {
    if (m.type === "approval_needed") addCall(m);
    else if (m.type === "resolved") resolved(m);
    else if (m.type === "error") {
      banner("gate: " + m.message);
      calls.forEach((card) => {
        card.classList.remove("sent");
        card.querySelectorAll("button").forEach((b) => (b.disabled = false));
      });
    }
    counted();
  }

  function connect() {
    const url = "ws://" + location.hostname + ":" + port + "/?token=" + encodeURIComponent(token);
    ws = new WebSocket(url);
    ws.onopen = () => {
      retry = 500;
      stats.openAt = performance.now();
      setStatus("connected", true);
      banner("");
      // gate replays every pending call to a new connection.
      calls.forEach((card) => card.remove());
      calls.clear();
      counted();
    };
    ws.onmessage = (ev) => {
      const t0 = performance.now();
      let m;
      try {
        m = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      handle(m);
      const dt = performance.now() - t0;
      stats.updates += 1;
      stats.lastMs = dt;
      stats.totalMs += dt;
      stats.maxMs = Math.max(stats.maxMs, dt);
      stats.lastAt = performance.now();
    };
    ws.onclose = () => {
      setStatus("not connected to gate (it may have exited); retrying", false);
      calls.forEach((card) => card.querySelectorAll("button").forEach((b) => (b.disabled = true)));
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 5000);
    };
  }

  counted();
  connect();
})();
