import { Body, Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { IsString, Length } from 'class-validator';
import { AccountAuthGuard } from '../../accounts/auth/account-auth.guard.js';
import { MANAGERS, MEMBERS, OrgAccess } from '../../accounts/auth/org-access.decorator.js';
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
  constructor(private readonly metadataKeys: MetadataKeyService) {}

  @Get()
  @OrgAccess(MEMBERS)
  async list(@Param('orgId') orgId: string) {
    return { data: await this.metadataKeys.list(orgId) };
  }

  @Post()
  @OrgAccess(MANAGERS)
  async enable(
    @Param('orgId') orgId: string,
    @Body() body: EnableMetadataKeyDto,
  ): Promise<MetadataKeyStatus> {
    return this.metadataKeys.enable(orgId, body.key);
  }

  @Delete(':key')
  @OrgAccess(MANAGERS)
  @HttpCode(204)
  async disable(@Param('orgId') orgId: string, @Param('key') key: string): Promise<void> {
    await this.metadataKeys.disable(orgId, key);
  }
}
