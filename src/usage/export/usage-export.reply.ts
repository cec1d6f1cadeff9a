import type { FastifyReply } from 'fastify';

/** The export's JSON answer: the cached or computed body as it is, UTF-8. */
export function sendExportJson(reply: FastifyReply, body: Buffer): void {
  void reply.header('Content-Type', 'application/json; charset=utf-8').send(body);
}

/** text/csv wins only when the client names it and does not rank JSON higher. */
export function prefersCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranked = accept.split(',').map((part) => {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return { type: type.trim(), q: q ? Number(q.slice(2)) : 1 };
  });
  const quality = (type: string) =>
    Math.max(0, ...ranked.filter((r) => r.type === type).map((r) => r.q));
  const csv = quality('text/csv');
  return csv > 0 && csv >= quality('application/json');
}
