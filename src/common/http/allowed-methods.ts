import Router from 'find-my-way';
import type { FastifyInstance, FastifyRequest } from 'fastify';

type Method = Router.HTTPMethod;
interface RouteTable {
  router: Router.Instance<Router.HTTPVersion.V1>;
  methods: Set<Method>;
}

const tables = new WeakMap<FastifyInstance, RouteTable>();

/**
 * Records every route the server registers (call before the app initializes) in a router of
 * the same library Fastify routes with, so an unrouted request can be told apart: a path no
 * route has (404) or a path that exists under other methods (405 with `Allow`).
 */
export function trackAllowedMethods(fastify: FastifyInstance): void {
  const table: RouteTable = { router: Router(), methods: new Set() };
  tables.set(fastify, table);
  fastify.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]) as Method[];
    for (const method of methods) {
      if (table.router.hasRoute(method, route.url)) continue;
      table.router.on(method, route.url, () => undefined);
      table.methods.add(method);
    }
  });
}

/**
 * The methods the request's path is served with when its own method is not one of them
 * (the answer is then 405 with these in `Allow`); null when the method is served there or
 * no route has the path.
 */
export function methodsAllowedInstead(request: FastifyRequest): string[] | null {
  const table = tableOf(request.server);
  if (!table) return null;
  const path = request.url.split('?', 1)[0] ?? '/';
  const allowed = [...table.methods].filter((method) => table.router.find(method, path));
  if (allowed.length === 0 || allowed.includes(request.method as Method)) return null;
  return allowed.sort();
}

/** A plugin's instance inherits from the root one (Fastify's encapsulation), whose table it is. */
function tableOf(server: FastifyInstance): RouteTable | undefined {
  for (let s: object | null = server; s; s = Object.getPrototypeOf(s) as object | null) {
    const table = tables.get(s as FastifyInstance);
    if (table) return table;
  }
  return undefined;
}
