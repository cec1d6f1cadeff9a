import { Controller, Get } from '@nestjs/common';

/**
 * HTTP liveness only: it answers while the HTTP process's event loop turns. It says
 * nothing about workers (their liveness is the watchdog file and its exec probe).
 */
@Controller()
export class HealthController {
  @Get('health')
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
