import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../common/openapi/api-responses.js';
import { ReadinessBody } from '../operations.responses.js';
import { Controller, Get, HttpStatus } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { ReadinessReport, ReadinessService } from '../../common/health/readiness.service.js';

/**
 * Readiness, unlike `/health` (liveness), says whether this instance does its job: 503 when
 * a registered component is stuck, e.g. the usage consumer stopped making progress while
 * the topic has lag (a consumer that silently stops after a rebalance).
 */
@ApiTags('operations (self-hosted)')
@Controller()
export class ReadinessController {
  constructor(private readonly readiness: ReadinessService) {}

  @Get('ready')
  @ApiOperation({ summary: 'Readiness: 503 when a component is stuck' })
  @ApiOkResponse({ type: ReadinessBody })
  @ApiErrors(503)
  ready(): { status: 'ready'; checks: Record<string, ReadinessReport> } {
    const { ready, checks } = this.readiness.evaluate();
    if (!ready) {
      const failing = Object.keys(checks).filter((name) => !checks[name].ready);
      throw new ApiError(
        HttpStatus.SERVICE_UNAVAILABLE,
        'NOT_READY',
        `not ready: ${failing.join(', ')}`,
        { checks },
      );
    }
    return { status: 'ready', checks };
  }
}
