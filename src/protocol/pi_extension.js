// gate's extension for pi: every tool call is decided by gate's policy (host.yaml). Written by gate.
// `gate run -- pi` loads it with `-e` and answers over $GATE_SOCKET; `gate hook install pi` puts the
// same text in pi's extension folder, where it runs `gate hook pi` (GATE_COMMAND) for each call.
// Fail closed: an error, a missing or closed socket, a time-out or any answer but allow blocks the call.
// After an allow, the call's arguments are frozen: a later extension can no longer change what runs.
import { spawn } from "node:child_process";
import { createConnection } from "node:net";

const GATE_COMMAND = null;
const EXTENSION_VERSION = 1;
const MARK = Symbol.for("gate.pi.extension");
// pi has no time-out on the hook: this is the extension's own. `gate run` sets it above its
// prompt time-out; without one it is a day.
const TIMEOUT_MS = positive(process.env.GATE_PI_TIMEOUT_MS) ?? 24 * 3600 * 1000;
// gate answers the hello at once, whatever it is deciding; a socket that does not is not a
// gate that speaks pi's protocol.
const HANDSHAKE_MS = 10000;
const MAX_LINE = 64 * 1024 * 1024;

function positive(v) {
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

function deepFreeze(o) {
  if (o && typeof o === "object" && !Object.isFrozen(o)) {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
}

// Make `input` hold exactly `snapshot` (what gate decided) as plain data, then freeze it. A
// property that cannot be replaced (a getter that cannot be removed, say) throws: blocked.
function pin(input, snapshot) {
  for (const k of Reflect.ownKeys(input)) {
    if (!delete input[k]) throw new Error(`cannot pin the argument ${String(k)}`);
  }
  for (const [k, v] of Object.entries(snapshot)) {
    Object.defineProperty(input, k, { value: v, writable: true, enumerable: true, configurable: true });
  }
  deepFreeze(input);
}

function message(e) {
  return e instanceof Error ? e.message : String(e);
}

// One connection to the gate that started pi, JSON lines both ways, answers matched by id.
class Socket {
  constructor(path) {
    this.queues = new Map(); // id -> messages not yet taken
    this.waiters = new Map(); // id -> resolve/reject of the one waiting
    this.broken = null;
    this.buf = "";
    this.ready = new Promise((resolve) => {
      this.welcomed = resolve;
      const t = setTimeout(() => this.fail(new Error("gate did not answer on GATE_SOCKET")), HANDSHAKE_MS);
      t.unref();
      this.handshakeTimer = t;
    });
    const s = createConnection(path);
    this.sock = s;
    s.setEncoding("utf8");
    s.unref(); // an idle connection must not keep pi running
    s.on("connect", () => this.write({ type: "hello", agent: "pi", extension: EXTENSION_VERSION }));
    s.on("data", (d) => this.data(d));
    s.on("error", (e) => this.fail(e));
    s.on("close", () => this.fail(new Error("gate closed its connection")));
  }

  write(msg) {
    this.sock.write(JSON.stringify(msg) + "\n");
  }

  data(d) {
    this.buf += d;
    if (this.buf.length > MAX_LINE) return this.fail(new Error("an over-long line from gate"));
    let i;
    while ((i = this.buf.indexOf("\n")) >= 0) {
      const line = this.buf.slice(0, i);
      this.buf = this.buf.slice(i + 1);
      let m;
      try {
        m = JSON.parse(line);
      } catch {
        continue;
      }
      if (!m || typeof m !== "object") continue;
      if (m.type === "welcome") {
        clearTimeout(this.handshakeTimer);
        this.welcomed(m.agent === "pi" ? null : new Error("GATE_SOCKET is not a gate that speaks pi's protocol"));
        continue;
      }
      const key = JSON.stringify(m.id);
      const w = this.waiters.get(key);
      if (w) {
        this.waiters.delete(key);
        w.resolve(m);
      } else if (this.queues.has(key)) {
        this.queues.get(key).push(m);
      }
    }
    if (this.waiters.size === 0) this.sock.unref();
  }

  fail(e) {
    if (this.broken) return;
    this.broken = e;
    clearTimeout(this.handshakeTimer);
    this.welcomed(e);
    for (const w of this.waiters.values()) w.reject(e);
    this.waiters.clear();
    this.sock.destroy();
  }

  open(id) {
    this.queues.set(JSON.stringify(id), []);
  }

  close(id) {
    const key = JSON.stringify(id);
    this.queues.delete(key);
    this.waiters.delete(key);
    if (this.waiters.size === 0) this.sock.unref();
  }

  // The next message for `id`.
  next(id) {
    const key = JSON.stringify(id);
    const q = this.queues.get(key);
    if (q && q.length) return Promise.resolve(q.shift());
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      this.waiters.set(key, { resolve, reject });
      this.sock.ref(); // pi waits for gate: keep it alive
    });
  }
}

