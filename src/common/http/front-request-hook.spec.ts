import { afterEach, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import { reserveFrontRequestHook, setFrontRequestHook } from './front-request-hook.js';

describe('the front request hook', () => {
  const started: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((app) => app.close()));
  });

  /** GET `path` over HTTP (light-my-request's inject does not load under jest's ESM). */
  async function get(app: FastifyInstance, path: string): Promise<unknown> {
    if (app.server.listening === false) await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    return (await fetch(`http://127.0.0.1:${address.port}${path}`)).json();
  }

  /** An instance whose later request hook (a middleware runner's stand-in) records its runs. */
  function instance(reserve: boolean) {
    const app = Fastify();
    started.push(app);
    const later: string[] = [];
    if (reserve) reserveFrontRequestHook(app);
    app.addHook('onRequest', (request, _reply, done) => {
      later.push(request.url);
      done();
    });
    app.get('/answered', async () => ({ from: 'handler' }));
    app.get('/passed', async () => ({ from: 'handler' }));
    return { app, later };
  }

  it('runs ahead of the hooks added after the place was kept, even when set after them', async () => {
    const { app, later } = instance(true);
    expect(
      setFrontRequestHook(app, (request, reply, done) => {
        if (request.url === '/answered') void reply.send({ from: 'front' });
        else done();
      }),
    ).toBe(true);
    expect(await get(app, '/answered')).toEqual({ from: 'front' });
    expect(await get(app, '/passed')).toEqual({ from: 'handler' });
    expect(later).toEqual(['/passed']);
  });

  it('passes every request on while unset, and is not set on an instance without the place', async () => {
    const { app, later } = instance(false);
    expect(setFrontRequestHook(app, (_request, reply) => void reply.send({}))).toBe(false);
    expect(await get(app, '/answered')).toEqual({ from: 'handler' });
    expect(later).toEqual(['/answered']);

    const reserved = instance(true);
    expect(await get(reserved.app, '/answered')).toEqual({ from: 'handler' });
  });
});
