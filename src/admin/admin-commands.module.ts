import { AccountsModule } from '../accounts/accounts.module.js';
import { UsageModule } from '../usage/usage.module.js';
import { Module } from '@nestjs/common';
import { AdminCommandRunner } from './admin-command.runner.js';

/** The command runner, shared by the HTTP admin endpoint and the CLI's direct mode. */
@Module({
  imports: [AccountsModule, UsageModule],
  providers: [AdminCommandRunner],
  exports: [AdminCommandRunner],
})
export class AdminCommandsModule {}
