import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { API_VERSION_PATTERN, apiVersion } from './api-version.js';

@ApiTags('versions')
@Controller()
export class ApiVersionController {
  /**
   * The API description version, the same string as `info.version` of /openapi.json, as a
   * JSON string: the reductoai SDK's `apiVersion()` declares `APIPromise<string>`.
   */
  @Get('version')
  @Header('content-type', 'application/json; charset=utf-8')
  @ApiOperation({ summary: 'The API description version' })
  @ApiOkResponse({
    schema: { type: 'string', pattern: API_VERSION_PATTERN.source, example: 'v0.1.0-g1a2b3c4' },
  })
  version(): string {
    return JSON.stringify(apiVersion());
  }
}
