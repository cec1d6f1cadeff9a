import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { runAdminCommand } from './admin-command.run.js';

/** The admin commands as a Nest provider, for the running server's admin endpoint. */
@Injectable()
export class AdminCommandRunner {
  constructor(private readonly moduleRef: ModuleRef) {}

  run(name: string, rawInput: unknown): Promise<unknown> {
    return runAdminCommand(this.moduleRef, name, rawInput);
  }
}
