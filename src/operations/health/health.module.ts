import { Global, Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { ReadinessController } from './readiness.controller.js';
import { ReadinessService } from './readiness.service.js';

/** `/health` (liveness) and `/ready` (readiness, fed by components through ReadinessService). */
@Global()
@Module({
  controllers: [HealthController, ReadinessController],
  providers: [ReadinessService],
  exports: [ReadinessService],
})
export class HealthModule {}
