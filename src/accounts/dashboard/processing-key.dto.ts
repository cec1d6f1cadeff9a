import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

@ApiSchema({ name: 'CreateProcessingKey' })
export class CreateProcessingKeyDto {
  /** A label to recognise the key by, e.g. "ci" or "production". */
  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;
}
