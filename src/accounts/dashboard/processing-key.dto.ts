import { IsOptional, IsString, MaxLength } from 'class-validator';

export class CreateProcessingKeyDto {
  /** A label to recognise the key by, e.g. "ci" or "production". */
  @IsOptional()
  @IsString()
  @MaxLength(100)
  name?: string;
}
