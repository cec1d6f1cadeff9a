import type { INestApplicationContext } from '@nestjs/common';
import { Agent } from 'undici';
import { seedAccount } from './accounts.js';
/** Tiny JSON-over-HTTP helper for processing specs. */
// Response bodies are arbitrary JSON that specs index freely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface JsonResponse<T = Json> {
  status: number;
  body: T;
  headers: Headers;
}

export function client(baseUrl: string, apiKey: string | null) {
  async function call<T = Json>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<JsonResponse<T>> {
    const headers: Record<string, string> = {};
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    let payload: string | undefined;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }
  return {
    get: <T = Json>(path: string) => call<T>('GET', path),
    post: <T = Json>(path: string, body?: unknown) => call<T>('POST', path, body),
    delete: <T = Json>(path: string) => call<T>('DELETE', path),
  };
}

/** One answer of `burst`. */
export interface BurstAnswer {
  status: number;
  retryAfter: string | null;
  body: Json;
}

/**
 * `count` simultaneous `POST path` requests of `body` as `apiKey`, through one connection
 * pool of its own (`pool`: undici's Agent options, how many connections and how long each
 * may wait), closed once every request is answered.
 */
export async function burst(
  baseUrl: string,
  apiKey: string,
  path: string,
  body: unknown,
  count: number,
  pool: Agent.Options,
): Promise<BurstAnswer[]> {
  const dispatcher = new Agent(pool);
  try {
    return await Promise.all(
      Array.from({ length: count }, async () => {
        const res = await fetch(`${baseUrl}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          // @ts-expect-error undici option of Node's fetch
          dispatcher,
        });
        return {
          status: res.status,
          retryAfter: res.headers.get('retry-after'),
          body: (await res.json()) as Json,
        };
      }),
    );
  } finally {
    await dispatcher.close();
  }
}

/** Polls GET /job/:id until the job finishes (leaves Pending and Idle). */
export async function waitForJob(
  api: ReturnType<typeof client>,
  jobId: string,
  timeoutMs = 60_000,
): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(`/job/${jobId}`);
    if (res.status !== 200)
      throw new Error(`GET /job answered ${res.status}: ${JSON.stringify(res.body)}`);
    if (res.body.status !== 'Pending' && res.body.status !== 'Idle') return res.body;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const seeded = new Map<string, Promise<string>>();

/**
 * A processing key of an organization named `name`, created once per data directory (so it
 * survives restarts of the same DATA_DIR): distinct names are distinct organizations.
 */
export function keyOf(
  t: { app: INestApplicationContext; dataDir: string },
  name: string,
): Promise<string> {
  const cacheKey = `${t.dataDir}\n${name}`;
  let key = seeded.get(cacheKey);
  if (!key) {
    key = seedAccount(t.app, name).then((account) => account.processingKey);
    seeded.set(cacheKey, key);
  }
  return key;
}

/** Uploads `bytes` as a PDF through POST /upload and returns its `file_id`. */
export async function uploadPdf(
  baseUrl: string,
  apiKey: string,
  bytes: Uint8Array,
  name = 'document.pdf',
): Promise<string> {
  const multipart = new FormData();
  multipart.append('file', new Blob([bytes]), name);
  const res = await fetch(`${baseUrl}/upload?extension=pdf`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}` },
    body: multipart,
  });
  if (res.status !== 200)
    throw new Error(`POST /upload answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { file_id: string }).file_id;
}
