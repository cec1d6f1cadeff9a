import type { Type } from '@nestjs/common';

/** Resolves a provider anywhere in the application (Nest `ModuleRef` / application context). */
export interface ServiceLocator {
  get<T>(type: Type<T>, options: { strict: false }): T;
}

/** One command-line option, mapped onto one field of the command's input DTO. */
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
 * An admin operation: a validated input DTO, one service call, a JSON-serialisable result.
 * The CLI (`docproc-admin <group> <action>`) reaches it either over the running server's
 * admin endpoint (`POST /admin/v1/commands/<name>`) or directly in an application context
 * on the DuckDB file; both paths validate the input and run `run` the same way.
 */
export interface AdminCommand<TInput extends object = object, TResult = unknown> {
  /** `group.action`, e.g. `org.create` for `docproc-admin org create`. */
  name: string;
  description: string;
  options: AdminCommandOption[];
  /** class-validator DTO class the input is validated against. */
  input: Type<TInput>;
  run(services: ServiceLocator, input: TInput): Promise<TResult>;
}

/** What an admin command does, apart from its name, help and options (admin-command-specs.ts). */
export type AdminCommandHandler<TInput extends object = object, TResult = unknown> = Pick<
  AdminCommand<TInput, TResult>,
  'input' | 'run'
>;

/** Keeps the input type of `run` tied to the DTO class. */
export function defineHandler<TInput extends object, TResult>(
  handler: AdminCommandHandler<TInput, TResult>,
): AdminCommandHandler {
  return handler as unknown as AdminCommandHandler;
}
