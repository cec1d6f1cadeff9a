import net from 'node:net';
import { describe, expect, it } from '@jest/globals';
import { testRedisUrl } from '../support/redis.js';

/** Sends raw RESP commands and returns the raw reply (enough to prove a real server answers). */
function redisCommand(url: string, ...args: string[]): Promise<string> {
  const { hostname, port } = new URL(url);
  const request = `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    socket.setTimeout(5000, () => socket.destroy(new Error('redis did not answer within 5 s')));
    socket.once('data', (data) => {
      resolve(data.toString());
      socket.end();
    });
    socket.once('error', reject);
  });
}

describe('the real Redis', () => {
  it('answers PING and keeps no data on disk', async () => {
    const url = testRedisUrl();
    expect(await redisCommand(url, 'PING')).toBe('+PONG\r\n');
    expect(await redisCommand(url, 'CONFIG', 'GET', 'appendonly')).toContain('no');
  });
});
