import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  path: string;
  body: { status: string; job_id: string; metadata: unknown };
  headers: Record<string, string>;
  verifiedWith: string | null;
}

export interface WebhookReceiver {
  baseUrl: string;
  received: ReceivedWebhook[];
  /** Secrets a delivery may be signed with; a delivery verified by none is answered 401. */
  secrets: string[];
  /** Answer the next `n` deliveries with HTTP 500. */
  failNext(n: number): void;
  close(): Promise<void>;
}

/** A local webhook target that verifies Standard Webhooks signatures and records deliveries. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const secrets: string[] = [];
  let failures = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (failures > 0) {
        failures--;
        res.writeHead(500).end();
        return;
      }
      const payload = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [
          k,
          Array.isArray(v) ? v.join(',') : String(v),
        ]),
      );
      const verifiedWith =
        secrets.find((secret) => {
          try {
            new Webhook(secret).verify(payload, headers);
            return true;
          } catch {
            return false;
          }
        }) ?? null;
      if (!verifiedWith) {
        res.writeHead(401).end();
        return;
      }
      received.push({ path: req.url ?? '', body: JSON.parse(payload), headers, verifiedWith });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    secrets,
    failNext(n) {
      failures = n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
