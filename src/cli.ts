#!/usr/bin/env node
import nodeModule from 'node:module';

// Node keeps the compiled code of the modules a run loads (under the OS temp directory)
// and reuses it on the next run: ~0.05 s of CPU of docproc-admin's 0.5 s budget (`tsc`
// does the same). A cache that cannot be written is skipped. It must be on before the
// CLI's modules load, hence the dynamic import. Looked up, not imported by name, so that an
// unsupported Node without it still runs the CLI (and says what it says) instead of failing
// at link time.
nodeModule.enableCompileCache?.();
await import('./cli/main.js');
