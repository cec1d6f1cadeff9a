// A tiny HTTP wrapper around the PostgreSQL baseline, so that the comparison can be like
// with like: an HTTP request to a Node process that queries the database (a pg.Pool,
// prepared statements) and writes JSON, as docproc's export does. It serves every variant
// of postgres.mjs (narrow, rollups, raw) and every question of the benchmark (zones, two
// dimensions). Started by usage-export.bench.mjs as a child process:
//   node pg-http.mjs '<connection json>'   -> prints the port on stdout
import http from 'node:http';
import { URL } from 'node:url';
import pg from 'pg';
import { pgExportSql } from './postgres.mjs';

const pool = new pg.Pool({ ...JSON.parse(process.argv[2]), max: 4 });

/** The question of a request: its grouped dimensions and time zone (UTC when absent). */
function questionOf(q) {
  return { dimensions: q.groupBy.split(','), timeZone: q.timeZone ?? 'UTC' };
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/health') {
      // The HTTP floor of this wrapper, without PostgreSQL (floor.mjs).
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"ok"}');
      return;
    }
    const q = Object.fromEntries(url.searchParams);
    const question = questionOf(q);
    const text = pgExportSql(q.variant, question);
    if (text === null) throw new Error(`variant ${q.variant} cannot answer ${q.groupBy}`);
    const params = [q.orgId, q.startDate, q.endDate];
    if (q.metadataKey) params.push(q.metadataKey);
    if (question.timeZone !== 'UTC') params.push(question.timeZone);
    const local = question.timeZone === 'UTC' ? 'utc' : 'local';
    const result = await pool.query({
      name: `${q.variant}-${q.groupBy}-${local}`,
      text,
      values: params,
    });
    const data = result.rows.map((r) => ({
      date: r.date,
      group: r.grp,
      ...(r.grp2 === undefined ? {} : { subgroup: r.grp2 }),
      credits: r.credits,
      requestCount: Number(r.request_count),
    }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        orgId: q.orgId,
        startDate: q.startDate,
        endDate: q.endDate,
        groupBy: q.groupBy,
        ...(q.timeZone ? { timeZone: q.timeZone } : {}),
        data,
      }),
    );
  } catch (error) {
    res.writeHead(500);
    res.end(String(error));
  }
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
