import type { Type } from '@nestjs/common';
import type { InputOf, InputShape } from './admin-command.inputs.js';

/** Resolves a provider (by class or injection token) anywhere in the application (Nest `ModuleRef` / application context). */
export interface ServiceLocator {
  get<T>(typeOrToken: Type<T> | symbol, options: { strict: false }): T;
}

/** One command-line option, mapped onto one field of the command's input. */
export interface AdminCommandOption {
  /** Commander flags, e.g. `--org <orgId>`. */
  flags: string;
  /** The input field it fills, e.g. `orgId`. */
  field: string;
  description: string;
  required?: boolean;
  /**
   * A file path: the CLI makes it absolute against its own working directory before sending,
   * because in HTTP mode the server (same machine, same DATA_DIR) opens the file.
   */
  path?: boolean;
}

/**
 * An admin operation: validated input, one service call, a JSON-serialisable result.
 * The CLI (`docproc-admin <group> <action>`) reaches it either over the running server's
 * admin endpoint (`POST /admin/v1/commands/<name>`) or directly on the DuckDB file; both
 * paths validate the input and run `run` the same way (admin-command.run.ts).
 */
export interface AdminCommand<S extends InputShape = InputShape, TResult = unknown> {
  /** `group.action`, e.g. `org.create` for `docproc-admin org create`. */
  name: string;
  description: string;
  options: AdminCommandOption[];
  /** The rules the input is checked against (admin-command.inputs.ts). */
  input: S;
  /**
   * The command needs the usage plane (ingestion, Kafka): docproc-admin's direct path then
   * opens the full admin application context instead of the account services alone.
   */
  usagePlane?: boolean;
  run(services: ServiceLocator, input: InputOf<S>): Promise<TResult>;
}

/** What an admin command does, apart from its name, help and options (admin-command-specs.ts). */
export type AdminCommandHandler<S extends InputShape = InputShape, TResult = unknown> = Pick<
  AdminCommand<S, TResult>,
  'input' | 'run' | 'usagePlane'
>;

/** Keeps the input type of `run` tied to the input's rules. */
export function defineHandler<S extends InputShape, TResult>(
  handler: AdminCommandHandler<S, TResult>,
): AdminCommandHandler {
  return handler as unknown as AdminCommandHandler;
}
