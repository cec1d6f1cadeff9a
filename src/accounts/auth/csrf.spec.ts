import { describe, expect, it } from '@jest/globals';
import { crossSiteRefusal, originOf } from './csrf.js';

const own = ['http://localhost:3000', 'http://127.0.0.1:3000'];
const facts = (patch: Partial<Parameters<typeof crossSiteRefusal>[0]>) => ({
  method: 'POST',
  origin: undefined,
  fetchSite: undefined,
  ownOrigins: own,
  ...patch,
});

describe('crossSiteRefusal', () => {
  it('lets safe methods through whatever their origin', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'get']) {
      expect(
        crossSiteRefusal(
          facts({ method, origin: 'https://evil.example', fetchSite: 'cross-site' }),
        ),
      ).toBeNull();
    }
  });

  it('accepts a state-changing request from this origin', () => {
    expect(
      crossSiteRefusal(facts({ origin: 'http://127.0.0.1:3000', fetchSite: 'same-origin' })),
    ).toBeNull();
  });

  it('accepts a request that sends neither header (non-browser clients)', () => {
    expect(crossSiteRefusal(facts({ method: 'DELETE' }))).toBeNull();
  });

  it('refuses another origin, including the opaque "null" origin', () => {
    expect(crossSiteRefusal(facts({ origin: 'https://evil.example' }))).toMatch(
      /origin https:\/\/evil.example/,
    );
    expect(crossSiteRefusal(facts({ origin: 'null' }))).not.toBeNull();
    expect(crossSiteRefusal(facts({ origin: 'http://localhost:3001' }))).not.toBeNull();
  });

  it('refuses cross-site and same-site (sibling subdomain) fetches by Fetch Metadata', () => {
    expect(crossSiteRefusal(facts({ fetchSite: 'cross-site' }))).toMatch(/cross-site/);
    expect(crossSiteRefusal(facts({ fetchSite: 'same-site' }))).toMatch(/same-site/);
    expect(crossSiteRefusal(facts({ fetchSite: 'none' }))).toBeNull();
  });
});

describe('originOf', () => {
  it('gives the origin of an absolute URL and null for anything else', () => {
    expect(originOf('https://docproc.example/base/')).toBe('https://docproc.example');
    expect(originOf('not a url')).toBeNull();
  });
});
