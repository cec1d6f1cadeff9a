// The server's entry (`npm start`, scripts/server.sh, the image): the compile cache is on
// before the server's modules load (they load here, not through a static import, which
// would load them first).
import { enableCompileCache } from './common/compile-cache.js';

enableCompileCache();
await import('./server.js');