// Ask the person through pi's own dialog. Returns the value of the choice, or null.
async function dialog(ctx, ask, signal) {
  const choices = Array.isArray(ask.choices) ? ask.choices : [];
  const opts = {};
  if (signal) opts.signal = signal;
  if (positive(ask.timeout_ms)) opts.timeout = ask.timeout_ms;
  try {
    const picked = await ctx.ui.select(String(ask.title ?? "gate: allow this call?"), choices.map((c) => String(c.label)), opts);
    const c = choices.find((c) => c.label === picked);
    return c ? String(c.value) : null;
  } catch {
    return null;
  }
}

async function viaSocket(socket, req, ctx) {
  socket.open(req.id);
  try {
    socket.write(req);
    let m = await socket.next(req.id);
    if (m.type === "ask") {
      // gate may still answer by itself (its prompt time-out, pi going away): that closes the dialog.
      const final = socket.next(req.id);
      const stop = new AbortController();
      final.then(() => stop.abort(), () => stop.abort());
      const choice = await dialog(ctx, m, stop.signal);
      if (!stop.signal.aborted) socket.write({ type: "answer", id: req.id, choice });
      m = await final;
    }
    if (m.type !== "decision") throw new Error(`unexpected answer from gate: ${m.type}`);
    return { allow: m.approved === true, reason: m.message ?? m.reason };
  } finally {
    socket.close(req.id);
  }
}

function runHook(req, cwd) {
  return new Promise((resolve, reject) => {
    let p;
    try {
      p = spawn(GATE_COMMAND[0], GATE_COMMAND.slice(1), { cwd, stdio: ["pipe", "pipe", "pipe"] });
    } catch (e) {
      return reject(e);
    }
    let out = "";
    let err = "";
    p.stdout.setEncoding("utf8").on("data", (d) => (out += d));
    p.stderr.setEncoding("utf8").on("data", (d) => (err += d));
    p.stdin.on("error", () => {});
    p.on("error", (e) => reject(new Error(`\`gate hook pi\` cannot run: ${message(e)}`)));
    p.on("close", (code) => {
      let d;
      try {
        d = JSON.parse(out);
      } catch {
        d = null;
      }
      // A decision is taken whatever the exit status (gate prints a denial when it cannot decide).
      if (d && typeof d === "object" && typeof d.decision === "string") return resolve(d);
      const why = err.trim().split("\n")[0] || `exit status ${code}, no decision printed`;
      reject(new Error(`\`gate hook pi\` failed: ${why}`));
    });
    p.stdin.end(JSON.stringify(req));
  });
}

async function viaHook(req, ctx) {
  let d = await runHook(req, ctx.cwd);
  if (d.decision === "ask") {
    if (!req.hasUI) {
      return { allow: false, reason: `${d.reason ?? "gate: this call needs approval"}; pi has no dialog in this mode, so it is blocked` };
    }
    const choice = await dialog(ctx, d);
    d = await runHook({ ...req, type: "answer", choice }, ctx.cwd);
  }
  return { allow: d.decision === "allow", reason: d.reason };
}

export default function gate(pi) {
  // Loaded twice (gate run's -e copy and an installed one): the first decides, once.
  if (globalThis[MARK]) return;
  globalThis[MARK] = true;
  const path = process.env.GATE_SOCKET;
  let socket = null;
  if (path) {
    try {
      socket = new Socket(path);
    } catch (e) {
      socket = { ready: Promise.resolve(e) };
    }
  }
  // The person's turn is over: gate forgets a batch they stopped and starts counting repeats
  // afresh. Best effort: nothing is decided here.
  pi.on("agent_end", async () => {
    try {
      if (socket && socket.sock && !socket.broken) socket.write({ type: "turn_end" });
    } catch {
      // the connection is gone: the next call finds out and is blocked
    }
  });
  let seq = 0;
  pi.on("tool_call", async (event, ctx) => {
    const id = typeof event.toolCallId === "string" && event.toolCallId ? event.toolCallId : `gate-${++seq}`;
    let timer;
    try {
      const input = JSON.parse(JSON.stringify(event.input ?? {}));
      const req = {
        type: "tool_call",
        id,
        toolName: event.toolName,
        toolCallId: event.toolCallId,
        input,
        cwd: ctx.cwd,
        hasUI: ctx.hasUI === true,
      };
      const decide = async () => {
        const failed = socket ? await socket.ready : new Error("GATE_SOCKET is not set");
        if (!failed) return viaSocket(socket, req, ctx);
        if (GATE_COMMAND) return viaHook(req, ctx);
        throw failed;
      };
      // This timer also keeps pi's event loop alive while gate decides.
      const late = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no decision within ${Math.round(TIMEOUT_MS / 1000)} s`)), TIMEOUT_MS);
      });
      const verdict = await Promise.race([decide(), late]);
      if (!verdict.allow) return { block: true, reason: verdict.reason || "gate denied this call" };
      pin(event.input, input);
      return undefined;
    } catch (e) {
      return { block: true, reason: `gate blocked this call: ${message(e)}` };
    } finally {
      clearTimeout(timer);
      if (socket && socket.close) socket.close(id);
    }
  });
}
