import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ApiError } from '../common/api-error.js';
import { bodyValidationPipe } from '../accounts/dashboard/body-validation.pipe.js';
import type { AdminCommand } from './admin-command.js';
import { ADMIN_COMMANDS } from './admin-commands.js';

/** Validates a command's input and runs it; the one entry point of both CLI transports. */
@Injectable()
export class AdminCommandRunner {
  private readonly commands = new Map(ADMIN_COMMANDS.map((c) => [c.name, c]));
  private readonly validation = bodyValidationPipe('INVALID_ARGUMENTS');

  constructor(private readonly moduleRef: ModuleRef) {}

  find(name: string): AdminCommand {
    const command = this.commands.get(name);
    if (!command) throw ApiError.notFound('UNKNOWN_COMMAND', `No admin command "${name}"`);
    return command;
  }

  async run(name: string, rawInput: unknown): Promise<unknown> {
    const command = this.find(name);
    const input = (await this.validation.transform(rawInput ?? {}, {
      type: 'body',
      metatype: command.input,
    })) as object;
    return (await command.run(this.moduleRef, input)) ?? { ok: true };
  }
}
