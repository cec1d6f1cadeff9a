import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsOmittable } from './body-validation.pipe.js';

@ApiSchema({ name: 'CreateAccountKey' })
export class CreateAccountKeyDto {
  @ApiPropertyOptional({ maxLength: 100, description: 'A label to recognise the key by' })
  @IsOmittable()
  @IsString()
  @MaxLength(100)
  name?: string;

  /** The org the usage export uses when a request names none; one the caller belongs to. */
  @ApiPropertyOptional({ minLength: 1 })
  @IsOmittable()
  @IsString()
  @IsNotEmpty()
  defaultOrgId?: string;
}
