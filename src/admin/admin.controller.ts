import { ApiExcludeController } from '@nestjs/swagger';
import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { AdminCommandRunner } from './admin-command.runner.js';
import { AdminTokenGuard } from './admin-token.guard.js';

/**
 * The admin endpoint `docproc-admin` uses while this server owns the DuckDB file. Only the
 * token of DATA_DIR/admin.json opens it; it is not part of the public API (left out of the
 * API description).
 */
@ApiExcludeController()
@Controller('admin/v1')
@UseGuards(AdminTokenGuard)
export class AdminController {
  constructor(private readonly runner: AdminCommandRunner) {}

  @Get('ping')
  ping(): { pid: number } {
    return { pid: process.pid };
  }

  @Post('commands/:name')
  @HttpCode(200)
  run(@Param('name') name: string, @Body() body: unknown): Promise<unknown> {
    return this.runner.run(name, body);
  }
}
