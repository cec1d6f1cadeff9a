import { expect } from '@jest/globals';

/**
 * The body of `GET /api/v1/usage/export?<search>` for an account key, asserting a 200 (a
 * refusal's body is shown in the failure, an answer's is not).
 */
export async function usageExportText(
  baseUrl: string,
  accountKey: string,
  search: URLSearchParams,
): Promise<string> {
  const res = await fetch(`${baseUrl}/api/v1/usage/export?${search}`, {
    headers: { authorization: `Bearer ${accountKey}` },
  });
  const text = await res.text();
  expect({ status: res.status, text: res.status === 200 ? '' : text }).toEqual({
    status: 200,
    text: '',
  });
  return text;
}
