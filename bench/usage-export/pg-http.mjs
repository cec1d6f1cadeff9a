// A tiny HTTP wrapper around the PostgreSQL baseline, so that one column of the table
// compares like with like: an HTTP request to a Node process that queries the database
// and writes JSON. Started by usage-export.bench.mjs as a child process:
//   node pg-http.mjs '<connection json>'   -> prints the port on stdout
import http from 'node:http';
import { URL } from 'node:url';
import pg from 'pg';
import { pgExportSql } from './postgres.mjs';

const pool = new pg.Pool({ ...JSON.parse(process.argv[2]), max: 4 });

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const q = Object.fromEntries(url.searchParams);
    const params = [q.orgId, q.startDate, q.endDate];
    if (q.groupBy === 'metadata') params.push(q.metadataKey);
    const result = await pool.query({
      name: `${q.variant}-${q.groupBy}`,
      text: pgExportSql(q.variant, q.groupBy),
      values: params,
    });
    const data = result.rows.map((r) => ({
      date: r.date,
      group: r.grp,
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
