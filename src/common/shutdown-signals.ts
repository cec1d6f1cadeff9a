/**
 * The signals that ask a docproc process to stop gracefully. Nest's default list also has
 * SIGSEGV, SIGBUS, SIGABRT and the other fault signals; listening to those turns a native
 * crash into a hang (the faulting thread re-faults forever while the main thread runs a
 * graceful close that waits for it), holding the DuckDB file lock instead of exiting.
 */
export const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'];
