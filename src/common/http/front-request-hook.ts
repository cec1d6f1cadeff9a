import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';

/** A request hook that either answers (and does not call `done`) or calls `done()`. */
export type FrontRequestHook = (
  request: FastifyRequest,
  reply: FastifyReply,
  done: HookHandlerDoneFunction,
) => void;

const slots = new WeakMap<FastifyInstance, { hook: FrontRequestHook | null }>();

/**
 * Reserves the place of a request hook ahead of Nest's middleware runner and the plugins
 * registered with the application (`@fastify/multipart`'s hooks run on every request):
 * Fastify runs an instance's `onRequest` hooks in the order they were added and a route's own
 * after them, and Nest registers its middleware runner while it creates the application,
 * before a provider can add anything. Call on the adapter's instance before the application
 * is created; `setFrontRequestHook` fills the place later (until then it passes every request on).
 */
export function reserveFrontRequestHook(fastify: FastifyInstance): void {
  const slot: { hook: FrontRequestHook | null } = { hook: null };
  slots.set(fastify, slot);
  fastify.addHook('onRequest', (request, reply, done) => {
    if (slot.hook === null) done();
    else slot.hook(request, reply, done);
  });
}

/** Fills the place `reserveFrontRequestHook` kept; false when none was kept on `fastify`. */
export function setFrontRequestHook(fastify: FastifyInstance, hook: FrontRequestHook): boolean {
  const slot = slots.get(fastify);
  if (slot === undefined) return false;
  slot.hook = hook;
  return true;
}
