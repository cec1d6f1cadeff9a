import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ManualClock } from '../../../src/common/clock.js';
import { registeredRoutes } from '../../../src/processing/versions/api-description.js';
import { startTestApp, TestApp } from '../../support/test-app.js';

interface Listing {
  now: string;
  families: {
    family: string;
    pin_field: string | null;
    default: string | null;
    versions: { version: string; stage: string; pinnable: boolean; frozen_snapshot: boolean }[];
  }[];
}

function stages(listing: Listing): Record<string, Record<string, string>> {
  return Object.fromEntries(
    listing.families.map((f) => [
      f.family,
      Object.fromEntries(f.versions.map((v) => [v.version, v.stage])),
    ]),
  );
}

describe('GET /versions over the seeded registry', () => {
  const clock = new ManualClock(new Date('2026-11-21T12:00:00Z'));
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({}, { clock });
  });
  afterAll(async () => {
    await t.close();
  });

  async function listing(): Promise<Listing> {
    const res = await fetch(`${t.baseUrl}/versions`);
    expect(res.status).toBe(200);
    return (await res.json()) as Listing;
  }

  it('shows every family at a different point of its rollout on 2026-11-21', async () => {
    const body = await listing();
    expect(body.now).toBe('2026-11-21T12:00:00.000Z');
    expect(stages(body)).toEqual({
      classifier: { 'classify-v1': 'removed', 'classify-v2': 'default' },
      deep_extract_model: {
        'deep-extract-v1': 'removed',
        'deep-extract-v2': 'default',
        'deep-extract-v3': 'alpha',
      },
      deep_split_model: { 'deep-split-v1': 'deprecated', 'deep-split-v2': 'default' },
      edit_model: { 'edit-v1': 'default' },
      extract_model: {
        'extract-v1': 'removed',
        'extract-v2': 'deprecated',
        'extract-v3': 'default',
      },
      layout_model: { 'layout-v2': 'removed', 'layout-v3': 'default', 'layout-v4': 'alpha' },
    });
    const layout = body.families.find((f) => f.family === 'layout_model');
    expect(layout).toMatchObject({
      pin_field: 'settings.alpha.layout_model',
      default: 'layout-v3',
    });
    const classifier = body.families.find((f) => f.family === 'classifier');
    expect(classifier?.pin_field).toBeNull();
    expect(classifier?.versions.every((v) => !v.pinnable)).toBe(true);
  });

  it('moves stages with the clock: layout-v4 becomes default in its week 3', async () => {
    clock.set('2026-11-30T00:00:00Z');
    const body = await listing();
    expect(stages(body).layout_model).toEqual({
      'layout-v2': 'removed',
      'layout-v3': 'deprecated',
      'layout-v4': 'default',
    });
    expect(stages(body).extract_model['extract-v2']).toBe('removed');
    expect(stages(body).deep_extract_model['deep-extract-v3']).toBe('default');
    clock.set('2026-11-21T12:00:00Z');
  });
});

describe('frozen model snapshots (self-hosted)', () => {
  it('lists a removed version as pinnable when FROZEN_MODEL_SNAPSHOTS names it', async () => {
    const clock = new ManualClock(new Date('2026-11-21T12:00:00Z'));
    const t = await startTestApp({ FROZEN_MODEL_SNAPSHOTS: 'layout_model:layout-v2' }, { clock });
    try {
      const body = (await (await fetch(`${t.baseUrl}/versions`)).json()) as Listing;
      const v2 = body.families
        .find((f) => f.family === 'layout_model')
        ?.versions.find((v) => v.version === 'layout-v2');
      expect(v2).toMatchObject({ stage: 'removed', pinnable: true, frozen_snapshot: true });
    } finally {
      await t.close();
    }
  });

  it('refuses to start when a frozen snapshot names a version the registry lacks', async () => {
    await expect(
      startTestApp({ FROZEN_MODEL_SNAPSHOTS: 'layout_model:layout-v0' }),
    ).rejects.toThrow(/FROZEN_MODEL_SNAPSHOTS.*layout-v0/);
  });
});

describe('API description version', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves /openapi.json with info.version v<major>.<minor>.<patch>-<suffix>, equal to GET /version', async () => {
    const res = await fetch(`${t.baseUrl}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      info: { version: string };
      paths: Record<string, unknown>;
    };
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.version).toMatch(/^v\d+\.\d+\.\d+-[0-9A-Za-z.-]+$/);
    const version = (await (await fetch(`${t.baseUrl}/version`)).json()) as string;
    expect(version).toBe(doc.info.version);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/versions', '/version', '/health', '/api/v1/usage/export']),
    );
  });

  it('documents every route the server registers', async () => {
    const doc = (await (await fetch(`${t.baseUrl}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    const routes = registeredRoutes(t.app)
      .filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && r.path !== '/openapi.json')
      .filter((r) => r.path !== '*' && r.path !== '/*')
      // Not API: the admin CLI's transport, the reference page, the dashboard page.
      .filter((r) => !/^\/(admin\/|docs|dashboard|$)/.test(r.path))
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(routes).toEqual(expect.arrayContaining(['GET /versions', 'GET /api/v1/usage/export']));
    expect(routes.filter((r) => !documented.has(r))).toEqual([]);
  });
});
