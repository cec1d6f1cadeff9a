/** How the CLI reaches the admin commands: the running server, or the DuckDB file itself. */
export interface AdminTransport {
  readonly mode: 'http' | 'direct';
  run(name: string, input: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}
