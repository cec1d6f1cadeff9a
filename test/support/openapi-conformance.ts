import { Ajv2020 } from 'ajv/dist/2020.js';

// The document is arbitrary JSON walked by path and method.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/**
 * Checks real responses against the service's own OpenAPI document: the schema the
 * document gives for the operation (method and path template), status and JSON content
 * type must accept the body. Used as the `fetch` of an SDK client, so every call a spec
 * makes is checked without changing the SDK.
 */
export class OpenApiConformance {
  readonly violations: string[] = [];
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  private readonly routes: { method: string; pattern: RegExp; op: Json; path: string }[];

  constructor(doc: Json) {
    this.ajv.addSchema({ $id: 'doc', components: doc.components });
    this.routes = Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => ({
        method: method.toUpperCase(),
        path,
        op: item[method],
        pattern: new RegExp('^' + path.replace(/\{\w+\}/g, '[^/]+') + '$'),
      })),
    );
  }

  /** `inner` (a fetch function), checking each JSON response it returns. */
  wrap<F extends (url: string, init?: { method?: string }) => Promise<CheckedResponse>>(
    inner: F,
  ): F {
    return (async (url: string, init?: { method?: string }) => {
      const res = await inner(url, init);
      const method = (init?.method ?? 'GET').toUpperCase();
      await this.check(method, new URL(url).pathname, res.clone());
      return res;
    }) as F;
  }

  /**
   * Whether the description's JSON request body of the operation accepts `body`: a body the
   * service refuses should be one the description refuses too, so a client or generator
   * trusting it does not send it.
   */
  acceptsRequest(method: string, pathname: string, body: unknown): boolean {
    const route = this.routes.find((r) => r.method === method && r.pattern.test(pathname));
    const schema = route?.op.requestBody?.content?.['application/json']?.schema;
    if (!schema) throw new Error(`${method} ${pathname}: no JSON request body described`);
    return this.ajv.compile(rebase(schema))(body);
  }

  async check(method: string, pathname: string, res: CheckedResponse): Promise<void> {
    const where = `${method} ${pathname} ${res.status}`;
    const route = this.routes.find((r) => r.method === method && r.pattern.test(pathname));
    if (!route) return void this.violations.push(`${where}: not in the API description`);
    const response = route.op.responses[String(res.status)];
    if (!response) return void this.violations.push(`${where}: status not described`);
    const type = (res.headers.get('content-type') ?? '').split(';')[0];
    if (type !== 'application/json') return;
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return void this.violations.push(`${where}: JSON body not described`);
    const validate = this.ajv.compile(rebase(schema));
    if (!validate(await res.json())) {
      this.violations.push(`${where}: ${this.ajv.errorsText(validate.errors)}`);
    }
  }
}

/** What is read of a response: the WHATWG and node-fetch (the SDK's) responses both fit. */
export interface CheckedResponse {
  status: number;
  headers: { get(name: string): string | null };
  clone(): CheckedResponse;
  json(): Promise<unknown>;
}

/** `#/components/...` references resolved against the document registered as `doc`. */
function rebase(schema: Json): Json {
  return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"doc#/'));
}
