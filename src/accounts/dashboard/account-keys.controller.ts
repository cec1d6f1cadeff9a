import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAccountAuth, ApiErrors } from '../../common/openapi/api-responses.js';
import {
  AccountKeyBody,
  AccountKeyListBody,
  CreatedAccountKeyBody,
} from './dashboard.responses.js';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import type { AccountKeySummary, CreatedKey } from '../accounts.types.js';
import { AccountAuthGuard } from '../auth/account-auth.guard.js';
import { CurrentPrincipal } from '../auth/current-principal.decorator.js';
import { MEMBERS, OrgAccess } from '../auth/org-access.decorator.js';
import { ApiKeyService } from '../keys/api-key.service.js';
import type { AccountPrincipal } from '../principal.js';
import { CreateAccountKeyDto } from './account-key.dto.js';
import { bodyValidationPipe } from './body-validation.pipe.js';
import { labelOrNull } from '../../common/visible-text.js';

/** The dashboard's key page: the caller's own personal account API keys. */
@ApiTags('account')
@ApiAccountAuth()
@Controller('api/v1/account-keys')
@UseGuards(AccountAuthGuard)
export class AccountKeysController {
  constructor(private readonly keys: ApiKeyService) {}

  @Get()
  @ApiOperation({ summary: "The caller's personal account keys" })
  @ApiOkResponse({ type: AccountKeyListBody })
  async list(
    @CurrentPrincipal() principal: AccountPrincipal,
  ): Promise<{ data: AccountKeySummary[] }> {
    return { data: await this.keys.listAccountKeys(principal.userId) };
  }

  @Post()
  // The key's default org must be one the caller belongs to (any role).
  @OrgAccess(MEMBERS, { from: 'body', field: 'defaultOrgId', optional: true })
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a personal account key (secret shown once)' })
  @ApiCreatedResponse({ type: CreatedAccountKeyBody })
  @ApiErrors(400, 403, 404)
  async create(
    @CurrentPrincipal() principal: AccountPrincipal,
    @Body(bodyValidationPipe()) body: CreateAccountKeyDto,
  ): Promise<CreatedKey & { defaultOrgId: string | null; name: string | null }> {
    const defaultOrgId = body.defaultOrgId ?? null;
    const created = await this.keys.createAccountKey(principal.userId, {
      defaultOrgId,
      name: body.name,
    });
    return { ...created, defaultOrgId, name: labelOrNull(body.name) };
  }

  @Delete(':keyId')
  @ApiOperation({ summary: 'Revoke a personal account key' })
  @ApiOkResponse({ type: AccountKeyBody })
  @ApiErrors(404)
  revoke(
    @CurrentPrincipal() principal: AccountPrincipal,
    @Param('keyId') keyId: string,
  ): Promise<AccountKeySummary> {
    return this.keys.revokeAccountKey(principal.userId, keyId);
  }
}
