import { Global, Module } from '@nestjs/common';
import { ReadinessService } from './readiness.service.js';

/**
 * Infrastructure every plane may report into: components register their readiness checks
 * here (the Kafka usage consumer first), and the operations plane's `/ready` reads them, so
 * no plane imports operations to be probed.
 */
@Global()
@Module({ providers: [ReadinessService], exports: [ReadinessService] })
export class ReadinessModule {}
