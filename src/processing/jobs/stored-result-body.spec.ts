import { Readable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import type { StreamableFile } from '@nestjs/common';
import { envelopeAroundStoredResult, storedResultBody } from './stored-result-body.js';

async function text(file: StreamableFile): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of file.getStream()) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** A stored result file in small chunks, as a file stream delivers it. */
function storedFile(json: string): Readable {
  const bytes = Buffer.from(json, 'utf8');
  return Readable.from(
    Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) => bytes.subarray(i * 7, i * 7 + 7)),
  );
}

describe('answers holding a stored result', () => {
  const result = {
    job_id: 'j1',
    result: { chunks: [{ content: 'Ünïcödé "quoted" \u2028 text' }] },
  };

  it('sends a stored result as it is, as JSON', async () => {
    const body = storedResultBody(storedFile(JSON.stringify(result)));
    expect(body.getHeaders().type).toBe('application/json; charset=utf-8');
    expect(JSON.parse(await text(body))).toEqual(result);
  });

  it('puts the stored result where the envelope holds it, the rest serialized as usual', async () => {
    const envelope = (stored: unknown) => ({
      job_id: 'j1',
      status: 'Completed',
      result: stored,
      reason: 'a "reason" with \u0000 in it',
      num_pages: 3,
    });
    const body = envelopeAroundStoredResult(envelope, storedFile(JSON.stringify(result)));
    const sent = await text(body);
    expect(sent).toBe(JSON.stringify(envelope(result)));
  });

  it('refuses an envelope without the stored result', () => {
    expect(() => envelopeAroundStoredResult(() => ({ job_id: 'j1' }), storedFile('{}'))).toThrow(
      'does not hold the stored result',
    );
  });

  it('closes the stored file when the answer is cut before reaching it', async () => {
    const file = storedFile(JSON.stringify(result));
    const body = envelopeAroundStoredResult((stored) => ({ result: stored }), file);
    body.getStream().destroy();
    await new Promise((resolve) => setImmediate(resolve));
    expect(file.destroyed).toBe(true);
  });
});
