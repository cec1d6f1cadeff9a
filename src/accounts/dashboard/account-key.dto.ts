import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

export class CreateAccountKeyDto {
  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;

  /** The org the usage export uses when a request names none; one the caller belongs to. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  defaultOrgId?: string;
}
