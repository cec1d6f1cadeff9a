import { DynamicModule, Global, Module } from '@nestjs/common';
import { CLOCK, systemClock, type Clock } from '../../common/clock.js';
import { ModelVersionRepository } from './model-version.repository.js';
import { VersionRegistry } from './version-registry.service.js';
import { VersionsController } from './versions.controller.js';
import { ApiVersionController } from './api-version.controller.js';

/** The model version registry and `GET /versions`. */
@Global()
@Module({})
export class VersionsModule {
  /** `clock` is replaced by tests that need a given date; production uses the system clock. */
  static forRoot(clock: Clock = systemClock): DynamicModule {
    return {
      module: VersionsModule,
      controllers: [VersionsController, ApiVersionController],
      providers: [ModelVersionRepository, VersionRegistry, { provide: CLOCK, useValue: clock }],
      exports: [VersionRegistry, CLOCK],
    };
  }
}
