import { describe, expect, it } from '@jest/globals';
import { lostResources } from '../../support/har-resource-availability.js';

function entry(
  at: number,
  method: string,
  url: string,
  status: number,
  body?: object,
  answer?: object,
) {
  return {
    startedDateTime: new Date(Date.UTC(2026, 10, 26, 0, 0, at)).toISOString(),
    request: {
      method,
      url: `http://127.0.0.1:1${url}`,
      postData: body ? { text: JSON.stringify(body) } : undefined,
    },
    response: { status, content: { text: answer ? JSON.stringify(answer) : '' } },
  };
}

const ID = 'pl_034e62db-22d2-4486-8e89-4e4276b73597';

function notFound(at: number, method: string, url: string, body?: object) {
  const answer = { error: { code: 'PIPELINE_NOT_FOUND', message: `No pipeline ${ID}` } };
  return entry(at, method, url, 404, body, answer);
}

const created = entry(1, 'POST', '/pipelines', 201, { name: 'x' }, { pipeline_id: ID });

describe('created resources found again in recorded traffic', () => {
  it('reports a 404 for an id a 201 returned, named in a body', () => {
    const lost = lostResources([created, notFound(2, 'POST', '/pipeline', { pipeline_id: ID })]);
    expect(lost).toEqual([{ id: ID, createdBy: 'POST /pipelines', notFoundBy: 'POST /pipeline' }]);
  });

  it('reports a 404 for an id named in a path', () => {
    expect(lostResources([created, notFound(2, 'GET', `/pipelines/${ID}`)])).toHaveLength(1);
  });

  it('accepts a 404 after a successful DELETE of the id, in whatever order entries are listed', () => {
    const entries = [
      notFound(3, 'POST', '/pipeline', { pipeline_id: ID }),
      entry(2, 'DELETE', `/pipelines/${ID}`, 200),
      created,
    ];
    expect(lostResources(entries)).toEqual([]);
  });

  it('leaves out a 404 about another thing of the request (its input file)', () => {
    const answer = {
      error: { code: 'FILE_NOT_FOUND', message: 'No uploaded file docproc://a.pdf' },
    };
    const missingInput = entry(2, 'POST', '/pipeline', 404, { pipeline_id: ID }, answer);
    expect(lostResources([created, missingInput])).toEqual([]);
  });

  it('does not take a failed DELETE for a deletion', () => {
    const entries = [
      created,
      entry(2, 'DELETE', `/pipelines/${ID}`, 403),
      notFound(3, 'POST', '/pipeline', { pipeline_id: ID }),
    ];
    expect(lostResources(entries)).toHaveLength(1);
  });
});
