// A server of the export benchmarks started on a free port through the specs' helper
// (test/support/free-port.mjs, docs/decisions/0471-benches-and-broker-restart-on-the-spec-free-port-helper.md).
import { startOnFreePort } from '../../test/support/free-port.mjs';

/**
 * Starts `spawnOn(port)`'s process (its stderr piped) on a free port and resolves once it
 * listens there; a start that lost its port is made again on another one. Its stderr still
 * reaches the terminal; its end tells a taken port.
 */
export async function startServerOnFreePort(what, spawnOn, timeoutMs) {
  const { launched, port } = await startOnFreePort(
    what,
    (port) => {
      const child = spawnOn(port);
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        process.stderr.write(chunk);
        stderr = (stderr + chunk).slice(-4000);
      });
      return { child, output: () => stderr };
    },
    timeoutMs,
  );
  return { child: launched.child, port };
}
