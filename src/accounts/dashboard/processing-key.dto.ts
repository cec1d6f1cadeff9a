import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { IsOmittable } from './body-validation.pipe.js';

@ApiSchema({ name: 'CreateProcessingKey' })
export class CreateProcessingKeyDto {
  /** A label to recognise the key by, e.g. "ci" or "production". */
  @ApiPropertyOptional({ maxLength: 100 })
  @IsOmittable()
  @IsString()
  @MaxLength(100)
  name?: string;
}
