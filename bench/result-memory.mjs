// `npm run build && node bench/result-memory.mjs [-- --parses 8] [--operation parse|pipeline]`
// (not part of the tests): how much memory large results cost the API process. The built
// server with its defaults parses a ~1.1 MB text (a ~5 MB JSON result) `--parses` times as
// sync `/parse` requests, two at a time, then reads each result back once with `GET /job`.
// `--operation pipeline` runs a stored pipeline of a split and an extract step on the same
// text instead (`/pipeline`: the parse's result and both steps' in one result). Prints the
// API process's resident size before, its peak (VmHWM) during each phase, and the
// executors' peak apart.
/* global fetch, FormData, Blob */
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { startServer } from './lib/server-under-test.mjs';

const { values: args } = parseArgs({
  options: {
    parses: { type: 'string', default: '8' },
    bytes: { type: 'string', default: '1100000' },
    operation: { type: 'string', default: 'parse' },
  },
});
if (!['parse', 'pipeline'].includes(args.operation)) throw new Error('--operation parse|pipeline');
const PARSES = Number(args.parses);

const emit = (line) => process.stdout.write(`${line}\n`);

function status(pid, field) {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)[1]) / 1024);
}

/** Resets the process's peak RSS (VmHWM) to its current RSS (Linux: clear_refs 5). */
function resetPeak(pid) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

function text(bytes) {
  const words = 'invoice amount due total payment terms delivery note customer order'.split(' ');
  const parts = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const word = words[i % words.length] + (i % 12 === 11 ? '.\n' : ' ');
    parts.push(word);
    size += word.length;
  }
  return parts.join('');
}

async function main() {
  emit(
    `machine: ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, node ${process.version}`,
  );
  const server = await startServer({ LOG_LEVEL: 'warn' });
  const pid = server.child.pid;
  const auth = { authorization: `Bearer ${server.key}` };
  const form = new FormData();
  form.append('file', new Blob([text(Number(args.bytes))]), 'large.txt');
  const uploaded = await (
    await fetch(`${server.base}/upload`, { method: 'POST', headers: auth, body: form })
  ).json();
  const post = (route, body) =>
    fetch(`${server.base}${route}`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const pipeline =
    args.operation === 'pipeline'
      ? await (
          await post('/pipelines', {
            name: 'large results',
            steps: [
              { split: { split_description: [{ name: 'order', description: 'Orders' }] } },
              {
                extract: {
                  instructions: {
                    schema: {
                      type: 'object',
                      properties: { total: { type: 'string', description: 'Total amount due' } },
                    },
                  },
                },
              },
            ],
          })
        ).json()
      : null;
  const parse = async () => {
    const started = performance.now();
    const res = pipeline
      ? await post('/pipeline', { input: uploaded.file_id, pipeline_id: pipeline.pipeline_id })
      : await post('/parse', { input: uploaded.file_id });
    const body = await res.text();
    if (res.status !== 200) {
      throw new Error(`${args.operation} answered ${res.status}: ${body.slice(0, 300)}`);
    }
    return { jobId: JSON.parse(body).job_id, bytes: body.length, ms: performance.now() - started };
  };
  // Warm-up: the executors start, the first result is written.
  await parse();
  const rssBefore = status(pid, 'VmRSS');
  const resettable = resetPeak(pid);
  const parses = [];
  for (let i = 0; i < PARSES; i += 2) {
    parses.push(...(await Promise.all([parse(), ...(i + 1 < PARSES ? [parse()] : [])])));
  }
  const peakParses = status(pid, 'VmHWM');
  const rssAfterParses = status(pid, 'VmRSS');
  resetPeak(pid);
  for (const { jobId } of parses) {
    const res = await fetch(`${server.base}/job/${jobId}`, { headers: auth });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET /job answered ${res.status}`);
  }
  const peakReads = status(pid, 'VmHWM');
  const executorsPeak = Math.round(server.peakKb() / 1024) - peakParses;
  emit(
    `${PARSES} sync ${args.operation} requests on ${Number(args.bytes)} bytes of text, two at a time: result ${(parses[0].bytes / 1048576).toFixed(2)} MB of JSON, ` +
      `p50 ${Math.round(parses.map((p) => p.ms).sort((a, b) => a - b)[Math.floor(parses.length / 2)])} ms`,
  );
  emit(`API RSS before: ${rssBefore} MB; after the parses: ${rssAfterParses} MB`);
  emit(
    `API peak RSS during the parses: ${peakParses} MB (+${peakParses - rssBefore}); during the GET /job reads: ${peakReads} MB` +
      (resettable ? '' : ' (VmHWM not resettable here: peaks since the start)'),
  );
  emit(`whole tree peak minus the API peak (executors, roughly): ${executorsPeak} MB`);
  await server.stop();
}

await main();
