import { Module } from '@nestjs/common';
import { AdminCommandRunner } from './admin-command.runner.js';

/** The command runner, shared by the HTTP admin endpoint and the CLI's direct mode. */
@Module({
  providers: [AdminCommandRunner],
  exports: [AdminCommandRunner],
})
export class AdminCommandsModule {}
