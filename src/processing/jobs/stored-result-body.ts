import { Readable } from 'node:stream';
import { StreamableFile } from '@nestjs/common';

/** Stands for the stored result in an answer's JSON until the file takes its place. */
const PLACEHOLDER = JSON.stringify('\u0000stored result\u0000');

/**
 * An answer holding a stored result (a job's result file, JSON already), sent as a stream:
 * the API process neither parses nor serializes the result again, whatever its size. A
 * body that is the stored result itself is the file as it is.
 */
export function storedResultBody(stored: Readable): StreamableFile {
  return new StreamableFile(stored, { type: 'application/json; charset=utf-8' });
}

/**
 * `envelope` built around the stored result: called with a placeholder it puts where the
 * result goes (once); the answer is the envelope's JSON with the file's bytes in its place.
 */
export function envelopeAroundStoredResult(
  envelope: (result: unknown) => unknown,
  stored: Readable,
): StreamableFile {
  const json = JSON.stringify(envelope(JSON.parse(PLACEHOLDER)));
  const at = json.indexOf(PLACEHOLDER);
  if (at < 0) throw new Error('the envelope does not hold the stored result');
  const head = Buffer.from(json.slice(0, at), 'utf8');
  const tail = Buffer.from(json.slice(at + PLACEHOLDER.length), 'utf8');
  async function* body(): AsyncGenerator<Buffer> {
    yield head;
    for await (const chunk of stored) yield chunk as Buffer;
    yield tail;
  }
  const answer = Readable.from(body());
  // An answer cut before it reached the file (the client left) still closes the file.
  answer.once('close', () => stored.destroy());
  return storedResultBody(answer);
}
