import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { IsString, Length } from 'class-validator';
import { AccountAuthGuard } from '../../accounts/auth/account-auth.guard.js';
import { CurrentPrincipal } from '../../accounts/auth/current-principal.decorator.js';
import { AccountsService } from '../../accounts/accounts.service.js';
import type { AccountPrincipal } from '../../accounts/principal.js';
import { MetadataKeyService } from './metadata-key.service.js';
import type { MetadataKeyStatus } from './metadata-key.repository.js';

export class EnableMetadataKeyDto {
  @IsString()
  @Length(1, 256)
  key!: string;
}

/** Dashboard endpoints: which async-metadata keys an org can group its usage by. */
@Controller('api/v1/orgs/:orgId/metadata-keys')
@UseGuards(AccountAuthGuard)
export class MetadataKeyController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly metadataKeys: MetadataKeyService,
  ) {}

  @Get()
  async list(@CurrentPrincipal() principal: AccountPrincipal, @Param('orgId') orgId: string) {
    await this.accounts.requireMember(principal.userId, orgId);
    return { data: await this.metadataKeys.list(orgId) };
  }

  @Post()
  async enable(
    @CurrentPrincipal() principal: AccountPrincipal,
    @Param('orgId') orgId: string,
    @Body() body: EnableMetadataKeyDto,
  ): Promise<MetadataKeyStatus> {
    await this.accounts.requireMember(principal.userId, orgId);
    return this.metadataKeys.enable(orgId, body.key);
  }

  @Delete(':key')
  @HttpCode(204)
  async disable(
    @CurrentPrincipal() principal: AccountPrincipal,
    @Param('orgId') orgId: string,
    @Param('key') key: string,
  ): Promise<void> {
    await this.accounts.requireMember(principal.userId, orgId);
    await this.metadataKeys.disable(orgId, key);
  }
}
