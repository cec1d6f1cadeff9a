import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { ReadinessController } from './readiness.controller.js';

/** `/health` (liveness) and `/ready` (readiness, fed by components through ReadinessService). */
@Module({ controllers: [HealthController, ReadinessController] })
export class HealthModule {}
