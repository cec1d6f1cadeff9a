import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import {
  ApiOkResponse,
  ApiOperation,
  ApiProperty,
  ApiQuery,
  ApiSchema,
  ApiTags,
} from '@nestjs/swagger';
import { AccountAuthGuard } from '../../accounts/auth/account-auth.guard.js';
import { MEMBERS, OrgAccess } from '../../accounts/auth/org-access.decorator.js';
import { ApiError } from '../../common/api-error.js';
import { ApiAccountAuth, ApiErrors } from '../../common/openapi/api-responses.js';
import { UsageExportMarks } from './usage-export-marks.service.js';
import type { RevisedDay } from './usage-export-marks.repository.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MAX_DAYS = 366;

@ApiSchema({ name: 'RevisedUsageDay' })
class RevisedUsageDayBody {
  @ApiProperty({ format: 'date', description: 'UTC day' })
  date!: string;

  @ApiProperty({ format: 'date-time', description: 'When an export first included the day' })
  firstExportedAt!: string;

  @ApiProperty({ format: 'date-time', description: 'When its figures last changed after that' })
  changedAt!: string;
}

@ApiSchema({ name: 'RevisedUsageDayList' })
class RevisedUsageDayListBody {
  @ApiProperty({ type: [RevisedUsageDayBody] })
  data!: RevisedUsageDayBody[];
}

/** The days whose usage changed after an export first included them (late events, corrections). */
@ApiTags('usage')
@ApiAccountAuth()
@Controller('api/v1/orgs/:orgId')
@UseGuards(AccountAuthGuard)
export class UsageRevisionsController {
  constructor(private readonly marks: UsageExportMarks) {}

  @Get('revised-days')
  @OrgAccess(MEMBERS)
  @ApiOperation({ summary: 'Days whose usage changed after they were first exported' })
  @ApiQuery({ name: 'startDate', required: true, schema: { type: 'string', format: 'date' } })
  @ApiQuery({ name: 'endDate', required: true, schema: { type: 'string', format: 'date' } })
  @ApiOkResponse({ type: RevisedUsageDayListBody })
  @ApiErrors(400, 403, 404)
  async revisedDays(
    @Param('orgId') orgId: string,
    @Query('startDate') startDate: unknown,
    @Query('endDate') endDate: unknown,
  ): Promise<{ data: RevisedDay[] }> {
    const first = validDate('startDate', startDate);
    const last = validDate('endDate', endDate);
    const span = (Date.parse(last) - Date.parse(first)) / 86_400_000 + 1;
    if (span < 1 || span > MAX_DAYS) {
      throw ApiError.badRequest(
        'INVALID_DATE_RANGE',
        `endDate must be on or after startDate, at most ${MAX_DAYS} days`,
      );
    }
    return { data: await this.marks.revisedDays(orgId, first, last) };
  }
}

function validDate(name: string, value: unknown): string {
  if (typeof value !== 'string' || !DATE.test(value) || Number.isNaN(Date.parse(value))) {
    throw ApiError.badRequest('INVALID_DATE', `${name} must be a yyyy-mm-dd date`);
  }
  if (new Date(value).toISOString().slice(0, 10) !== value) {
    throw ApiError.badRequest('INVALID_DATE', `${name} must be a yyyy-mm-dd date`);
  }
  return value;
}
