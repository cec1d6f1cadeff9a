import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { VersionRegistry } from './version-registry.service.js';
import { VersionsBody } from './versions.responses.js';

/** Model families, their versions, stages and rollout dates, as of now. Public. */
@ApiTags('versions')
@Controller()
export class VersionsController {
  constructor(private readonly registry: VersionRegistry) {}

  @Get('versions')
  @ApiOperation({ summary: 'Model families, their versions, stages and rollout dates' })
  @ApiOkResponse({ type: VersionsBody })
  versions(): ReturnType<VersionRegistry['listing']> {
    return this.registry.listing();
  }
}
