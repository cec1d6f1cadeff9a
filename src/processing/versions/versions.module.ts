import { Module } from '@nestjs/common';
import { ModelVersionRepository } from './model-version.repository.js';
import { VersionRegistry } from './version-registry.service.js';
import { VersionsController } from './versions.controller.js';
import { ApiVersionController } from './api-version.controller.js';

/** The model version registry and `GET /versions`; "now" comes from the global CLOCK. */
@Module({
  controllers: [VersionsController, ApiVersionController],
  providers: [ModelVersionRepository, VersionRegistry],
  exports: [VersionRegistry],
})
export class VersionsModule {}
