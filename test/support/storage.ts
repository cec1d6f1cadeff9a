import fs from 'node:fs';
import path from 'node:path';
import { seedAccount, type SeededAccount } from './accounts.js';
import { startTestApp } from './test-app.js';

/** Seeds organizations in process before a child server owns the DuckDB file of `dataDir`. */
export async function seedOrgs(
  dataDir: string,
  names: readonly string[],
): Promise<SeededAccount[]> {
  const seeding = await startTestApp({ DATA_DIR: dataDir });
  try {
    const orgs: SeededAccount[] = [];
    for (const name of names) orgs.push(await seedAccount(seeding.app, name));
    return orgs;
  } finally {
    await seeding.close();
  }
}

/** Plain text of about `bytes` bytes: sentences of ten words, one a line. */
export function largeText(bytes: number): string {
  const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu'.split(' ');
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const word = words[i % words.length] + (i % 10 === 9 ? '.\n' : ' ');
    parts.push(word);
    size += word.length;
  }
  return parts.join('');
}

/** Every entry under `dir` (itself included) whose mode gives group or others any access. */
export function sharedEntries(dir: string): string[] {
  const shared: string[] = [];
  const visit = (entry: string): void => {
    const stat = fs.lstatSync(entry, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink()) return;
    if ((stat.mode & 0o077) !== 0) shared.push(`${entry} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(dir);
  return shared;
}

/** Bytes of every file under `dir`. */
export function bytesUnder(dir: string): number {
  let total = 0;
  const visit = (entry: string): void => {
    const stat = fs.lstatSync(entry, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
    else total += stat.size;
  };
  visit(dir);
  return total;
}

/**
 * A body of `bytes` zero bytes sent with chunked transfer encoding (no Content-Length), in
 * 1 MiB chunks, optionally wrapped as the multipart field `file`.
 */
export function chunkedBody(bytes: number, multipartBoundary?: string): ReadableStream<Uint8Array> {
  const chunk = new Uint8Array(1024 * 1024);
  const head = multipartBoundary
    ? Buffer.from(
        `--${multipartBoundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      )
    : null;
  const tail = multipartBoundary ? Buffer.from(`\r\n--${multipartBoundary}--\r\n`) : null;
  let sent = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!started && head) controller.enqueue(new Uint8Array(head));
      started = true;
      if (sent >= bytes) {
        if (tail) controller.enqueue(new Uint8Array(tail));
        controller.close();
        return;
      }
      const size = Math.min(chunk.length, bytes - sent);
      controller.enqueue(chunk.subarray(0, size));
      sent += size;
    },
  });
}

/** Sends `body` as a streamed request; the answer's status, or 'reset' when the server cut it. */
export async function sendStreamed(
  url: string,
  method: string,
  body: ReadableStream<Uint8Array>,
  headers: Record<string, string>,
): Promise<{ status: number | 'reset'; body: unknown }> {
  try {
    const res = await fetch(url, { method, body, headers, duplex: 'half' } as RequestInit);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed };
  } catch {
    return { status: 'reset', body: null };
  }
}
