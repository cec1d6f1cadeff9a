import { createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { ProcessingSecretsRepository } from './processing-secrets.repository.js';

/**
 * HMAC-signed, expiring URLs served by this service: presigned uploads and
 * `force_url_result` results. The key lives in the data directory's DuckDB file so URLs
 * survive restarts.
 */
@Injectable()
export class UrlSigner implements OnModuleInit {
  private key!: Buffer;

  constructor(private readonly secrets: ProcessingSecretsRepository) {}

  async onModuleInit(): Promise<void> {
    this.key = Buffer.from(await this.secrets.getOrCreate('url_signing_key'), 'base64url');
  }

  private mac(purpose: string, subject: string, expires: number): string {
    return createHmac('sha256', this.key)
      .update(`${purpose}\n${subject}\n${expires}`)
      .digest('base64url');
  }

  /** Query string `expires=..&signature=..` for `subject`, valid `ttlSeconds`. */
  sign(purpose: string, subject: string, ttlSeconds: number): string {
    const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
    return `expires=${expires}&signature=${this.mac(purpose, subject, expires)}`;
  }

  verify(purpose: string, subject: string, expires: unknown, signature: unknown): boolean {
    if (typeof expires !== 'string' || typeof signature !== 'string' || !/^\d+$/.test(expires))
      return false;
    const at = Number(expires);
    if (at < Date.now() / 1000) return false;
    const expected = Buffer.from(this.mac(purpose, subject, at));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
