import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { apiVersion } from './api-version.js';

@ApiTags('versions')
@Controller()
export class ApiVersionController {
  /**
   * The API description version, the same string as `info.version` of /openapi.json, as a
   * JSON string: the reductoai SDK's `apiVersion()` declares `APIPromise<string>`.
   */
  @Get('version')
  @Header('content-type', 'application/json; charset=utf-8')
  @ApiOkResponse({ description: '`"v<major>.<minor>.<patch>-<build suffix>"`' })
  version(): string {
    return JSON.stringify(apiVersion());
  }
}
