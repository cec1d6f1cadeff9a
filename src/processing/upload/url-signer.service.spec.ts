import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { ProcessingSecretsRepository } from './processing-secrets.repository.js';
import { UrlSigner } from './url-signer.service.js';

/** A signer over a fixed key, as the data directory's secret would give it. */
async function signer(key = randomBytes(32).toString('base64url')): Promise<UrlSigner> {
  const secrets = { getOrCreate: () => Promise.resolve(key) };
  const sut = new UrlSigner(secrets as unknown as ProcessingSecretsRepository);
  await sut.onModuleInit();
  return sut;
}

const parse = (query: string) => {
  const params = new URLSearchParams(query);
  return { expires: params.get('expires'), signature: params.get('signature') };
};

describe(UrlSigner.name, () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date('2026-03-01T12:00:00Z') });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('signs for ttl seconds from now and accepts its own signature until then', async () => {
    const sut = await signer();
    const { expires, signature } = parse(sut.sign('upload', 'a.pdf', 60));
    expect(Number(expires)).toBe(Date.parse('2026-03-01T12:01:00Z') / 1000);
    expect(sut.verify('upload', 'a.pdf', expires, signature)).toBe(true);
    jest.advanceTimersByTime(60_000);
    expect(sut.verify('upload', 'a.pdf', expires, signature)).toBe(true);
    jest.advanceTimersByTime(1_000);
    expect(sut.verify('upload', 'a.pdf', expires, signature)).toBe(false);
  });

  it('binds the signature to purpose, subject and expiry', async () => {
    const sut = await signer();
    const { expires, signature } = parse(sut.sign('upload', 'a.pdf', 60));
    expect(sut.verify('result', 'a.pdf', expires, signature)).toBe(false);
    expect(sut.verify('upload', 'b.pdf', expires, signature)).toBe(false);
    expect(sut.verify('upload', 'a.pdf', String(Number(expires) + 3600), signature)).toBe(false);
  });

  it('rejects signatures of another key, so a new data directory voids old URLs', async () => {
    const { expires, signature } = parse((await signer()).sign('upload', 'a.pdf', 60));
    expect((await signer()).verify('upload', 'a.pdf', expires, signature)).toBe(false);
  });

  it('keeps URLs valid across restarts on the same key', async () => {
    const key = randomBytes(32).toString('base64url');
    const { expires, signature } = parse((await signer(key)).sign('upload', 'a.pdf', 60));
    expect((await signer(key)).verify('upload', 'a.pdf', expires, signature)).toBe(true);
  });

  it.each([
    ['a missing expiry', undefined, 'x'],
    ['a missing signature', '1900000000', undefined],
    ['a non-numeric expiry', '19e8', 'x'],
    ['a repeated query parameter', ['1900000000'], 'x'],
    ['a truncated signature', '1900000000', 'abc'],
  ])('answers false, never throws, for %s', async (_case, expires, signature) => {
    const sut = await signer();
    expect(sut.verify('upload', 'a.pdf', expires, signature)).toBe(false);
  });
});
