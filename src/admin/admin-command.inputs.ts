import { IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { MEMBER_ROLES, type MemberRole } from '../accounts/accounts.types.js';

/** Input of commands that take no options. */
export class NoInput {}

export class OrgCreateInput {
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;
}

export class UserCreateInput {
  // The service validates the address itself, so both the CLI and HTTP paths say the same.
  @IsString()
  @IsNotEmpty()
  email!: string;
}

export class MemberAddInput {
  @IsString()
  @IsNotEmpty()
  orgId!: string;

  @IsString()
  @IsNotEmpty()
  userId!: string;

  @IsOptional()
  @IsIn(MEMBER_ROLES)
  role?: MemberRole;
}

export class AccountKeyCreateInput {
  @IsString()
  @IsNotEmpty()
  userId!: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  orgId?: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;
}

export class ProcessingKeyCreateInput {
  @IsString()
  @IsNotEmpty()
  orgId!: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;
}

export class OrgInput {
  @IsString()
  @IsNotEmpty()
  orgId!: string;
}

export class UserInput {
  @IsString()
  @IsNotEmpty()
  userId!: string;
}

export class ProcessingKeyRevokeInput {
  @IsString()
  @IsNotEmpty()
  orgId!: string;

  @IsString()
  @IsNotEmpty()
  keyId!: string;
}

export class MetadataKeyInput {
  @IsString()
  @IsNotEmpty()
  orgId!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  key!: string;
}

export class FileInput {
  @IsString()
  @IsNotEmpty()
  file!: string;
}

export class AccountKeyRevokeInput {
  @IsString()
  @IsNotEmpty()
  userId!: string;

  @IsString()
  @IsNotEmpty()
  keyId!: string;
}
