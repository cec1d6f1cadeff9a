import { describe, expect, it } from '@jest/globals';
import { rejections, unexplainedRejections } from '../../support/explained-rejections.js';

/** A FAILURES section as the fuzzer prints it: one test case per refusal. */
function output(...cases: [operation: string, status: string, body: object | string][]): string {
  const blocks = cases.map(
    ([operation, status, body], index) =>
      `________________________ ${operation} ________________________\n` +
      `${index + 1}. Test Case ID: Ab${index}\n\n` +
      '- ST202 Schema-valid request rejected\n\n' +
      '    Valid data should have been accepted\n' +
      '    Expected: 2xx, 3xx, 401, 403, 404, 409, 429, 5xx\n\n' +
      `[${status}] Bad Request:\n\n` +
      `    \`${typeof body === 'string' ? body : JSON.stringify(body)}\`\n\n` +
      'Reproduce with:\n\n    curl -X POST http://127.0.0.1:1/x\n\n',
  );
  return (
    'Schemathesis v4\n' +
    '=================================== FAILURES ===================================\n' +
    blocks.join('') +
    '=================================== WARNINGS ===================================\n' +
    '- ST202 Schema-valid request rejected\n[400] x\n\n    `{"error":{"code":"NOT_A_FAILURE"}}`\n'
  );
}

describe('refusals of requests the API description accepts', () => {
  it('reads each refusal of the FAILURES section, an error envelope or each 422 item', () => {
    const text = output(
      ['GET /jobs', '400', { error: { code: 'INVALID_CURSOR', message: 'cursor is unknown' } }],
      [
        'POST /split',
        '422',
        {
          detail: [
            { type: 'pin_precondition_missing', msg: 'needs deep_split' },
            { type: 'string_pattern_mismatch', msg: 'Input should be a section name, not blank' },
          ],
        },
      ],
    );
    expect(rejections(text)).toEqual([
      { operation: 'GET /jobs', reason: '400 INVALID_CURSOR: cursor is unknown' },
      { operation: 'POST /split', reason: '422 pin_precondition_missing: needs deep_split' },
      {
        operation: 'POST /split',
        reason: '422 string_pattern_mismatch: Input should be a section name, not blank',
      },
    ]);
  });

  it('lets through only the refusals a schema cannot state', () => {
    const text = output(
      [
        'POST /parse',
        '400',
        {
          error: {
            code: 'INPUT_URL_BLOCKED',
            message: 'Refusing to connect to 0.com: not in FETCH_ALLOW_HOSTS',
          },
        },
      ],
      [
        'POST /api/v1/orgs/{orgId}/alerts',
        '400',
        {
          error: { code: 'INVALID_THRESHOLD', message: 'threshold must be greater than 0, got 0' },
        },
      ],
      [
        'POST /classify',
        '422',
        { detail: [{ type: 'string_pattern_mismatch', msg: 'Input should be a category label' }] },
      ],
      [
        'POST /edit',
        '422',
        '{"detail":[{"loc":["body"],"type":"model_version_unknown","msg":"Unknown"},' +
          '{"loc":["body","page_range",0],"type":"value_error","msg":"Value error, start must not be greater than end // Output truncated...',
      ],
      [
        'POST /classify',
        '422',
        { detail: [{ type: 'value_error', msg: 'Value error, at most 10 pages can be selected' }] },
      ],
      [
        'POST /api/v1/orgs/{orgId}/metadata-keys',
        '400',
        {
          error: {
            code: 'METADATA_KEY_REJECTED',
            message:
              'metadata key "team" cannot be enabled: its usage tracking was deleted, and usage is not broken out by it again',
          },
        },
      ],
      [
        'POST /api/v1/orgs/{orgId}/metadata-keys',
        '400',
        { error: { code: 'METADATA_KEY_REJECTED', message: 'key refused for another reason' } },
      ],
    );
    expect(unexplainedRejections(text).map((r) => r.reason)).toEqual([
      '400 INVALID_THRESHOLD: threshold must be greater than 0, got 0',
      '422 string_pattern_mismatch: Input should be a category label',
      '400 METADATA_KEY_REJECTED: key refused for another reason',
    ]);
  });

  it('finds nothing in an output without failures', () => {
    expect(rejections('Schemathesis v4\n=== SUMMARY ===\nall passed\n')).toEqual([]);
  });
});
