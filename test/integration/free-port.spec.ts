import { spawn } from 'node:child_process';
import net from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import {
  againOnSamePorts,
  type Launched,
  listensOn,
  PortTaken,
  startOnFreePort,
} from '../support/free-port.mjs';

/** A Node HTTP server on `port` as a child process, answering with its own pid. */
function launchServer(port: number): Launched {
  let output = '';
  const child = spawn(
    process.execPath,
    [
      '-e',
      `require('node:http').createServer((_q, r) => r.end(String(process.pid)))` +
        `.listen(${port}, '127.0.0.1')`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

describe('startOnFreePort', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it('starts again on another port when the picked one was taken first, never taking the taker for the server', async () => {
    const launched: Launched[] = [];
    const holders: net.Server[] = [];
    const { launched: server, port } = await startOnFreePort(
      'a server',
      (port) => {
        const started = launchServer(port);
        launched.push(started);
        cleanups.push(() => started.child.kill('SIGKILL'));
        if (launched.length === 1) {
          // Another process binds the port between its picking and the server's start, and
          // answers HTTP on it as a server would. (Without a host, listen binds at once:
          // the wildcard address, which 127.0.0.1 then cannot take.)
          const holder = net.createServer((socket) =>
            socket.end('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nother'),
          );
          holder.listen(port);
          holders.push(holder);
          cleanups.push(() => holder.close());
        }
        return started;
      },
      60_000,
    );
    expect(launched).toHaveLength(2);
    expect(launched[0].output()).toMatch(/EADDRINUSE/);
    expect(port).not.toBe((holders[0].address() as net.AddressInfo).port);
    expect(server).toBe(launched[1]);
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(await res.text()).toBe(String(server.child.pid));
  });

  it('fails with the output of a server that exits for another reason', async () => {
    await expect(
      startOnFreePort(
        'a failing server',
        () => {
          let output = '';
          const child = spawn(
            process.execPath,
            ['-e', 'console.error("bad setting"); process.exit(78)'],
            {
              stdio: ['ignore', 'ignore', 'pipe'],
            },
          );
          child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
          return { child, output: () => output };
        },
        60_000,
      ),
    ).rejects.toThrow(/a failing server exited \(78\): bad setting/);
  });

  it('sees a port bound by the process or one of its descendants, not by another process', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => holder.close());
    const port = (holder.address() as net.AddressInfo).port;
    expect(listensOn(process.pid, port)).toBe(true);

    // A shell whose child is the server, as `npm start` runs one.
    const { launched, port: shellPort } = await startOnFreePort(
      'a server under a shell',
      (port) => {
        const script = `require('node:http').createServer().listen(${port}, '127.0.0.1')`;
        const child = spawn('sh', ['-c', `"${process.execPath}" -e "${script}"; true`], {
          stdio: 'ignore',
          detached: true,
        });
        return { child, output: () => '' };
      },
      60_000,
    );
    cleanups.push(() => process.kill(-launched.child.pid!, 'SIGKILL')); // the shell and its child
    expect(listensOn(launched.child.pid!, shellPort)).toBe(true);
    expect(listensOn(launched.child.pid!, port)).toBe(false);
  });
});

describe('againOnSamePorts', () => {
  /** Binds `port` on loopback; PortTaken when another socket holds it. */
  function bind(port: number): Promise<net.Server> {
    return new Promise((resolve, reject) => {
      const server = net.createServer();
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(error.code === 'EADDRINUSE' ? new PortTaken(error.message) : error),
      );
      server.listen(port, '127.0.0.1', () => resolve(server));
    });
  }

  it('waits for the port it had while another socket holds it, then starts on it', async () => {
    const holder = await bind(0);
    const port = (holder.address() as net.AddressInfo).port;
    let attempts = 0;
    const server = await againOnSamePorts(
      async () => {
        attempts++;
        try {
          return await bind(port);
        } finally {
          // The holder lets go only once a start has found the port taken.
          if (attempts === 2) holder.close();
        }
      },
      30_000,
      50,
    );
    try {
      expect(attempts).toBeGreaterThanOrEqual(3);
      expect((server.address() as net.AddressInfo).port).toBe(port);
    } finally {
      server.close();
    }
  });

  it('gives up with PortTaken once its time is out, and at once on any other failure', async () => {
    const holder = await bind(0);
    const port = (holder.address() as net.AddressInfo).port;
    try {
      await expect(againOnSamePorts(() => bind(port), 300, 50)).rejects.toBeInstanceOf(PortTaken);
      let attempts = 0;
      await expect(
        againOnSamePorts(async () => {
          attempts++;
          throw new Error('bad setting');
        }, 30_000),
      ).rejects.toThrow('bad setting');
      expect(attempts).toBe(1);
    } finally {
      holder.close();
    }
  });
});
