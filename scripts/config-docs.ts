// `npm run docs:config`: writes docs/configuration.md from src/config/settings.schema.ts
// (`--check` only compares, exit 1 when the file is stale).
import fs from 'node:fs';
import path from 'node:path';
import { renderConfigurationDoc } from '../src/config/configuration-doc.js';

const target = path.resolve(import.meta.dirname, '..', 'docs', 'configuration.md');
const rendered = renderConfigurationDoc();
if (process.argv.includes('--check')) {
  const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
  if (current !== rendered) {
    process.stderr.write('docs/configuration.md is stale: run npm run docs:config\n');
    process.exit(1);
  }
} else {
  fs.writeFileSync(target, rendered);
  process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
}
