import { createRequire } from 'node:module';
import type { AdminEndpointFile } from '../admin/admin-file.js';
import type { AdminTransport } from './admin-transport.js';
import { CliError, describeErrorBody } from './cli-error.js';

const PING_TIMEOUT_MS = 2000;

/**
 * node:http by `require`: an ESM import of a built-in builds a facade that reads every
 * export, and node:http's lazy WebSocket/fetch exports then load undici after all.
 */
const http = createRequire(import.meta.url)('node:http') as typeof import('node:http');

interface JsonAnswer {
  status: number;
  body: unknown;
}

/**
 * One JSON request over node:http. Not fetch: loading undici costs a CLI run more than the
 * command itself, and a command may run for minutes (a large usage import) while the
 * server keeps working whatever the client does, so there must be no response time-out
 * unless one is asked for (the ping's).
 */
function requestJson(
  url: string,
  options: { method: 'GET' | 'POST'; token: string; body?: unknown; timeoutMs?: number },
): Promise<JsonAnswer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: options.method,
        headers: {
          authorization: `Bearer ${options.token}`,
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
        timeout: options.timeoutMs,
        // No keep-alive socket left to hold the process open after the answer.
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          let body: unknown;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch {
            body = null;
          }
          resolve({ status: response.statusCode ?? 0, body });
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
    request.end(payload);
  });
}

/** Runs commands through `POST /admin/v1/commands/<name>` of the server that owns the file. */
export class HttpTransport implements AdminTransport {
  readonly mode = 'http';

  constructor(private readonly endpoint: AdminEndpointFile) {}

  /** Whether the server of `endpoint` answers as itself (same pid, token accepted). */
  static async reachable(endpoint: AdminEndpointFile): Promise<boolean> {
    try {
      const { status, body } = await requestJson(`${endpoint.url}/admin/v1/ping`, {
        method: 'GET',
        token: endpoint.token,
        timeoutMs: PING_TIMEOUT_MS,
      });
      return status === 200 && (body as { pid?: unknown } | null)?.pid === endpoint.pid;
    } catch {
      return false;
    }
  }

  async run(name: string, input: Record<string, unknown>): Promise<unknown> {
    let answer: JsonAnswer;
    try {
      answer = await requestJson(
        `${this.endpoint.url}/admin/v1/commands/${encodeURIComponent(name)}`,
        { method: 'POST', token: this.endpoint.token, body: input },
      );
    } catch (error) {
      throw new CliError(
        `lost the docproc server at ${this.endpoint.url}: ${(error as Error).message}`,
      );
    }
    if (answer.status < 200 || answer.status >= 300) {
      throw new CliError(describeErrorBody(answer.status, answer.body));
    }
    return answer.body;
  }

  async close(): Promise<void> {
    // Nothing held: each request's socket closes with its answer (no keep-alive agent).
  }
}
