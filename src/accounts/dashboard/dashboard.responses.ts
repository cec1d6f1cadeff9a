import { ApiProperty, ApiSchema, IntersectionType } from '@nestjs/swagger';
import { MEMBER_ROLES } from '../accounts.types.js';

/** Bodies of the account dashboard API (organizations, processing and account keys). */

@ApiSchema({ name: 'MemberOrganization' })
class MemberOrganizationBody {
  @ApiProperty()
  orgId!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ enum: MEMBER_ROLES })
  role!: string;
}

@ApiSchema({ name: 'MemberOrganizationList' })
export class MemberOrganizationListBody {
  @ApiProperty({ type: [MemberOrganizationBody] })
  data!: MemberOrganizationBody[];
}

/** What a key's listing shows after its owner: never its secret. */
class KeyListingFields {
  @ApiProperty({ type: String, nullable: true })
  name!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  revokedAt!: string | null;
}

class ProcessingKeyOwner {
  @ApiProperty()
  keyId!: string;

  @ApiProperty()
  orgId!: string;
}

class AccountKeyOwner {
  @ApiProperty()
  keyId!: string;

  @ApiProperty()
  userId!: string;

  @ApiProperty({ type: String, nullable: true })
  defaultOrgId!: string | null;
}

@ApiSchema({ name: 'ProcessingKey', description: 'A processing key as listed: never its secret' })
export class ProcessingKeyBody extends IntersectionType(ProcessingKeyOwner, KeyListingFields) {}

@ApiSchema({ name: 'ProcessingKeyList' })
export class ProcessingKeyListBody {
  @ApiProperty({ type: [ProcessingKeyBody] })
  data!: ProcessingKeyBody[];
}

@ApiSchema({ name: 'CreatedProcessingKey' })
export class CreatedProcessingKeyBody {
  @ApiProperty()
  keyId!: string;

  @ApiProperty({ description: 'The key itself; shown only now' })
  secret!: string;

  @ApiProperty()
  orgId!: string;

  @ApiProperty({ type: String, nullable: true })
  name!: string | null;
}

@ApiSchema({
  name: 'AccountKey',
  description: 'A personal account key as listed: never its secret',
})
export class AccountKeyBody extends IntersectionType(AccountKeyOwner, KeyListingFields) {}

@ApiSchema({ name: 'AccountKeyList' })
export class AccountKeyListBody {
  @ApiProperty({ type: [AccountKeyBody] })
  data!: AccountKeyBody[];
}

@ApiSchema({ name: 'CreatedAccountKey' })
export class CreatedAccountKeyBody {
  @ApiProperty()
  keyId!: string;

  @ApiProperty({ description: 'The key itself; shown only now' })
  secret!: string;

  @ApiProperty({ type: String, nullable: true })
  defaultOrgId!: string | null;

  @ApiProperty({ type: String, nullable: true })
  name!: string | null;
}
