import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { apiVersion } from './api-version.js';

@ApiTags('versions')
@Controller()
export class ApiVersionController {
  /** The API description version, the same string as `info.version` of /openapi.json. */
  @Get('version')
  @ApiOkResponse({ description: '`{"version":"v<major>.<minor>.<patch>-<build suffix>"}`' })
  version(): { version: string } {
    return { version: apiVersion() };
  }
}
