// Module hooks for ts-register.mjs: `./x.js` imports resolve to `./x.ts` beside them, and
// .ts files are compiled with @swc/core (decorators and their metadata, as in jest.config.js).
import fs from 'node:fs';
import { fileURLToPath, URL } from 'node:url';
import swc from '@swc/core';

export async function resolve(specifier, context, nextResolve) {
  if (
    context.parentURL?.startsWith('file:') &&
    !context.parentURL.includes('/node_modules/') &&
    /^\.{1,2}\//.test(specifier) &&
    specifier.endsWith('.js')
  ) {
    const ts = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
    if (fs.existsSync(fileURLToPath(ts)))
      return { url: ts.href, format: 'module', shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const source = fs.readFileSync(fileURLToPath(url), 'utf8');
  const { code } = swc.transformSync(source, {
    filename: fileURLToPath(url),
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'es6' },
    sourceMaps: 'inline',
  });
  return { format: 'module', source: code, shortCircuit: true };
}
