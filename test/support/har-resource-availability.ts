/**
 * Schemathesis' "created resource not found" check (ST302) recognizes a deletion only when
 * the DELETE's path is a prefix of the failing request's path. A resource named in a request
 * body (`POST /pipeline {"pipeline_id": ...}`) and deleted through `DELETE /pipelines/{id}`
 * is therefore reported as lost although the API answered 404 rightly. This is the same check
 * over the run's recorded traffic, for ids in paths and in bodies: a 404 whose answer names an
 * id a 201 returned (this API's 404s name what they did not find; a 404 for another thing of
 * the request, such as its input file, is not about the resource) is a failure unless a
 * successful DELETE of that id came before it.
 */

interface HarEntry {
  startedDateTime: string;
  request: { method: string; url: string; postData?: { text?: string } };
  response: { status: number; content: { text?: string } };
}

export interface LostResource {
  id: string;
  createdBy: string;
  notFoundBy: string;
}

/** The string values of keys ending in `_id` in a JSON document (nested objects included). */
function idsIn(text: string | undefined): string[] {
  if (!text) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const ids: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, inner] of Object.entries(node)) {
        if (key.endsWith('_id') && typeof inner === 'string' && inner.length >= 8) ids.push(inner);
        else visit(inner);
      }
    }
  };
  visit(value);
  return ids;
}

export function lostResources(entries: readonly HarEntry[]): LostResource[] {
  const ordered = [...entries].sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime));
  const created = new Map<string, string>();
  const deleted = new Set<string>();
  const lost: LostResource[] = [];
  for (const { request, response } of ordered) {
    const label = `${request.method} ${new URL(request.url).pathname}`;
    const named = [...created.keys()].filter(
      (id) => request.url.includes(id) || (request.postData?.text ?? '').includes(id),
    );
    if (request.method === 'DELETE' && response.status >= 200 && response.status < 300) {
      named.forEach((id) => deleted.add(id));
    }
    if (response.status === 404) {
      const answer = response.content.text ?? '';
      for (const id of named.filter((one) => !deleted.has(one) && answer.includes(one))) {
        lost.push({ id, createdBy: created.get(id)!, notFoundBy: label });
      }
    }
    if (response.status === 201) {
      for (const id of idsIn(response.content.text)) created.set(id, label);
    }
  }
  return lost;
}
