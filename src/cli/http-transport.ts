import { Agent, fetch, type Response } from 'undici';
import type { AdminEndpointFile } from '../admin/admin-file.js';
import type { AdminTransport } from './admin-transport.js';
import { CliError, describeErrorBody } from './cli-error.js';

const PING_TIMEOUT_MS = 2000;

/**
 * A command may run for minutes (a large usage import); the server keeps working whatever
 * the client does, so the client must not give up on a slow answer after fetch's default
 * five minutes and report a failure that did not happen.
 */
const patientAgent = new Agent({ headersTimeout: 0, bodyTimeout: 0 });

/** Runs commands through `POST /admin/v1/commands/<name>` of the server that owns the file. */
export class HttpTransport implements AdminTransport {
  readonly mode = 'http';

  constructor(private readonly endpoint: AdminEndpointFile) {}

  /** Whether the server of `endpoint` answers as itself (same pid, token accepted). */
  static async reachable(endpoint: AdminEndpointFile): Promise<boolean> {
    try {
      const res = await fetch(`${endpoint.url}/admin/v1/ping`, {
        headers: { authorization: `Bearer ${endpoint.token}` },
        signal: AbortSignal.timeout(PING_TIMEOUT_MS),
      });
      if (!res.ok) return false;
      const body = (await res.json()) as { pid?: unknown };
      return body.pid === endpoint.pid;
    } catch {
      return false;
    }
  }

  async run(name: string, input: Record<string, unknown>): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(`${this.endpoint.url}/admin/v1/commands/${encodeURIComponent(name)}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.endpoint.token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(input),
        dispatcher: patientAgent,
      });
    } catch (error) {
      throw new CliError(
        `lost the docproc server at ${this.endpoint.url}: ${(error as Error).message}`,
      );
    }
    const body: unknown = await res.json().catch(() => null);
    if (!res.ok) throw new CliError(describeErrorBody(res.status, body));
    return body;
  }

  async close(): Promise<void> {
    await patientAgent.close();
  }
}
