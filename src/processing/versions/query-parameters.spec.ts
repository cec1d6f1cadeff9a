import { afterEach, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { refuseUnknownQueryParameters } from './query-parameters.js';

describe('unknown query parameters', () => {
  const started: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((fastify) => fastify.close()));
  });

  /** A server with `GET /jobs?limit=` declared; counts the builds of its description. */
  async function server() {
    const fastify = Fastify();
    started.push(fastify);
    const builds = { count: 0 };
    const document = (): OpenAPIObject => {
      builds.count++;
      return {
        openapi: '3.1.0',
        info: { title: 'docproc', version: '1' },
        paths: {
          '/jobs': {
            get: {
              responses: {},
              parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }],
            },
          },
        },
      };
    };
    const app = { getHttpAdapter: () => ({ getInstance: () => fastify }) };
    refuseUnknownQueryParameters(app as unknown as NestFastifyApplication, document, () => true);
    fastify.get('/jobs', async () => ({ jobs: [] }));
    await fastify.listen({ port: 0, host: '127.0.0.1' });
    const address = fastify.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening');
    const get = (path: string) => fetch(`http://127.0.0.1:${address.port}${path}`);
    return { get, builds };
  }

  it('answers a request without a query before the description is built', async () => {
    const { get, builds } = await server();
    expect((await get('/jobs')).status).toBe(200);
    expect((await get('/jobs?')).status).toBe(200);
    expect(builds.count).toBe(0);
  });

  it('builds the description once, at the first query, and refuses unknown names', async () => {
    const { get, builds } = await server();
    expect((await get('/jobs?limit=5')).status).toBe(200);
    const refused = await get('/jobs?limt=5');
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual({
      detail: [
        {
          loc: ['query', 'limt'],
          msg: 'Extra inputs are not permitted',
          type: 'extra_forbidden',
          input: '5',
        },
      ],
    });
    expect(builds.count).toBe(1);
  });
});
