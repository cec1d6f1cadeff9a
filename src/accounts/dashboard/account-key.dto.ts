import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

@ApiSchema({ name: 'CreateAccountKey' })
export class CreateAccountKeyDto {
  @ApiPropertyOptional({ maxLength: 100, description: 'A label to recognise the key by' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;

  /** The org the usage export uses when a request names none; one the caller belongs to. */
  @ApiPropertyOptional({ minLength: 1 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  defaultOrgId?: string;
}
