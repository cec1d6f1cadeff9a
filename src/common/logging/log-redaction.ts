import { RequestMethod } from '@nestjs/common';
import type { Params } from 'nestjs-pino';
import { stdSerializers } from 'pino';
import { requestIdOf } from '../request-id.js';
import { LEAN_ROUTES } from './lean-access-log.js';

/** Marks a value taken out of a log line. */
export const REDACTED = '[REDACTED]';

/**
 * Query parameters that carry a credential: the HMAC of presigned upload and result URLs
 * (`signature`), and the usual names of tokens and keys in URLs.
 */
const SECRET_QUERY_PARAMS =
  /^(signature|sig|token|access_token|api_key|apikey|key|secret|x-amz-signature|x-amz-credential)$/i;

/** Request headers worth a log line; every other header (credentials, cookies, ...) is left out. */
const LOGGED_HEADERS = ['content-type', 'content-length', 'user-agent', 'accept', 'x-request-id'];

/**
 * Paths pino censors wherever a log call puts them: authorization and cookies of requests
 * and responses, and fields named like secrets in any logged object (two levels deep).
 */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'secret',
  'token',
  'password',
  'document_password',
  'apiKey',
  '*.secret',
  '*.token',
  '*.password',
  '*.document_password',
  '*.apiKey',
  '*.authorization',
];

/** The URL with the value of every credential-carrying query parameter replaced. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const fragmentStart = url.indexOf('#', queryStart);
  const end = fragmentStart < 0 ? url.length : fragmentStart;
  const query = url
    .slice(queryStart + 1, end)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed escape: judge the raw name.
      }
      return eq >= 0 && SECRET_QUERY_PARAMS.test(decoded) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, queryStart)}?${query}${url.slice(end)}`;
}

/** Any `http(s)://...` URL inside a text (a logged message or error) with its credentials taken out. */
export function redactUrlsIn(text: string): string {
  return text.replace(/https?:\/\/[^\s"'<>]+/g, (url) => redactUrl(url));
}

interface SerializedRequest {
  id?: unknown;
  method?: string;
  url?: string;
  headers?: Record<string, unknown>;
  remoteAddress?: string;
}

/**
 * The characters of a URL or header value a request line keeps. A client sets both (up to
 * Node's 16 KiB of headers), and every request writes a line, 404s and 401s included: a
 * flood of long URLs wrote its URLs to the log whole, 4 KiB a request for 4 KiB paths.
 */
export const LOGGED_VALUE_CHARS = 512;

/** `text` cut to LOGGED_VALUE_CHARS, saying how much was left out. */
function bounded(text: string): string {
  if (text.length <= LOGGED_VALUE_CHARS) return text;
  return `${text.slice(0, LOGGED_VALUE_CHARS)}...(${text.length - LOGGED_VALUE_CHARS} more characters)`;
}

/** What a request log line says of the request: no credentials, no signed URL, bounded. */
export function serializeRequest(req: SerializedRequest): Record<string, unknown> {
  const headers = req.headers ?? {};
  return {
    id: req.id,
    method: req.method,
    // Redacted before it is cut, so a cut never leaves part of a signature.
    url: typeof req.url === 'string' ? bounded(redactUrl(req.url)) : req.url,
    headers: Object.fromEntries(
      LOGGED_HEADERS.filter((name) => headers[name] !== undefined).map((name) => {
        const value = headers[name];
        return [name, typeof value === 'string' ? bounded(value) : value];
      }),
    ),
    remoteAddress: req.remoteAddress,
  };
}

/** A log call's argument: a message, or a merging object whose `url` field is a URL. */
function redactLogArgument(arg: unknown): unknown {
  if (typeof arg === 'string') return redactUrlsIn(arg);
  if (
    arg !== null &&
    typeof arg === 'object' &&
    typeof (arg as { url?: unknown }).url === 'string'
  ) {
    const { url } = arg as { url: string };
    return { ...arg, url: redactUrl(url) };
  }
  return arg;
}

/** pino's error serializer, with URLs in the message and stack taken apart from their credentials. */
function serializeError(error: Error): Record<string, unknown> {
  const serialized = stdSerializers.err(error) as unknown as Record<string, unknown>;
  for (const field of ['message', 'stack']) {
    if (typeof serialized[field] === 'string') serialized[field] = redactUrlsIn(serialized[field]);
  }
  return serialized;
}

/** pino-http settings of every docproc process (the HTTP app and the worker). */
export function loggerParams(level: string, forHttp: boolean): Params {
  return {
    ...(forHttp
      ? { forRoutes: [{ path: '*splat', method: RequestMethod.ALL }], exclude: LEAN_ROUTES }
      : {}),
    pinoHttp: {
      level,
      ...(forHttp ? { genReqId: requestIdOf } : {}),
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      serializers: { req: serializeRequest, err: serializeError },
      hooks: {
        // Messages may quote a URL (an upload target, a webhook, an error's cause).
        logMethod(args: unknown[], method: (...args: unknown[]) => void) {
          method.apply(this, args.map(redactLogArgument));
        },
      },
    },
  };
}
