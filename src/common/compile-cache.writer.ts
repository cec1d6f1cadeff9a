import module from 'node:module';
import { Injectable, type OnApplicationShutdown } from '@nestjs/common';

/**
 * Writes the code compiled since the start to the compile cache (compile-cache.ts), once the server has stopped
 * serving: Node writes it by itself only when the process exits normally, and a server
 * stopped by a signal never does (the graceful close re-raises the signal). Not at start-up:
 * after a start without a cache it writes ~3,000 files, about a second on the event loop,
 * which then would fall on the first backlog's drain and the first requests. Nothing to
 * write after a start the cache served; nothing at all where the cache is off (the specs'
 * in-process applications).
 */
@Injectable()
export class CompileCacheWriter implements OnApplicationShutdown {
  onApplicationShutdown(): void {
    module.flushCompileCache();
  }
}
