import net from 'node:net';

export interface RawAnswer {
  /** The status line's code, or null when the connection closed without an answer. */
  status: number | null;
  body: string;
  /** From the connection's start to its close. */
  ms: number;
}

export interface TricklingRequest {
  /** The answer the server wrote before the connection closed (by either side). */
  answer: Promise<RawAnswer>;
  /** Sends `tail` and the end of the chunked body: the request is complete. */
  finish(tail: string): void;
}

/**
 * A client over a raw socket that sends a request's head and the start of its chunked body
 * (`head` and 64 KiB) at once, then one byte every 100 ms until `finish`: what a very slow
 * or stalled uploader does. The connection is kept alive; only the server closes it.
 * `onTick` runs at every byte sent (to observe the server meanwhile).
 */
export function tricklingRequest(
  baseUrl: string,
  request: { method: string; target: string; headers: Record<string, string>; head: string },
  onTick: () => void = () => undefined,
): TricklingRequest {
  const { hostname, port } = new URL(baseUrl);
  const started = Date.now();
  const socket = net.connect(Number(port), hostname);
  const chunk = (data: Buffer | string) =>
    socket.write(`${Buffer.byteLength(data).toString(16)}\r\n${data}\r\n`);
  let ticker: NodeJS.Timeout | undefined;
  let received = '';
  socket.on('connect', () => {
    const headers = { host: hostname, 'transfer-encoding': 'chunked', ...request.headers };
    const lines = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n');
    socket.write(`${request.method} ${request.target} HTTP/1.1\r\n${lines}\r\n\r\n`);
    chunk(Buffer.concat([Buffer.from(request.head), Buffer.alloc(64 * 1024, 0x61)]));
    ticker = setInterval(() => {
      onTick();
      if (!socket.destroyed) chunk('a');
    }, 100);
  });
  socket.on('data', (data) => (received += data.toString('latin1')));
  socket.on('error', () => undefined);
  const answer = new Promise<RawAnswer>((resolve) =>
    socket.on('close', () => {
      clearInterval(ticker);
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1];
      const bodyStart = received.indexOf('\r\n\r\n');
      resolve({
        status: status ? Number(status) : null,
        body: bodyStart < 0 ? '' : received.slice(bodyStart + 4),
        ms: Date.now() - started,
      });
    }),
  );
  return {
    answer,
    finish(tail: string) {
      clearInterval(ticker);
      if (tail) chunk(tail);
      socket.write('0\r\n\r\n');
    },
  };
}

/** The head of a multipart body whose field `file` holds what follows it. */
export function multipartFileHead(boundary: string, fileName: string): string {
  return (
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
    'Content-Type: text/plain\r\n\r\n'
  );
}
