import dns from 'node:dns';
import fs from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import type * as Undici from 'undici';
import type { Agent, Dispatcher } from 'undici';
import { onFirstUse } from '../../common/on-first-use.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { ProcessingError } from '../core/processing-error.js';
import { blockedAddressReason } from './address-guard.js';
import { isTimeout, redirectTarget } from './fetch-failures.js';
import {
  ACCEPT_ENCODING,
  contentCodingsOf,
  corruptEncodingError,
  decodingStage,
} from './content-codings.js';
import { inputsTooLarge, tooLarge } from './input-size-errors.js';

/** The reason the egress allow-list gives, which names its setting already. */
const OUTSIDE_ALLOW_LIST = 'not in FETCH_ALLOW_HOSTS';

export class BlockedAddressError extends ProcessingError {
  constructor(
    host: string,
    readonly reason = 'private, loopback or link-local address',
  ) {
    // Says how a self-hosted install reaches its own hosts, which the guard refuses by default.
    const remedy =
      reason === OUTSIDE_ALLOW_LIST
        ? ''
        : '; to allow it, list the host in FETCH_ALLOW_HOSTS (or set FETCH_ALLOW_PRIVATE)';
    super('INPUT_URL_BLOCKED', `Refusing to connect to ${host}: ${reason}${remedy}`, 400);
  }
}

interface FetchedBody {
  bytes: Buffer;
  contentType: string | null;
  finalUrl: string;
}

type FetchedFile = Omit<FetchedBody, 'bytes'>;

/** Bytes the inputs of one request may still take (`limit`: what the 413 names). */
export interface ByteBudget {
  readonly limit: number;
  remaining: number;
}

const MAX_REDIRECTS = 5;
/** undici, loaded by the first fetch or webhook (most processes make none). */
const undici = onFirstUse<typeof Undici>('undici');

/**
 * Outbound HTTP for inputs and webhooks with an SSRF guard: every address a host name
 * resolves to is checked, and the connection is made to the checked address (no DNS
 * rebinding window). Allow-listed hosts (FETCH_ALLOW_HOSTS) or FETCH_ALLOW_PRIVATE skip it.
 */
@Injectable()
export class SafeFetcher implements BeforeApplicationShutdown {
  private agent: Agent | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The connection pool, created by the first request. */
  private dispatcher(): Agent {
    this.agent ??= new (undici().Agent)({
      connect: { lookup: this.guardedLookup },
      headersTimeout: this.config.processing.fetchTimeoutMs,
      bodyTimeout: this.config.processing.fetchTimeoutMs,
    });
    return this.agent;
  }

  private allowed(host: string): boolean {
    const { fetchAllowPrivate, fetchAllowHosts } = this.config.processing;
    const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
    return fetchAllowPrivate || fetchAllowHosts.includes(bare);
  }

  /** With the egress allow-list on, a host outside it is refused before any name lookup. */
  private outsideAllowList(host: string): boolean {
    const { fetchAllowedHostsOnly, fetchAllowHosts } = this.config.processing;
    const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
    return fetchAllowedHostsOnly && !fetchAllowHosts.includes(bare);
  }

  /** Name resolution (all addresses of a host); a seam for tests of the guard. */
  protected resolveAll(
    hostname: string,
    family: number,
    callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
  ): void {
    dns.lookup(hostname, { all: true, family }, callback);
  }

