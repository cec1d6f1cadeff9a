// The server under test for the benchmarks: the built server (dist/) as a child process
// with a fresh DATA_DIR, organizations and keys created through its admin API, and the RSS of
// its process tree read from /proc.
/* global fetch, FormData, Blob, AbortSignal */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'node:timers';
import { startServerProcess } from '../../test/support/server-process.mjs';

export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Latencies in ms as one line: p50, p95, max and how many. */
export function latencySummary(values) {
  const r = (v) => Math.round(v);
  return `p50 ${r(percentile(values, 50))} p95 ${r(percentile(values, 95))} max ${r(Math.max(...values))} ms (n=${values.length})`;
}

/**
 * One call to the server at `base` as `key`: a FormData body goes as is, any other as JSON.
 * Gives the status, the body parsed (null when not JSON), its length and the time taken; a
 * request that fails or passes `timeoutMs` gives the status `error:<name>` instead.
 */
export async function apiCall(base, key, method, pathName, body, timeoutMs) {
  const started = performance.now();
  try {
    const res = await fetch(`${base}${pathName}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
      },
      body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let json = null;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, json, bytes: text.length, ms: performance.now() - started };
  } catch (error) {
    return { status: `error:${error.name}`, json: null, bytes: 0, ms: performance.now() - started };
  }
}

/** A multipart upload body holding `bytes` as the file `name`. */
export function fileForm(bytes, name) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  return form;
}

/** Files served to `input` URLs: `files` maps a path to `{ bytes, type }`. */
export function fileServer(files) {
  const server = http.createServer((req, res) => {
    const file = files.get(req.url);
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.bytes.length });
    res.end(file.bytes);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, base: `http://127.0.0.1:${server.address().port}` }),
    ),
  );
}

export /** RSS (KB) of a process and all its descendants, from /proc. */
function treeRssKb(pid) {
  const children = new Map();
  const rss = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = fs.readFileSync(`/proc/${entry}/status`, 'utf8');
      const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1]);
      rss.set(Number(entry), Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0));
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop();
    total += rss.get(p) ?? 0;
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}

/**
 * `extraEnv` adds to (or overrides) the server's environment; `options.dataDir` starts it on
 * an existing DATA_DIR (a restart), which `stop({ keepData: true })` leaves in place;
 * `options.entry` starts another build (an absolute `.../dist/src/main.js`) for A/B runs.
 */
export async function startServer(extraEnv, options = {}) {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-bench-'));
  const server = await startServerProcess(options.entry ?? 'dist/src/main.js', dataDir, {
    FETCH_ALLOW_HOSTS: '127.0.0.1',
    LOG_LEVEL: 'error',
    ...extraEnv,
  });
  await server.healthy(60_000);
  const { child, baseUrl: base } = server;
  const admin = JSON.parse(fs.readFileSync(path.join(dataDir, 'admin.json'), 'utf8'));
  const command = async (name, body) => {
    const res = await fetch(`${base}/admin/v1/commands/${name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return res.json();
  };
  /** A new organization's processing key. */
  const newOrgKey = async (name) => {
    const org = await command('org.create', { name });
    const created = await command('processing-key.create', { orgId: org.orgId, name });
    return created.key ?? created.token ?? created.secret ?? created.apiKey;
  };
  const key = await newOrgKey('bench');
  let peakKb = 0;
  const sampler = setInterval(() => {
    if (child.exitCode === null) peakKb = Math.max(peakKb, treeRssKb(child.pid));
  }, 100);
  return {
    base,
    key,
    newOrgKey,
    dataDir,
    stderr: server.stderr,
    child,
    rssKb: () => treeRssKb(child.pid),
    peakKb: () => peakKb,
    resetPeak: () => (peakKb = treeRssKb(child.pid)),
    alive: () => child.exitCode === null && child.signalCode === null,
    exit: () => `${child.exitCode ?? child.signalCode}`,
    /**
     * SIGTERM, then SIGKILL if the server has not exited within `graceMs`; resolves to
     * whether it had to be killed.
     */
    async stop({ keepData = false, graceMs = Infinity } = {}) {
      clearInterval(sampler);
      let killed = false;
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        if (Number.isFinite(graceMs)) {
          const timer = setTimeout(() => {
            killed = true;
            child.kill('SIGKILL');
          }, graceMs);
          await exited;
          clearTimeout(timer);
        } else await exited;
      }
      if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
      return killed;
    },
  };
}
