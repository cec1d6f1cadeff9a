/**
 * One API call as a client makes it: `Authorization: Bearer <token>` when a token is given,
 * a JSON body when a body is given (a string is sent as it is, to test malformed JSON).
 */
export function apiCall(
  baseUrl: string,
  method: string,
  route: string,
  token?: string,
  body?: unknown,
): Promise<Response> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return fetch(`${baseUrl}${route}`, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}
