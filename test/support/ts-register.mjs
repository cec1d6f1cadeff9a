// Runs docproc's TypeScript sources in a child process without a build (`node --import
// ./test/support/ts-register.mjs src/worker.ts`): the same swc transform jest uses.
import { register } from 'node:module';

register('./ts-hooks.mjs', import.meta.url);
