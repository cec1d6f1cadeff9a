import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthBody } from '../operations.responses.js';
import { Controller, Get } from '@nestjs/common';

/**
 * HTTP liveness only: it answers while the HTTP process's event loop turns. It says
 * nothing about workers (their liveness is the watchdog file and its exec probe).
 */
@ApiTags('operations (self-hosted)')
@Controller()
export class HealthController {
  @Get('health')
  @ApiOperation({ summary: 'HTTP liveness' })
  @ApiOkResponse({ type: HealthBody })
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
