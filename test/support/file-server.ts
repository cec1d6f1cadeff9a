import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FileServer {
  baseUrl: string;
  /** Serves `body` at `path` (with an optional content type and further headers). */
  put(
    path: string,
    body: string | Buffer,
    contentType?: string,
    headers?: Record<string, string>,
  ): string;
  /** Serves `body` at `path` only once `release()` is called (holds a worker busy). */
  hold(path: string, body: string): { url: string; release(): void };
  requests: string[];
  close(): Promise<void>;
}

/**
 * App settings under which a download `hold` keeps back keeps a cpu worker busy: URLs of this
 * server are allowed, and an input is downloaded inside the worker that runs its job.
 */
export const HELD_DOWNLOAD_ENV = { FETCH_ALLOW_HOSTS: '127.0.0.1', INPUT_DOWNLOADS: 'in_worker' };

/** A local HTTP server with documents for `input` URLs (reached through FETCH_ALLOW_HOSTS). */
export async function startFileServer(): Promise<FileServer> {
  const files = new Map<
    string,
    { body: Buffer; type: string; headers?: Record<string, string>; gate?: Promise<void> }
  >();
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const file = files.get((req.url ?? '').split('?')[0]);
    if (!file) {
      res.writeHead(404).end('not found');
      return;
    }
    void (file.gate ?? Promise.resolve()).then(() =>
      res
        .writeHead(200, {
          'content-type': file.type,
          'content-length': file.body.length,
          ...file.headers,
        })
        .end(file.body),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    requests,
    put(path, body, contentType = 'text/plain', headers = {}) {
      files.set(path, {
        body: Buffer.isBuffer(body) ? body : Buffer.from(body),
        type: contentType,
        headers,
      });
      return `${baseUrl}${path}`;
    },
    hold(path, body) {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      files.set(path, { body: Buffer.from(body), type: 'text/plain', gate });
      return { url: `${baseUrl}${path}`, release };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
