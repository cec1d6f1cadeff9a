import type { ServiceLocator } from './admin-command.js';
import { validateInput } from './admin-command.inputs.js';
import { findAdminCommand } from './admin-commands.js';

/**
 * Validates a command's input and runs it over `services`: the one entry point of both CLI
 * transports (the server's admin endpoint through `AdminCommandRunner`, the direct path
 * over the services it builds). No Nest here, so the direct path need not load it.
 */
export async function runAdminCommand(
  services: ServiceLocator,
  name: string,
  rawInput: unknown,
): Promise<unknown> {
  const command = findAdminCommand(name);
  const input = validateInput(command.input, rawInput);
  return (await command.run(services, input)) ?? { ok: true };
}
