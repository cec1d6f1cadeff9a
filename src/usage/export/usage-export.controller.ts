import { Readable } from 'node:stream';
import { Controller, Get, Headers, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AccountAuthGuard } from '../../accounts/auth/account-auth.guard.js';
import { CurrentPrincipal } from '../../accounts/auth/current-principal.decorator.js';
import { MEMBERS, OrgAccess } from '../../accounts/auth/org-access.decorator.js';
import type { AccountPrincipal } from '../../accounts/principal.js';
import { applyDecorators } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ApiAccountAuth, ApiErrors } from '../../common/openapi/api-responses.js';
import { UsageExportBody } from '../usage.responses.js';
import { parseUsageExportQuery, USAGE_EXPORT_PARAMETERS } from './usage-export.query.js';

/** Repeatable parameters are sent by repeating the name (`product=a&product=b`). */
const ApiUsageExportQuery = () =>
  applyDecorators(
    ...USAGE_EXPORT_PARAMETERS.map(({ name, description, schema, repeatable, maxItems }) =>
      ApiQuery({
        name,
        description,
        required: false,
        schema: repeatable
          ? { type: 'array', items: schema, ...(maxItems ? { maxItems, uniqueItems: true } : {}) }
          : schema,
        ...(repeatable ? { style: 'form', explode: true } : {}),
      }),
    ),
  );
import { UsageExportService, ResolvedExport } from './usage-export.service.js';
import { csvFileName, csvHeader, csvRow } from './usage-export.serializer.js';
import { UsageExportMarks } from './usage-export-marks.service.js';
import { prefersCsv, sendExportJson } from './usage-export.reply.js';

@ApiTags('usage')
@ApiExtraModels(UsageExportBody)
@ApiAccountAuth()
@Controller('api/v1/usage')
@UseGuards(AccountAuthGuard)
export class UsageExportController {
  constructor(
    private readonly exports: UsageExportService,
    private readonly marks: UsageExportMarks,
  ) {}

  /** Credits and requests per day and group; CSV for finance when the client accepts text/csv. */
  @Get('export')
  // Every member reads the org's usage; `orgId` may be left out (the service picks the org).
  @OrgAccess(MEMBERS, { from: 'query', field: 'orgId', optional: true })
  @ApiOperation({ summary: 'Credits and request counts per day and group (JSON, or CSV)' })
  @ApiUsageExportQuery()
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({
    description:
      'JSON; CSV (`date,group,credits,requestCount`, with `subgroup` after `group` for two ' +
      'dimensions) when `Accept` prefers text/csv',
    content: {
      'application/json': { schema: { $ref: getSchemaPath(UsageExportBody) } },
      'text/csv': { schema: { type: 'string' } },
    },
  })
  @ApiErrors(400, 403)
  async export(
    @CurrentPrincipal() principal: AccountPrincipal,
    @Query() rawQuery: Record<string, string | string[]>,
    @Headers('accept') accept: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const resolved = await this.exports.resolve(principal, parseUsageExportQuery(rawQuery));
    this.marks.recordExport(resolved.orgId, resolved.query.startDate, resolved.query.endDate);
    if (prefersCsv(accept)) {
      void reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header(
          'Content-Disposition',
          `attachment; filename="${csvFileName(resolved.orgId, resolved.query)}"`,
        )
        .send(Readable.from(this.csvLines(resolved)));
      return;
    }
    sendExportJson(reply, await this.exports.jsonBody(resolved));
  }

  private async *csvLines(resolved: ResolvedExport): AsyncGenerator<string> {
    yield csvHeader(resolved.query);
    for await (const chunk of this.exports.stream(resolved)) yield chunk.map(csvRow).join('');
  }
}
