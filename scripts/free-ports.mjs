// Prints N distinct free loopback TCP ports (default 1), one per line: the test runner gives
// each run its own Kafka and Redis, so concurrent runs on one machine never share a broker.
import net from 'node:net';

const count = Number(process.argv[2] ?? '1');
const servers = [];
for (let i = 0; i < count; i++) {
  const server = net.createServer();
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  servers.push(server);
}
console.log(servers.map((s) => s.address().port).join('\n'));
await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
