import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from '@jest/globals';

const COMPOSE = path.resolve(import.meta.dirname, '../../docker-compose.yml');

/** Each service of the `services:` section with the lines of its block. */
function services(text: string): Map<string, string[]> {
  const blocks = new Map<string, string[]>();
  let inServices = false;
  let current: string[] | null = null;
  for (const line of text.split('\n')) {
    if (line === 'services:') inServices = true;
    else if (inServices && /^\S/.test(line)) inServices = false;
    if (!inServices) continue;
    const name = /^ {2}([a-z][a-z0-9-]*):$/.exec(line)?.[1];
    if (name) blocks.set(name, (current = []));
    else current?.push(line);
  }
  return blocks;
}

/*
 * Container logs under Docker's default json-file driver are kept for good, and the API
 * writes a line per request: each service of the compose file rotates its logs instead.
 */
describe('docker-compose.yml', () => {
  it('bounds the container logs of every service', () => {
    const text = fs.readFileSync(COMPOSE, 'utf8');
    expect(text).toMatch(
      /^x-logging: &bounded-logs\n {2}driver: json-file\n {2}options:\n {4}max-size: \d+m\n {4}max-file: '\d+'$/m,
    );
    const found = services(text);
    expect([...found.keys()]).toEqual(
      expect.arrayContaining(['kafka', 'redis', 'clickhouse', 'api', 'worker']),
    );
    const unbounded = [...found].filter(
      ([, lines]) => !lines.includes('    logging: *bounded-logs'),
    );
    expect(unbounded.map(([name]) => name)).toEqual([]);
  });
});
