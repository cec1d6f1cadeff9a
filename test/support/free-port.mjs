// Plain JavaScript (its types in free-port.d.mts), so the benchmarks' .mjs scripts start
// their servers the same way the specs do.
import fs from 'node:fs';
import net from 'node:net';
import { setTimeout as pause } from 'node:timers/promises';

/**
 * Servers the specs and benchmarks start as processes on free loopback ports. A port picked
 * free can be taken by another process before the server binds it (an outgoing connection
 * drawing it as its ephemeral port, or another run's server picking the same number), and a
 * server that only binds after seconds of start-up leaves a wide window. So a start goes
 * through `startOnFreePort`: a start that loses its port is made again on a new one, and a
 * server is taken as up only once the kernel shows the port bound by that very process
 * (another server answering on the lost port is never mistaken for it).
 */

/** `count` distinct ports free at the time of the call, all held until all are picked. */
export async function freePorts(count) {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => s.address().port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

/**
 * What a server (Node, Redis, Java, ClickHouse) or a service script (scripts/kafka.sh,
 * clickhouse.sh, redis.sh) says when a port it was given is already bound.
 */
export const PORT_TAKEN =
  /EADDRINUSE|address already in use|BindException|in use by another process|already serves another/i;

/**
 * Starts a server with `launch(port)` on a free port and waits until that process (or one of
 * its descendants, e.g. `npm start`'s server) listens on it; a start that exits saying the
 * port was taken is made again on another port. Throws when the process exits otherwise or
 * does not listen within `timeoutMs`.
 */
export async function startOnFreePort(what, launch, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [port] = await freePorts(1);
    const launched = launch(port);
    const { child } = launched;
    const closed = new Promise((resolve) => child.once('close', () => resolve()));
    const ended = () => child.exitCode !== null || child.signalCode !== null;
    const listenDeadline = Date.now() + Math.max(deadline - Date.now(), 1_000);
    while (!ended() && !(child.pid !== undefined && listensOn(child.pid, port))) {
      if (Date.now() > listenDeadline) {
        child.kill('SIGKILL');
        throw new Error(
          `timed out waiting for ${what} to listen on port ${port} (output: ${launched.output().slice(-2000)})`,
        );
      }
      await pause(100);
    }
    if (!ended()) return { launched, port };
    await closed; // all of its output read
    if (!PORT_TAKEN.test(launched.output()) || Date.now() > deadline) {
      throw new Error(
        `${what} exited (${child.signalCode ?? child.exitCode}): ${launched.output().slice(-2000)}`,
      );
    }
  }
}

/** Starts a service on `count` free ports, again on new ones while `start` throws PortTaken. */
export async function onFreePorts(count, start, attempts = 5) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePorts(count));
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt >= attempts) throw error;
    }
  }
}

/**
 * Starts a service again on the ports it had, which its clients keep as its address: while
 * `start` throws PortTaken, tries again every `everyMs` until `timeoutMs` has passed. What
 * takes a port in the meantime is most often an outgoing connection that drew it as its own
 * ephemeral port, and it gives the port back when it closes.
 */
export async function againOnSamePorts(start, timeoutMs, everyMs = 500) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await start();
    } catch (error) {
      if (!(error instanceof PortTaken) || Date.now() > deadline) throw error;
    }
    await pause(everyMs);
  }
}

/** A start that failed because one of its ports was bound by another process first. */
export class PortTaken extends Error {}

/** True when process `pid` or one of its descendants has a TCP socket listening on `port`. */
export function listensOn(pid, port) {
  const listening = listeningSocketInodes(port);
  if (listening.size === 0) return false;
  return processTree(pid).some((p) => socketInodes(p).some((inode) => listening.has(inode)));
}

/** Socket inodes in LISTEN state on `port` (any address), from the kernel's TCP tables. */
function listeningSocketInodes(port) {
  const inodes = new Set();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const rows = readOr(table, '').split('\n').slice(1);
    for (const row of rows) {
      const [, local, , state, , , , , , inode] = row.trim().split(/\s+/);
      // State 0A is LISTEN; the local address is `hexaddress:hexport`.
      if (state === '0A' && parseInt(local.split(':')[1], 16) === port) inodes.add(inode);
    }
  }
  return inodes;
}

function processTree(root) {
  const pids = [root];
  for (let i = 0; i < pids.length; i++) {
    for (const task of readdirOr(`/proc/${pids[i]}/task`)) {
      const children = readOr(`/proc/${pids[i]}/task/${task}/children`, '').trim();
      if (children) pids.push(...children.split(/\s+/).map(Number));
    }
  }
  return pids;
}

function socketInodes(pid) {
  const inodes = [];
  for (const fd of readdirOr(`/proc/${pid}/fd`)) {
    let target;
    try {
      target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue; // closed since the listing
    }
    const match = /^socket:\[(\d+)\]$/.exec(target);
    if (match) inodes.push(match[1]);
  }
  return inodes;
}

// A process that exits while it is read leaves its /proc entries half gone: read as empty.
function readOr(file, fallback) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return fallback;
  }
}

function readdirOr(dir) {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
