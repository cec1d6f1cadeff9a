import { Controller, Get } from '@nestjs/common';
import { VersionRegistry } from './version-registry.service.js';

/** Model families, their versions, stages and rollout dates, as of now. Public. */
@Controller()
export class VersionsController {
  constructor(private readonly registry: VersionRegistry) {}

  @Get('versions')
  versions(): ReturnType<VersionRegistry['listing']> {
    return this.registry.listing();
  }
}