  private readonly guardedLookup: LookupFunction = (hostname, options, callback) => {
    if (this.outsideAllowList(hostname)) {
      return callback(new BlockedAddressError(hostname, OUTSIDE_ALLOW_LIST), '', 4);
    }
    this.resolveAll(hostname, Number(options.family ?? 0), (error, addresses) => {
      if (error) return callback(error, '', 4);
      if (!this.allowed(hostname)) {
        const refusal = refusalOf(hostname, addresses);
        if (refusal) return callback(refusal, '', 4);
      }
      if ((options as { all?: boolean }).all) {
        (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      } else {
        callback(null, addresses[0].address, addresses[0].family);
      }
    });
  };

  /** Rejects URLs whose literal IP host is blocked (connections to IPs skip DNS lookup). */
  assertAllowedUrl(url: URL): void {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      // A reference the request model let through but not as written (`JOBID://…`, `jobid:…`).
      const reference = url.protocol === 'jobid:' || url.protocol === 'docproc:';
      throw new ProcessingError(
        'INPUT_URL_INVALID',
        reference
          ? `Unsupported reference ${url.protocol}: write jobid://<job_id> and docproc://<file_id> in lower case, with two slashes`
          : `Unsupported URL scheme ${url.protocol}`,
        400,
      );
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (this.outsideAllowList(host)) throw new BlockedAddressError(host, OUTSIDE_ALLOW_LIST);
    if (this.allowed(host)) return;
    if (ipaddr.isValid(host)) {
      const reason = blockedAddressReason(host);
      if (reason) throw new BlockedAddressError(host, reason);
    } else if (host === 'localhost' || host.endsWith('.localhost')) {
      throw new BlockedAddressError(host, 'loopback host name');
    }
  }

  /**
   * Why a webhook target may not be delivered to, checked when the request or endpoint is
   * submitted (delivery checks again, against the addresses it connects to): the URL's
   * literal address, or every address its host name resolves to within `timeoutMs`. A
   * name that does not resolve in time is refused; one that does not resolve at all too.
   */
  async destinationRefusal(rawUrl: string, timeoutMs: number): Promise<string | null> {
    let url: URL;
    try {
      url = new URL(rawUrl);
      this.assertAllowedUrl(url);
    } catch (error) {
      return error instanceof BlockedAddressError ? error.message : 'invalid URL';
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (this.allowed(host) || ipaddr.isValid(host)) return null;
    const addresses = await new Promise<dns.LookupAddress[] | string>((resolve) => {
      const timer = setTimeout(
        () => resolve(`${host} did not resolve within ${timeoutMs} ms`),
        timeoutMs,
      );
      this.resolveAll(host, 0, (error, found) => {
        clearTimeout(timer);
        resolve(error ? `${host} does not resolve (${error.code ?? error.message})` : found);
      });
    });
    if (typeof addresses === 'string') return addresses;
    return refusalOf(host, addresses)?.message ?? null;
  }

  /**
   * GETs a document with a size cap and time-out, following a few redirects, each checked.
   * A body with a Content-Encoding is decoded; the cap counts the decoded bytes.
   */
  async fetchDocument(
    rawUrl: string,
    maxBytes: number,
    signal?: AbortSignal,
  ): Promise<FetchedBody> {
    const { response, url, codings } = await this.open(rawUrl, maxBytes, signal);
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      await pipeline(response.body, decodingStage(codings), async (decoded) => {
        for await (const chunk of decoded) {
          size += chunk.length;
          if (size > maxBytes) throw tooLarge(maxBytes);
          chunks.push(chunk);
        }
      });
    } catch (error) {
      discard(response.body);
      throw this.bodyError(url, codings, error);
    }
    return {
      bytes: Buffer.concat(chunks),
      contentType: contentTypeOf(response),
      finalUrl: url.toString(),
    };
  }

  /**
   * GETs a document into `file` (created 0600) as it arrives, so a download holds no more
   * memory than its socket's buffers. `budget` is shared by the inputs of one request: the
   * download fails with 413 once their bytes together pass it.
   */
  async fetchToFile(
    rawUrl: string,
    file: string,
    budget: ByteBudget,
    signal?: AbortSignal,
  ): Promise<FetchedFile> {
    const { response, url, codings } = await this.open(rawUrl, budget.remaining, signal);
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        budget.remaining -= chunk.length;
        if (budget.remaining < 0) done(inputsTooLarge(budget.limit));
        else done(null, chunk);
      },
    });
    try {
      const written = fs.createWriteStream(file, { mode: 0o600 });
      await pipeline(response.body, decodingStage(codings), counted, written);
    } catch (error) {
      discard(response.body);
      throw this.bodyError(url, codings, error);
    }
    return { contentType: contentTypeOf(response), finalUrl: url.toString() };
  }

  /** What a failure while the body was read or decoded answers. */
  private bodyError(url: URL, codings: readonly string[], error: unknown): ProcessingError {
    if (error instanceof ProcessingError) return error;
    return corruptEncodingError(error, url.host, codings) ?? this.upstreamError(url, error, true);
  }

  /**
   * The response of a GET, after redirects, with a success status, an admissible length
   * (an encoded body longer than the cap decodes longer still) and codings decoded here.
   */
  private async open(
    rawUrl: string,
    maxBytes: number,
    signal?: AbortSignal,
  ): Promise<{ response: Dispatcher.ResponseData; url: URL; codings: string[] }> {
    let url = new URL(rawUrl);
    const headers = { 'accept-encoding': ACCEPT_ENCODING };
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      this.assertAllowedUrl(url);
      const response = await this.send(url, { method: 'GET', headers, signal });
      if ([301, 302, 303, 307, 308].includes(response.statusCode)) {
        const location = response.headers.location;
        await response.body.dump();
        if (typeof location !== 'string') break;
        url = redirectTarget(location, url);
        continue;
      }
      if (response.statusCode < 200 || response.statusCode >= 300) {
        await response.body.dump();
        throw new ProcessingError(
          'INPUT_FETCH_FAILED',
          `Fetching ${url.origin}${url.pathname} answered HTTP ${response.statusCode}`,
          400,
        );
      }
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        discard(response.body);
        throw tooLarge(maxBytes);
      }
      try {
        return {
          response,
          url,
          codings: contentCodingsOf(response.headers['content-encoding'], url.host),
        };
      } catch (error) {
        discard(response.body);
        throw error;
      }
    }
    throw new ProcessingError('INPUT_FETCH_FAILED', 'Too many redirects', 400);
  }

  /** POSTs (webhooks): no redirects followed, time-out from the caller. */
  async post(
    rawUrl: string,
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<{ statusCode: number }> {
    const url = new URL(rawUrl);
    this.assertAllowedUrl(url);
    const response = await this.send(url, { method: 'POST', body, headers, timeoutMs });
    await response.body.dump().catch(() => undefined);
    return { statusCode: response.statusCode };
  }

  private async send(
    url: URL,
    options: {
      method: 'GET' | 'POST';
      body?: string;
      headers?: Record<string, string>;
      timeoutMs?: number;
      /** The caller's own end (a request's fetch deadline, a cancellation). */
      signal?: AbortSignal;
    },
  ): Promise<Dispatcher.ResponseData> {
    const timeout = options.timeoutMs ?? this.config.processing.fetchTimeoutMs;
    const timedOut = AbortSignal.timeout(timeout);
    try {
      return await undici().request(url, {
        method: options.method,
        body: options.body,
        headers: { 'user-agent': 'docproc/1', ...options.headers },
        dispatcher: this.dispatcher(),
        headersTimeout: timeout,
        bodyTimeout: timeout,
        signal: options.signal ? AbortSignal.any([timedOut, options.signal]) : timedOut,
      });
    } catch (error) {
      if (error instanceof ProcessingError) throw error;
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof ProcessingError) throw cause;
      throw this.upstreamError(url, error, false, timeout);
    }
  }

  /**
   * What a failed fetch answers: past the time limit (headers or body) 504
   * `INPUT_FETCH_TIMEOUT`; the connection failing while the body was read (a reset) 502
   * `INPUT_FETCH_INTERRUPTED`; any other failure to connect 400 `INPUT_FETCH_FAILED`.
   * Each names the host and the reason; a time-out names the limit the request had (a
   * webhook's is WEBHOOK_TIMEOUT_MS, not FETCH_TIMEOUT_MS).
   */
  private upstreamError(
    url: URL,
    error: unknown,
    readingBody: boolean,
    timeoutMs = this.config.processing.fetchTimeoutMs,
  ): ProcessingError {
    if (isTimeout(error)) {
      const setting =
        timeoutMs === this.config.processing.fetchTimeoutMs ? ' (FETCH_TIMEOUT_MS)' : '';
      return new ProcessingError(
        'INPUT_FETCH_TIMEOUT',
        `Fetching ${url.host} took longer than ${timeoutMs} ms${setting}`,
        504,
      );
    }
    const reason = error instanceof Error ? error.message : String(error);
    return readingBody
      ? new ProcessingError(
          'INPUT_FETCH_INTERRUPTED',
          `Fetching ${url.host} failed while reading the body: ${reason}`,
          502,
        )
      : new ProcessingError('INPUT_FETCH_FAILED', `Fetching ${url.host} failed: ${reason}`, 400);
  }

  /** After the workers' grace period: aborts fetches still running (their tasks are retried). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.agent?.destroy().catch(() => undefined);
  }
}

/** The refusal of a host whose addresses include a blocked one (or that has none). */
function refusalOf(host: string, addresses: dns.LookupAddress[]): BlockedAddressError | null {
  if (addresses.length === 0) return new BlockedAddressError(host, 'no address');
  for (const { address } of addresses) {
    const reason = blockedAddressReason(address);
    if (reason) return new BlockedAddressError(host, `resolves to ${address} (${reason})`);
  }
  return null;
}

function contentTypeOf(response: Dispatcher.ResponseData): string | null {
  const type = response.headers['content-type'];
  return typeof type === 'string' ? type : null;
}

/** Aborts a response body without an unhandled 'error' event (which would crash the process). */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}
